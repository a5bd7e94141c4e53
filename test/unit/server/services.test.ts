// The dispatch table's routing: credential scope first, then X-Amz-Target, then what an entry claims, else the first.
import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { route, routingFacts, type AwsService } from '../../../server/services/index.js';

const entry = (signingName: string, extra: Partial<AwsService> = {}): AwsService => ({
  signingName,
  handle: async () => undefined,
  ...extra,
});
const CFN = entry('cloudformation', { targetPrefixes: ['CloudFormation'] });
const SSM = entry('ssm', { targetPrefixes: ['AmazonSSM'] });
const S3 = entry('s3', { claims: (f) => f.host.endsWith('.localhost') || f.path !== '/' });
const TABLE = [CFN, S3, SSM];

function request(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return { method, headers, raw: { url } } as unknown as FastifyRequest;
}

function routed(url: string, headers: Record<string, string> = {}, query: Record<string, string> = {}) {
  const req = request(url, headers);
  const result = route(req, routingFacts(req, query), TABLE);
  return 'service' in result ? result.service.signingName : `unknown:${result.unknownService}`;
}

describe('route', () => {
  it("takes the service from the Authorization header's credential scope", () => {
    const auth =
      'AWS4-HMAC-SHA256 Credential=AKID/20261201/eu-west-1/ssm/aws4_request, SignedHeaders=host, Signature=x';
    expect(routed('/bucket/key', { authorization: auth })).toBe('ssm');
  });

  it("takes the service from a presigned URL's X-Amz-Credential", () => {
    expect(
      routed('/b/k?X-Amz-Credential=x', {}, { 'X-Amz-Credential': 'AKID/20261201/us-east-1/s3/aws4_request' }),
    ).toBe('s3');
  });

  it('names a signed service that is not in the table', () => {
    const auth =
      'AWS4-HMAC-SHA256 Credential=AKID/20261201/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x';
    expect(routed('/', { authorization: auth })).toBe('unknown:dynamodb');
  });

  it('routes an unsigned awsJson call by its X-Amz-Target prefix', () => {
    expect(routed('/', { 'x-amz-target': 'AmazonSSM.GetParameter' })).toBe('ssm');
  });

  it('lets an entry claim an unsigned request by Host or path, and falls back to the first entry', () => {
    expect(routed('/', { host: 'bucket.localhost:4581' })).toBe('s3');
    expect(routed('/bucket/key', { host: '127.0.0.1:4581' })).toBe('s3');
    expect(routed('/?Action=ListStacks', { host: '127.0.0.1:4581' })).toBe('cloudformation');
  });
});
