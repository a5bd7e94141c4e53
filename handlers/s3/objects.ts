// S3 object actions: PutObject, GetObject (with Range), HeadObject, DeleteObject, DeleteObjects
// (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html and its neighbours).
import type { Readable } from 'node:stream';
import { findBucket, countObjects, type S3Context, type S3Input } from './context.js';
import {
  byteRange,
  checkKey,
  checkPreconditions,
  docFrom,
  findObject,
  objectHeaders,
  putObjectRow,
  storeBody,
} from './objectHelpers.js';

export async function putObject(ctx: S3Context, input: S3Input) {
  const bucket = input.Bucket as string;
  const key = input.Key as string;
  findBucket(ctx, bucket);
  checkKey(key);
  const written = await storeBody(ctx, input.Body as Readable, input.ContentMD5);
  const etag = `"${written.md5}"`;
  putObjectRow(ctx, {
    bucket,
    key,
    size: written.size,
    etag,
    lastModified: new Date().toISOString(),
    bodyId: written.id,
    doc: docFrom(input),
  });
  return { ETag: etag, ServerSideEncryption: (input.ServerSideEncryption as string | undefined) ?? 'AES256' };
}

/** Response header overrides a GetObject may ask for (`response-content-type`, …). */
const OVERRIDES = [
  ['ResponseContentType', 'ContentType'],
  ['ResponseCacheControl', 'CacheControl'],
  ['ResponseContentDisposition', 'ContentDisposition'],
  ['ResponseContentEncoding', 'ContentEncoding'],
  ['ResponseContentLanguage', 'ContentLanguage'],
  ['ResponseExpires', 'ExpiresString'],
] as const;

export function getObject(ctx: S3Context, input: S3Input) {
  const o = findObject(ctx, input.Bucket as string, input.Key as string);
  checkPreconditions(input, o);
  const range = byteRange(input.Range, o.size);
  const out: Record<string, unknown> = { ...objectHeaders(o), Body: ctx.store.bodies.read(o.bodyId, range) };
  for (const [from, to] of OVERRIDES)
    if (input[from] !== undefined)
      out[to] = input[from] instanceof Date ? (input[from] as Date).toUTCString() : input[from];
  if (range) {
    Object.assign(out, {
      ContentLength: range.end - range.start + 1,
      ContentRange: `bytes ${range.start}-${range.end}/${o.size}`,
      $status: 206,
    });
  }
  return out;
}

export function headObject(ctx: S3Context, input: S3Input) {
  const o = findObject(ctx, input.Bucket as string, input.Key as string);
  checkPreconditions(input, o);
  const range = byteRange(input.Range, o.size);
  const out = objectHeaders(o);
  if (range)
    Object.assign(out, {
      ContentLength: range.end - range.start + 1,
      ContentRange: `bytes ${range.start}-${range.end}/${o.size}`,
      $status: 206,
    });
  return out;
}

/** Removes the key if it is there; S3 answers 204 either way. */
export function removeObject(ctx: S3Context, bucketName: string, key: string): void {
  const bucket = findBucket(ctx, bucketName);
  const found = ctx.store.objects.get(bucket.account, bucketName, key);
  if (!found) return;
  ctx.store.transaction(() => {
    ctx.store.objects.remove(bucket.account, bucketName, key);
    countObjects(ctx, bucketName, -1);
  });
  ctx.store.afterCommit(() => ctx.store.bodies.remove(found.bodyId));
}

export function deleteObject(ctx: S3Context, input: S3Input) {
  removeObject(ctx, input.Bucket as string, input.Key as string);
  return undefined;
}

export function deleteObjects(ctx: S3Context, input: S3Input) {
  const bucket = input.Bucket as string;
  findBucket(ctx, bucket);
  const del = (input.Delete ?? {}) as { Objects?: { Key?: string }[]; Quiet?: boolean };
  const Deleted: { Key: string }[] = [];
  for (const o of del.Objects ?? []) {
    removeObject(ctx, bucket, o.Key ?? '');
    Deleted.push({ Key: o.Key ?? '' });
  }
  return { Deleted: del.Quiet ? undefined : Deleted };
}
