// S3 multipart upload and streamed bodies through the AWS SDK v3: the `-N` ETag S3 computes, ListParts, Abort,
// S3's refusals (EntityTooSmall, InvalidPartOrder, InvalidPart, NoSuchUpload), and aws-chunked payloads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { startServer, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { thrownBy } from '../helpers/errors.js';

let server: TestServer;
let s3: S3Client;
const Bucket = 'multipart-bucket';
beforeAll(async () => {
  server = await startServer();
  s3 = s3Client(server.endpoint);
  await s3.send(new CreateBucketCommand({ Bucket }));
});
afterAll(() => server.close());

const md5 = (b: Buffer) => createHash('md5').update(b).digest();
const MIB = 1024 * 1024;

describe('multipart upload', () => {
  it('CompleteMultipartUpload joins the parts in order; the ETag is MD5 of the part MD5s, then -N', async () => {
    const part1 = Buffer.alloc(5 * MIB, 'a');
    const part2 = Buffer.from('the end');
    const { UploadId } = await s3.send(
      new CreateMultipartUploadCommand({ Bucket, Key: 'big', ContentType: 'text/plain' }),
    );
    const p1 = await s3.send(new UploadPartCommand({ Bucket, Key: 'big', UploadId, PartNumber: 1, Body: part1 }));
    const p2 = await s3.send(new UploadPartCommand({ Bucket, Key: 'big', UploadId, PartNumber: 2, Body: part2 }));
    expect(p1.ETag).toBe(`"${md5(part1).toString('hex')}"`);
    const parts = await s3.send(new ListPartsCommand({ Bucket, Key: 'big', UploadId }));
    expect(parts.Parts?.map((p) => [p.PartNumber, p.Size])).toEqual([
      [1, 5 * MIB],
      [2, 7],
    ]);
    const done = await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key: 'big',
        UploadId,
        MultipartUpload: {
          Parts: [
            { PartNumber: 1, ETag: p1.ETag },
            { PartNumber: 2, ETag: p2.ETag },
          ],
        },
      }),
    );
    const expected = createHash('md5')
      .update(Buffer.concat([md5(part1), md5(part2)]))
      .digest('hex');
    expect(done.ETag).toBe(`"${expected}-2"`);
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: 'big', Range: `bytes=${5 * MIB - 2}-` }));
    expect(await got.Body!.transformToString()).toBe('aathe end');
    expect(got.ContentType).toBe('text/plain');
    const gone = await thrownBy(s3.send(new ListPartsCommand({ Bucket, Key: 'big', UploadId })));
    expect(gone).toMatchObject({ name: 'NoSuchUpload', $metadata: { httpStatusCode: 404 } });
  });

  it('refuses a part under 5 MiB but the last (EntityTooSmall), parts out of order (InvalidPartOrder), a wrong ETag (InvalidPart)', async () => {
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: 'small' }));
    const p1 = await s3.send(new UploadPartCommand({ Bucket, Key: 'small', UploadId, PartNumber: 1, Body: 'one' }));
    const p2 = await s3.send(new UploadPartCommand({ Bucket, Key: 'small', UploadId, PartNumber: 2, Body: 'two' }));
    const complete = (Parts: { PartNumber: number; ETag?: string }[]) =>
      thrownBy(
        s3.send(new CompleteMultipartUploadCommand({ Bucket, Key: 'small', UploadId, MultipartUpload: { Parts } })),
      );
    expect(
      await complete([
        { PartNumber: 1, ETag: p1.ETag },
        { PartNumber: 2, ETag: p2.ETag },
      ]),
    ).toMatchObject({ name: 'EntityTooSmall' });
    expect(
      await complete([
        { PartNumber: 2, ETag: p2.ETag },
        { PartNumber: 1, ETag: p1.ETag },
      ]),
    ).toMatchObject({ name: 'InvalidPartOrder' });
    expect(await complete([{ PartNumber: 1, ETag: '"0123"' }])).toMatchObject({ name: 'InvalidPart' });
    await s3.send(new AbortMultipartUploadCommand({ Bucket, Key: 'small', UploadId }));
    expect(await thrownBy(s3.send(new AbortMultipartUploadCommand({ Bucket, Key: 'small', UploadId })))).toMatchObject({
      name: 'NoSuchUpload',
    });
  });

  it('refuses a part number outside 1..10000 with InvalidArgument', async () => {
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: 'numbers' }));
    const err = await thrownBy(
      s3.send(new UploadPartCommand({ Bucket, Key: 'numbers', UploadId, PartNumber: 10001, Body: 'x' })),
    );
    expect(err).toMatchObject({
      name: 'InvalidArgument',
      message: 'Part number must be an integer between 1 and 10000, inclusive',
    });
  });
});

describe('streamed bodies', () => {
  it('takes a body of unknown length from the SDK (aws-chunked with a trailing checksum)', async () => {
    const chunks = [Buffer.alloc(300_000, 'x'), Buffer.alloc(5, 'y')];
    await s3.send(
      new PutObjectCommand({ Bucket, Key: 'streamed', Body: Readable.from(chunks), ContentLength: 300_005 }),
    );
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: 'streamed' }));
    const bytes = Buffer.from(await got.Body!.transformToByteArray());
    expect(bytes.length).toBe(300_005);
    expect(got.ETag).toBe(`"${md5(Buffer.concat(chunks)).toString('hex')}"`);
  });

  it('decodes a signed aws-chunked body as the CLI sends it (chunk signatures, trailer)', async () => {
    const body =
      '5;chunk-signature=aaaa\r\nhello\r\n6;chunk-signature=bbbb\r\n world\r\n0;chunk-signature=cccc\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n';
    const res = await fetch(`${server.endpoint}/${Bucket}/chunked`, {
      method: 'PUT',
      body,
      headers: {
        'x-amz-content-sha256': 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER',
        'content-encoding': 'aws-chunked',
        'x-amz-decoded-content-length': '11',
        authorization:
          'AWS4-HMAC-SHA256 Credential=test/20261201/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=00',
      },
    });
    expect(res.status).toBe(200);
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: 'chunked' }));
    expect(await got.Body!.transformToString()).toBe('hello world');
    expect(got.ContentEncoding).toBeUndefined();
  });

  it('answers IncompleteBody when an aws-chunked body ends before its last chunk', async () => {
    const res = await fetch(`${server.endpoint}/${Bucket}/cut`, {
      method: 'PUT',
      body: '5;chunk-signature=aaaa\r\nhel',
      headers: { 'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER' },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<Code>IncompleteBody</Code>');
  });
});
