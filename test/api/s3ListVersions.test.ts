// ListObjectVersions of a bucket without versioning: each object once, VersionId "null" (what the CDK's
// autoDeleteObjects handler pages through to empty a bucket). https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectVersions.html
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CreateBucketCommand, ListObjectVersionsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { startServer, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

it('lists each object as its only version, paged by MaxKeys', async () => {
  const s3 = s3Client(server.endpoint);
  await s3.send(new CreateBucketCommand({ Bucket: 'versions' }));
  for (const key of ['a.txt', 'b/c.txt', 'd.txt'])
    await s3.send(new PutObjectCommand({ Bucket: 'versions', Key: key, Body: key }));
  const first = await s3.send(new ListObjectVersionsCommand({ Bucket: 'versions', MaxKeys: 2 }));
  expect(first.Versions!.map((v) => [v.Key, v.VersionId, v.IsLatest, v.Size])).toEqual([
    ['a.txt', 'null', true, 5],
    ['b/c.txt', 'null', true, 7],
  ]);
  expect(first).toMatchObject({ IsTruncated: true, NextKeyMarker: 'b/c.txt' });
  const rest = await s3.send(new ListObjectVersionsCommand({ Bucket: 'versions', KeyMarker: first.NextKeyMarker }));
  expect(rest.Versions!.map((v) => v.Key)).toEqual(['d.txt']);
  expect(rest.IsTruncated).toBe(false);
  expect(rest.DeleteMarkers).toBeUndefined();
});
