import { describe, it, expect } from 'vitest';
import {
  accessKeyFromAuthorization,
  credentialScope,
  regionFromAuthorization,
} from '../../../server/protocol/index.js';

const HEADER =
  'AWS4-HMAC-SHA256 Credential=123456789012/20261130/eu-west-3/cloudformation/aws4_request, ' +
  'SignedHeaders=content-type;host;x-amz-date, Signature=abcdef';

describe('sigv4', () => {
  it('reads region and access key from an Authorization header', () => {
    expect(regionFromAuthorization(HEADER)).toBe('eu-west-3');
    expect(accessKeyFromAuthorization(HEADER)).toBe('123456789012');
    expect(credentialScope(HEADER)).toEqual({
      accessKeyId: '123456789012',
      date: '20261130',
      region: 'eu-west-3',
      service: 'cloudformation',
    });
  });

  it("reads a presigned URL's X-Amz-Credential value", () => {
    const value = new URLSearchParams(
      'X-Amz-Credential=AKID%2F20261130%2Fap-south-1%2Fcloudformation%2Faws4_request',
    ).get('X-Amz-Credential')!;
    expect(regionFromAuthorization(value)).toBe('ap-south-1');
    expect(accessKeyFromAuthorization(value)).toBe('AKID');
  });

  it('returns undefined for a missing, SigV4a or malformed credential', () => {
    expect(regionFromAuthorization(undefined)).toBeUndefined();
    expect(regionFromAuthorization('')).toBeUndefined();
    expect(
      regionFromAuthorization('AWS4-ECDSA-P256-SHA256 Credential=AKID/20261130/cloudformation/aws4_request, S=x'),
    ).toBeUndefined();
    expect(accessKeyFromAuthorization('Bearer token')).toBeUndefined();
  });

  it('reads what the AWS SDK actually signs', async () => {
    const { fakeClient } = await import('./fakeSdk.js');
    const { encodeResult } = await import('../../../server/protocol/index.js');
    const { DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
    const { client, requests } = fakeClient(() => ({ statusCode: 200, body: encodeResult('DescribeStacks', {}, 'r') }));
    await client.send(new DescribeStacksCommand({}));
    expect(regionFromAuthorization(requests[0].headers.authorization)).toBe('eu-west-3');
    expect(accessKeyFromAuthorization(requests[0].headers.authorization)).toBe('AKIDEXAMPLE');
  });
});
