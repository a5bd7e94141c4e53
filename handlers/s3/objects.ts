// S3 object actions: PutObject, GetObject (with Range), HeadObject, DeleteObject, DeleteObjects
// (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html and its neighbours).
import { checkHeaderValue } from '../../domain/s3Errors.js';
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

/** Response header overrides a GetObject may ask for: the input member, the output member, the query name. */
const OVERRIDES = [
  ['ResponseContentType', 'ContentType', 'response-content-type'],
  ['ResponseCacheControl', 'CacheControl', 'response-cache-control'],
  ['ResponseContentDisposition', 'ContentDisposition', 'response-content-disposition'],
  ['ResponseContentEncoding', 'ContentEncoding', 'response-content-encoding'],
  ['ResponseContentLanguage', 'ContentLanguage', 'response-content-language'],
  ['ResponseExpires', 'ExpiresString', 'response-expires'],
] as const;

export const getObject: S3Handler<'GetObject'> = (ctx, input) => {
  const o = findObject(ctx, input.Bucket, input.Key);
  checkPreconditions(input, o);
  const range = byteRange(input.Range, o.size);
  const overrides: Partial<S3OutputOf<'GetObject'>> = {};
  for (const [from, to, query] of OVERRIDES) {
    const value = input[from];
    if (value === undefined) continue;
    const text = value instanceof Date ? value.toUTCString() : value;
    checkHeaderValue(query, text);
    overrides[to] = text;
  }
  // The body is opened last: nothing above may throw with a file left open.
  const out: S3OutputOf<'GetObject'> = {
    ...objectHeaders(o),
    ...overrides,
    Body: ctx.store.bodies.read(o.bodyId, range),
  };
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
