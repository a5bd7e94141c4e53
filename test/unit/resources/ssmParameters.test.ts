// The one SSM lookup (resources/ssmParameters.ts): the account's own parameters with their versions, AWS's public
// ones in every account and region, paths listed as GetParametersByPath lists them, reserved names refused.
import { describe, expect, it } from 'vitest';
import { Store } from '../../../storage/index.js';
import {
  readSsmParameter,
  reservedParameterNameMessage,
  ssmParametersByPath,
} from '../../../resources/ssmParameters.js';

const scope = { account: '123456789012', region: 'us-east-1' };

function storeWith(name: string, versions: string[]) {
  const store = Store.open(':memory:');
  store.world.put({
    ...scope,
    type: 'AWS::SSM::Parameter',
    physicalId: name,
    name,
    createdAt: '2026-01-01T00:00:00.000Z',
    properties: { Name: name, Type: 'String', Value: versions.at(-1) },
    attributes: {},
    state: { versions },
  });
  return store;
}

describe('readSsmParameter', () => {
  it('reads an account parameter at its latest or a given version, by name or ARN', () => {
    const store = storeWith('/app/x', ['one', 'two']);
    expect(readSsmParameter(store.world, scope, '/app/x')).toMatchObject({
      Name: '/app/x',
      Type: 'String',
      Value: 'two',
      Version: 2,
      DataType: 'text',
      ARN: 'arn:aws:ssm:us-east-1:123456789012:parameter/app/x',
    });
    expect(readSsmParameter(store.world, scope, '/app/x', 1)?.Value).toBe('one');
    expect(readSsmParameter(store.world, scope, '/app/x', 3)).toBeUndefined();
    expect(readSsmParameter(store.world, scope, 'arn:aws:ssm:us-east-1:123456789012:parameter/app/x')?.Value).toBe(
      'two',
    );
    expect(readSsmParameter(store.world, { ...scope, account: '210987654321' }, '/app/x')).toBeUndefined();
  });

  it('reads a public parameter in any account, with no account in its ARN and the image data type', () => {
    const store = Store.open(':memory:');
    const name = '/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2';
    const found = readSsmParameter(store.world, scope, name)!;
    expect(found).toMatchObject({
      Name: name,
      Type: 'String',
      DataType: 'aws:ec2:image',
      ARN: `arn:aws:ssm:us-east-1::parameter${name}`,
    });
    expect(found.Value).toMatch(/^ami-[0-9a-f]{17}$/);
    expect(readSsmParameter(store.world, { ...scope, account: '210987654321' }, name)?.Value).toBe(found.Value);
    expect(readSsmParameter(store.world, { ...scope, region: 'eu-west-1' }, name)?.Value).not.toBe(found.Value);
    expect(readSsmParameter(store.world, scope, '/aws/service/nothing/here')).toBeUndefined();
  });

  it('gives the same public values after many other regions were read (only the last few are kept built)', () => {
    const store = Store.open(':memory:');
    const name = '/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2';
    const first = readSsmParameter(store.world, scope, name)!.Value;
    for (let i = 0; i < 10; i++) readSsmParameter(store.world, { ...scope, region: `xx-test-${i}` }, name);
    expect(readSsmParameter(store.world, scope, name)!.Value).toBe(first);
  });

  it('gives the ECS-optimized summary as JSON whose image_id is the image_id parameter', () => {
    const store = Store.open(':memory:');
    const base = '/aws/service/ecs/optimized-ami/amazon-linux-2/recommended';
    const summary = JSON.parse(readSsmParameter(store.world, scope, base)!.Value) as { image_id: string };
    expect(summary.image_id).toBe(readSsmParameter(store.world, scope, `${base}/image_id`)!.Value);
  });
});

describe('ssmParametersByPath', () => {
  it('lists one level, or every level when recursive, sorted by name', () => {
    const store = Store.open(':memory:');
    const level = ssmParametersByPath(
      store.world,
      scope,
      '/aws/service/global-infrastructure/regions/us-east-1',
      false,
    ).map((p) => p.Name);
    expect(level).toContain('/aws/service/global-infrastructure/regions/us-east-1/longName');
    expect(level.some((n) => n.includes('/services/'))).toBe(false);
    const deep = ssmParametersByPath(store.world, scope, '/aws/service/global-infrastructure/regions/us-east-1', true);
    expect(deep.find((p) => p.Name.endsWith('/services/s3'))?.Value).toBe('s3');
    expect(deep.filter((p) => p.Name.includes('/availability-zones/')).map((p) => p.Value)).toEqual([
      'use1-az1',
      'use1-az2',
      'use1-az3',
      'use1-az4',
      'use1-az5',
      'use1-az6',
    ]);
    expect([...deep.map((p) => p.Name)].sort()).toEqual(deep.map((p) => p.Name));
  });

  it("lists the account's own parameters under a path", () => {
    const store = storeWith('/app/x', ['one']);
    expect(ssmParametersByPath(store.world, scope, '/app', false).map((p) => p.Name)).toEqual(['/app/x']);
    expect(ssmParametersByPath(store.world, scope, '/other', true)).toEqual([]);
  });
});

describe('reservedParameterNameMessage', () => {
  it.each(['/aws/service/x', 'aws-thing', '/SSM/x', 'ssmvalue'])('refuses %s', (name) => {
    expect(reservedParameterNameMessage(name)).toMatch(
      /^Parameter name: can't be prefixed with "aws" or "ssm" \(case-insensitive\)/,
    );
  });
  it.each(['/app/aws', 'my-aws', '/x/ssm'])('accepts %s', (name) => {
    expect(reservedParameterNameMessage(name)).toBeUndefined();
  });
});
