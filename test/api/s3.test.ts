// The S3 API through the AWS SDK v3 S3 client, path-style and virtual-hosted-style: buckets, objects, ranges,
// ETags, Content-MD5, copies, listing, and S3's own error codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketLocationCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { startServer, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { thrownBy } from '../helpers/errors.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const md5 = (s: string) => createHash('md5').update(s).digest();

describe.each(['path', 'virtual'] as const)('S3 with %s-style addressing', (style) => {
  let s3: S3Client;
  const bucket = `objects-${style}`;
  beforeAll(async () => {
    s3 = s3Client(server.endpoint, style);
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  });

  it('PutObject answers the MD5 ETag; GetObject returns the bytes, type and metadata', async () => {
    const put = await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'dir/hello world.txt',
        Body: 'hello world',
        ContentType: 'text/plain',
        Metadata: { owner: 'me' },
      }),
    );
    expect(put.ETag).toBe(`"${md5('hello world').toString('hex')}"`);
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'dir/hello world.txt' }));
    expect(await got.Body!.transformToString()).toBe('hello world');
    expect(got).toMatchObject({
      ContentType: 'text/plain',
      ContentLength: 11,
      ETag: put.ETag,
      Metadata: { owner: 'me' },
    });
  });

  it('GetObject with Range answers 206 and the slice; a range past the end is InvalidRange', async () => {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'digits', Body: '0123456789' }));
    const part = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'digits', Range: 'bytes=2-5' }));
    expect(part.$metadata.httpStatusCode).toBe(206);
    expect(part.ContentRange).toBe('bytes 2-5/10');
    expect(await part.Body!.transformToString()).toBe('2345');
    const tail = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'digits', Range: 'bytes=-3' }));
    expect(await tail.Body!.transformToString()).toBe('789');
    const err = await thrownBy(s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'digits', Range: 'bytes=20-30' })));
    expect(err).toMatchObject({ name: 'InvalidRange', $metadata: { httpStatusCode: 416 } });
  });

  it('checks Content-MD5: a wrong digest is BadDigest and nothing is stored', async () => {
    const ok = await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'md5', Body: 'abc', ContentMD5: md5('abc').toString('base64') }),
    );
    expect(ok.ETag).toBe(`"${md5('abc').toString('hex')}"`);
    const err = await thrownBy(
      s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: 'md5-bad',
          Body: 'abc',
          ContentMD5: md5('abd').toString('base64'),
        }),
      ),
    );
    expect(err).toMatchObject({
      name: 'BadDigest',
      message: 'The Content-MD5 you specified did not match what we received.',
    });
    const missing = await thrownBy(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'md5-bad' })));
    expect(missing).toMatchObject({ $metadata: { httpStatusCode: 404 } });
  });

  it('HeadObject answers size, ETag and type; a missing key is NotFound (404, no body)', async () => {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'digits' }));
    expect(head).toMatchObject({
      ContentLength: 10,
      ETag: `"${md5('0123456789').toString('hex')}"`,
      AcceptRanges: 'bytes',
    });
    const err = await thrownBy(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'nope' })));
    expect(err).toMatchObject({ name: 'NotFound', $metadata: { httpStatusCode: 404 } });
  });

  it('GetObject of a missing key is NoSuchKey; of a missing bucket NoSuchBucket', async () => {
    expect(await thrownBy(s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'nope' })))).toMatchObject({
      name: 'NoSuchKey',
      message: 'The specified key does not exist.',
    });
    expect(await thrownBy(s3.send(new GetObjectCommand({ Bucket: 'no-such-bucket-here', Key: 'k' })))).toMatchObject({
      name: 'NoSuchBucket',
      message: 'The specified bucket does not exist',
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('CopyObject copies bytes and metadata; copying onto itself unchanged is InvalidRequest', async () => {
    const copy = await s3.send(
      new CopyObjectCommand({ Bucket: bucket, Key: 'copied', CopySource: `${bucket}/dir/hello%20world.txt` }),
    );
    expect(copy.CopyObjectResult?.ETag).toBe(`"${md5('hello world').toString('hex')}"`);
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'copied' }));
    expect(await got.Body!.transformToString()).toBe('hello world');
    expect(got.Metadata).toEqual({ owner: 'me' });
    const err = await thrownBy(
      s3.send(new CopyObjectCommand({ Bucket: bucket, Key: 'copied', CopySource: `${bucket}/copied` })),
    );
    expect(err).toMatchObject({ name: 'InvalidRequest' });
  });

  it('ListObjectsV2 lists in key order, folds at the delimiter and pages with a continuation token', async () => {
    const all = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(all.Contents?.map((o) => o.Key)).toEqual(['copied', 'digits', 'dir/hello world.txt', 'md5']);
    const folded = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Delimiter: '/' }));
    expect(folded.CommonPrefixes).toEqual([{ Prefix: 'dir/' }]);
    expect(folded.KeyCount).toBe(4);
    const first = await s3.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 3 }));
    expect(first).toMatchObject({ IsTruncated: true, KeyCount: 3 });
    const second = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 3, ContinuationToken: first.NextContinuationToken }),
    );
    expect(second.Contents?.map((o) => o.Key)).toEqual(['md5']);
    expect(second.IsTruncated).toBe(false);
  });

  it('DeleteBucket refuses a bucket with objects (BucketNotEmpty); DeleteObjects empties it; then it goes', async () => {
    expect(await thrownBy(s3.send(new DeleteBucketCommand({ Bucket: bucket })))).toMatchObject({
      name: 'BucketNotEmpty',
      message: 'The bucket you tried to delete is not empty',
      $metadata: { httpStatusCode: 409 },
    });
    const keys = (await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents!.map((o) => ({ Key: o.Key! }));
    const deleted = await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
    expect(deleted.Deleted?.map((d) => d.Key).sort()).toEqual(keys.map((k) => k.Key).sort());
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'never-there' }));
    await s3.send(new DeleteBucketCommand({ Bucket: bucket }));
    expect(await thrownBy(s3.send(new HeadBucketCommand({ Bucket: bucket })))).toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
  });
});

