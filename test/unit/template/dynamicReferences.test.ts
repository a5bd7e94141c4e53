// template/dynamicReferences.ts: the reference forms AWS documents, resolved against given sources.
import { describe, it, expect } from 'vitest';
import { resolveDynamicReferences } from '../../../template/dynamicReferences.js';

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:db-AbCdEf';
const sources = {
  ssm: (name: string) => (({ '/a/b': 'v1', plain: 'p' }) as Record<string, string>)[name],
  secret: (id: string) => (id === SECRET_ARN || id === 'db' ? '{"user":"u","port":5432}' : undefined),
};

describe('resolveDynamicReferences', () => {
  it.each([
    ['{{resolve:ssm:/a/b}}', 'v1'],
    ['x{{resolve:ssm:/a/b:3}}y{{resolve:ssm:plain}}', 'xv1yp'],
    ['{{resolve:ssm:arn:aws:ssm:us-east-1:000000000000:parameter/a/b:2}}', 'v1'],
    ['{{resolve:ssm-secure:plain}}', 'p'],
    ['{{resolve:secretsmanager:db}}', '{"user":"u","port":5432}'],
    [`{{resolve:secretsmanager:${SECRET_ARN}:SecretString:user}}`, 'u'],
    ['{{resolve:secretsmanager:db:SecretString:port::}}', '5432'],
    ['no reference', 'no reference'],
  ])('%s → %s', (text, value) => expect(resolveDynamicReferences(text, sources)).toBe(value));

  it.each([
    ['{{resolve:ssm:/none}}', 'Parameters: [ssm:/none] cannot be found.'],
    ['{{resolve:secretsmanager:nope}}', "Secrets Manager can't find the specified secret."],
    ['{{resolve:secretsmanager:db:SecretBinary}}', 'only SecretString is supported'],
  ])('%s fails with AWS text', (text, message) =>
    expect(() => resolveDynamicReferences(text, sources)).toThrow(message),
  );
});
