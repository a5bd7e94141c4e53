// S3 object actions: PutObject, GetObject (with Range), HeadObject, DeleteObject, DeleteObjects
// (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html and its neighbours).
import { findBucket, countObjects, type S3Context, type S3Handler, type S3OutputOf } from './context.js';
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

export const putObject: S3Handler<'PutObject'> = async (ctx, input) => {
  const bucket = input.Bucket;
  const key = input.Key;
  findBucket(ctx, bucket);
  checkKey(key);
  const written = await storeBody(ctx, input.Body, input.ContentMD5);
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
  return { ETag: etag, ServerSideEncryption: input.ServerSideEncryption ?? 'AES256' };
};

/** Response header overrides a GetObject may ask for (`response-content-type`, …). */
const OVERRIDES = [
  ['ResponseContentType', 'ContentType'],
  ['ResponseCacheControl', 'CacheControl'],
  ['ResponseContentDisposition', 'ContentDisposition'],
  ['ResponseContentEncoding', 'ContentEncoding'],
  ['ResponseContentLanguage', 'ContentLanguage'],
  ['ResponseExpires', 'ExpiresString'],
] as const;

export const getObject: S3Handler<'GetObject'> = (ctx, input) => {
  const o = findObject(ctx, input.Bucket, input.Key);
  checkPreconditions(input, o);
  const range = byteRange(input.Range, o.size);
  const out: S3OutputOf<'GetObject'> = { ...objectHeaders(o), Body: ctx.store.bodies.read(o.bodyId, range) };
  for (const [from, to] of OVERRIDES) {
    const value = input[from];
    if (value !== undefined) out[to] = value instanceof Date ? value.toUTCString() : value;
  }
  if (range) {
    Object.assign(out, {
      ContentLength: range.end - range.start + 1,
      ContentRange: `bytes ${range.start}-${range.end}/${o.size}`,
      $status: 206,
    });
  }
  return out;
};

export const headObject: S3Handler<'HeadObject'> = (ctx, input) => {
  const o = findObject(ctx, input.Bucket, input.Key);
  checkPreconditions(input, o);
  const range = byteRange(input.Range, o.size);
  const out: S3OutputOf<'HeadObject'> = objectHeaders(o);
  if (range)
    Object.assign(out, {
      ContentLength: range.end - range.start + 1,
      ContentRange: `bytes ${range.start}-${range.end}/${o.size}`,
      $status: 206,
    });
  return out;
};

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

// None of DeleteObject's output headers applies (no versioning): its output is empty.
export const deleteObject: S3Handler<'DeleteObject'> = (ctx, input) => {
  removeObject(ctx, input.Bucket, input.Key);
  return {};
};

export const deleteObjects: S3Handler<'DeleteObjects'> = (ctx, input) => {
  const bucket = input.Bucket;
  findBucket(ctx, bucket);
  const del = input.Delete ?? {};
  const Deleted: { Key: string }[] = [];
  for (const o of del.Objects ?? []) {
    removeObject(ctx, bucket, o.Key ?? '');
    Deleted.push({ Key: o.Key ?? '' });
  }
  return { Deleted: del.Quiet ? undefined : Deleted };
};
