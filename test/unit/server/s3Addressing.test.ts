// S3 addressing and routing tables, and the URL forms CloudFormation reads: each row a case.
import { describe, expect, it } from 'vitest';
import { s3Address, s3OperationFor } from '../../../server/services/s3Routes.js';
import { checkPresignedExpiry } from '../../../server/services/s3Presign.js';
import { parseS3Url } from '../../../resources/s3Urls.js';

describe('s3Address', () => {
  it.each([
    ['127.0.0.1', '/', {}],
    ['127.0.0.1', '/bucket', { bucket: 'bucket' }],
    ['127.0.0.1', '/bucket/', { bucket: 'bucket' }],
    ['127.0.0.1', '/bucket/a/b%20c.txt', { bucket: 'bucket', key: 'a/b c.txt' }],
    ['127.0.0.1', '/bucket/a//b', { bucket: 'bucket', key: 'a//b' }],
    ['bucket.localhost', '/key', { bucket: 'bucket', key: 'key' }],
    ['my.dotted.bucket.s3.amazonaws.com', '/', { bucket: 'my.dotted.bucket' }],
    ['bucket.s3.eu-west-1.amazonaws.com', '/k', { bucket: 'bucket', key: 'k' }],
    ['bucket.s3-eu-west-1.amazonaws.com', '/k', { bucket: 'bucket', key: 'k' }],
    ['s3.amazonaws.com', '/bucket/k', { bucket: 'bucket', key: 'k' }],
    ['s3.localhost', '/bucket/k', { bucket: 'bucket', key: 'k' }],
  ])('%s%s addresses %j', (host, path, expected) => {
    expect(s3Address(host, path)).toEqual(expected);
  });
});

describe('s3OperationFor', () => {
  const bucket = { bucket: 'b' };
  const object = { bucket: 'b', key: 'k' };
  it.each([
    ['GET', {}, {}, {}, 'ListBuckets'],
    ['PUT', bucket, {}, {}, 'CreateBucket'],
    ['GET', bucket, { 'list-type': '2' }, {}, 'ListObjectsV2'],
    ['GET', bucket, { versioning: '' }, {}, 'GetBucketVersioning'],
    ['DELETE', bucket, { publicAccessBlock: '' }, {}, 'DeletePublicAccessBlock'],
    ['POST', bucket, { delete: '' }, {}, 'DeleteObjects'],
    ['PUT', object, {}, {}, 'PutObject'],
    ['PUT', object, {}, { 'x-amz-copy-source': 'b/src' }, 'CopyObject'],
    ['PUT', object, { partNumber: '1', uploadId: 'u' }, {}, 'UploadPart'],
    ['POST', object, { uploads: '' }, {}, 'CreateMultipartUpload'],
    ['POST', object, { uploadId: 'u' }, {}, 'CompleteMultipartUpload'],
    ['DELETE', object, { uploadId: 'u' }, {}, 'AbortMultipartUpload'],
    ['GET', object, { uploadId: 'u' }, {}, 'ListParts'],
    ['HEAD', object, {}, {}, 'HeadObject'],
  ])('%s %j %j is %s', (method, address, query, headers, op) => {
    expect(s3OperationFor(method, address, query, headers)).toBe(op);
  });

  it('refuses a sub-resource it does not serve with NotImplemented, naming it', () => {
    expect(() => s3OperationFor('GET', { bucket: 'b' }, { cors: '' }, {})).toThrow(/\?cors/);
    expect(() => s3OperationFor('PUT', { bucket: 'b', key: 'k' }, { tagging: '' }, {})).toThrow(/\?tagging/);
  });
});

describe('checkPresignedExpiry', () => {
  const signed = {
    'X-Amz-Credential': 'AKID/20261201/us-east-1/s3/aws4_request',
    'X-Amz-Date': '20261201T120000Z',
    'X-Amz-Expires': '60',
  };
  it('lets a URL through within its X-Amz-Expires, and refuses it after with AccessDenied "Request has expired"', () => {
    expect(() => checkPresignedExpiry(signed, Date.UTC(2026, 11, 1, 12, 0, 59))).not.toThrow();
    expect(() => checkPresignedExpiry(signed, Date.UTC(2026, 11, 1, 12, 1, 1))).toThrow('Request has expired');
  });
});

describe('parseS3Url', () => {
  it.each([
    ['https://b.s3.amazonaws.com/k/t.yaml', { bucket: 'b', key: 'k/t.yaml' }],
    ['https://b.s3.us-west-2.amazonaws.com/t.yaml', { bucket: 'b', key: 't.yaml' }],
    ['https://b.s3-us-west-2.amazonaws.com/t.yaml', { bucket: 'b', key: 't.yaml' }],
    ['https://s3.amazonaws.com/b/t.yaml', { bucket: 'b', key: 't.yaml' }],
    ['https://s3.cn-north-1.amazonaws.com.cn/b/t.yaml', { bucket: 'b', key: 't.yaml' }],
    ['http://localhost:4581/b/t%20x.yaml', { bucket: 'b', key: 't x.yaml' }],
    ['http://b.localhost:4581/t.yaml', { bucket: 'b', key: 't.yaml' }],
    ['http://cfn-local:4581/b/t.yaml', { bucket: 'b', key: 't.yaml' }],
    ['https://example.com/b/t.yaml', undefined],
    ['https://s3.amazonaws.com/b', undefined],
    ['ftp://s3.amazonaws.com/b/k', undefined],
  ])('%s is %j', (url, expected) => {
    expect(parseS3Url(url)).toEqual(expected);
  });
});
