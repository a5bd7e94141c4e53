// A client that hangs up mid-body, or whose body breaks its framing, never takes the server down (issue #25): the
// upload is dropped, nothing half-written stays on disk, and the next request is answered. Raw sockets, as no SDK
// cuts its own body short. A crash shows as the file's unhandled error and as the server no longer answering.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  ListPartsCommand,
  NoSuchKey,
  GetObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { startServer, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { exchange, portOf, sendThenHangUp } from '../helpers/rawSocket.js';

const ROUNDS = 12;
let dir: string;
let server: TestServer;
let s3: S3Client;
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cfn-aborted-'));
  server = await startServer({ db: join(dir, 'cfn.db') });
  s3 = s3Client(server.endpoint);
  port = portOf(server.endpoint);
  await s3.send(new CreateBucketCommand({ Bucket: 'bkt1' }));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Polls (bounded) until the objects folder holds no half-written body. */
async function noPartialBodies() {
  const end = Date.now() + 5_000;
  for (;;) {
    const partial = readdirSync(join(dir, 'cfn.db.objects')).filter((f) => f.endsWith('.partial'));
    if (!partial.length || Date.now() > end) return partial;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function expectStillServing() {
  await expect(s3.send(new GetObjectCommand({ Bucket: 'bkt1', Key: 'k' }))).rejects.toBeInstanceOf(NoSuchKey);
  expect(await noPartialBodies()).toEqual([]);
}

describe('a PutObject body cut short', () => {
  it('Content-Length 100000, then the socket closes after part of it', async () => {
    const head = 'PUT /bkt1/k HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n';
    for (let i = 0; i < ROUNDS; i++) await sendThenHangUp(port, head, 0, 5_000);
    for (let i = 0; i < ROUNDS; i++) await sendThenHangUp(port, head.replace('100000', '100000000'), i);
    await expectStillServing();
  });

  it('an aws-chunked upload that stops mid-chunk', async () => {
    const head =
      'PUT /bkt1/k HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Encoding: aws-chunked\r\n' +
      'x-amz-content-sha256: STREAMING-UNSIGNED-PAYLOAD-TRAILER\r\nx-amz-decoded-content-length: 100000000\r\n' +
      'Content-Length: 100000100\r\n\r\n5f5e100\r\n';
    for (let i = 0; i < ROUNDS; i++) await sendThenHangUp(port, head, i);
    await expectStillServing();
  });
});

describe('a body whose framing breaks mid-upload (no connection cut by the client)', () => {
  const big = Buffer.alloc(200_000, 0x61);

  it('invalid Transfer-Encoding: chunked framing: 400 from the HTTP parser, the server lives on', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const head = 'PUT /bkt1/k HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n30d40\r\n';
      const answer = await exchange(port, [head, big, '\r\nZZZZ\r\n']);
      expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
    }
    await expectStillServing();
  });

  it('a malformed aws-chunked size line after the first chunk: IncompleteBody', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const head =
        'PUT /bkt1/k HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Encoding: aws-chunked\r\n' +
        `x-amz-content-sha256: STREAMING-UNSIGNED-PAYLOAD-TRAILER\r\nContent-Length: ${200_000 + 19}\r\n\r\n30d40\r\n`;
      const answer = await exchange(port, [head, big, '\r\nZZZZZZZZ\r\n'], { untilText: /<\/Error>/ });
      expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer.text).toContain('<Code>IncompleteBody</Code>');
    }
    await expectStillServing();
  });
});

it('an UploadPart cut short keeps no part', async () => {
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: 'bkt1', Key: 'k' }));
  const head = `PUT /bkt1/k?partNumber=1&uploadId=${UploadId} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n`;
  for (let i = 0; i < ROUNDS; i++) await sendThenHangUp(port, head, i);
  const { Parts } = await s3.send(new ListPartsCommand({ Bucket: 'bkt1', Key: 'k', UploadId }));
  expect(Parts ?? []).toEqual([]);
  await expectStillServing();
});