describe('S3 buckets', () => {
  let s3: S3Client;
  beforeAll(() => {
    s3 = s3Client(server.endpoint);
  });

  it("ListBuckets lists the account's buckets by name; GetBucketLocation is empty for us-east-1", async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'zeta-bucket' }));
    await s3.send(new CreateBucketCommand({ Bucket: 'alpha-bucket' }));
    const names = (await s3.send(new ListBucketsCommand({}))).Buckets!.map((b) => b.Name);
    expect(names.indexOf('alpha-bucket')).toBeLessThan(names.indexOf('zeta-bucket'));
    const location = await s3.send(new GetBucketLocationCommand({ Bucket: 'alpha-bucket' }));
    expect(location.LocationConstraint).toBeUndefined();
  });

  it("CreateBucket lands in its LocationConstraint, which must be the endpoint's region; twice is BucketAlreadyOwnedByYou", async () => {
    const eu = s3Client(server.endpoint, 'path', 'eu-west-1');
    const elsewhere = await thrownBy(
      s3.send(
        new CreateBucketCommand({
          Bucket: 'eu-bucket',
          CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' },
        }),
      ),
    );
    expect(elsewhere).toMatchObject({
      name: 'IllegalLocationConstraintException',
      message:
        'The eu-west-1 location constraint is incompatible for the region specific endpoint this request was sent to.',
    });
    await eu.send(
      new CreateBucketCommand({ Bucket: 'eu-bucket', CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' } }),
    );
    expect((await s3.send(new GetBucketLocationCommand({ Bucket: 'eu-bucket' }))).LocationConstraint).toBe('eu-west-1');
    expect((await s3.send(new HeadBucketCommand({ Bucket: 'eu-bucket' }))).BucketRegion).toBe('eu-west-1');
    const again = await thrownBy(
      eu.send(
        new CreateBucketCommand({
          Bucket: 'eu-bucket',
          CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' },
        }),
      ),
    );
    expect(again).toMatchObject({ name: 'BucketAlreadyOwnedByYou', $metadata: { httpStatusCode: 409 } });
  });

  it('refuses a bucket name S3 does not allow with InvalidBucketName', async () => {
    expect(await thrownBy(s3.send(new CreateBucketCommand({ Bucket: 'Upper_Case' })))).toMatchObject({
      name: 'InvalidBucketName',
    });
  });
});
