// What the S3 object actions share: storing a streamed body as an object (Content-MD5 checked), ranges, the
// headers an object answers with, and preconditions.
import type { Readable } from 'node:stream';
import type { ObjectDoc, ObjectRecord } from '../../storage/index.js';
import {
  badDigest,
  invalidArgument,
  invalidDigest,
  invalidRange,
  noSuchKey,
  notModified,
  preconditionFailed,
  S3Error,
} from '../../domain/s3Errors.js';
import type { GetObjectOutput, GetObjectRequest, PutObjectRequest } from '../../generated/s3.js';
import { countObjects, findBucket, type S3Context } from './context.js';

/** S3's default Content-Type for an object stored without one. */
export const DEFAULT_CONTENT_TYPE = 'binary/octet-stream';
const MAX_KEY_BYTES = 1024;

export function checkKey(key: string): void {
  if (Buffer.byteLength(key) > MAX_KEY_BYTES)
    throw new S3Error('KeyTooLongError', 400, 'Your key is too long', {
      MaxSizeAllowed: '1024',
      Size: String(Buffer.byteLength(key)),
    });
}

/** The base64 MD5 a client sent, checked for form before the body is read (InvalidDigest). */
export function expectedMd5(contentMd5: string | undefined): string | undefined {
  if (contentMd5 === undefined) return undefined;
  const given = contentMd5;
  if (!/^[A-Za-z0-9+/]{22}==$/.test(given)) throw invalidDigest(given);
  return given;
}

/** Streams the body into the body store; a Content-MD5 that does not match throws BadDigest and keeps nothing. */
export async function storeBody(ctx: S3Context, body: Readable, contentMd5: string | undefined) {
  const expected = expectedMd5(contentMd5);
  const written = await ctx.store.bodies.write(body);
  const calculated = Buffer.from(written.md5, 'hex').toString('base64');
  if (expected !== undefined && expected !== calculated) {
    ctx.store.bodies.remove(written.id);
    throw badDigest(expected, calculated);
  }
  return written;
}

const DOC_FIELDS = [
  'ContentType',
  'CacheControl',
  'ContentDisposition',
  'ContentEncoding',
  'ContentLanguage',
  'ServerSideEncryption',
  'SSEKMSKeyId',
] as const;

/** The members PutObject, CopyObject and CreateMultipartUpload share that an object keeps. */
export type DocInput = Pick<PutObjectRequest, (typeof DOC_FIELDS)[number] | 'Expires' | 'Metadata'>;

/** The object metadata S3 keeps from a PutObject, CopyObject (REPLACE) or CreateMultipartUpload input. */
export function docFrom(input: DocInput): ObjectDoc {
  const doc: ObjectDoc = {};
  for (const field of DOC_FIELDS) {
    const value = input[field];
    if (typeof value === 'string') doc[field] = value;
  }
  // aws-chunked is how the body travelled, not how it is stored.
  if (doc.ContentEncoding)
    doc.ContentEncoding =
      doc.ContentEncoding.split(',')
        .map((e) => e.trim())
        .filter((e) => e !== 'aws-chunked')
        .join(',') || undefined;
  if (input.Expires instanceof Date && !Number.isNaN(input.Expires.getTime()))
    doc.Expires = input.Expires.toUTCString();
  if (input.Metadata) doc.Metadata = input.Metadata;
  return doc;
}

/** Writes the object row (counting a new key for the bucket's emptiness); the replaced body goes once committed. */
export function putObjectRow(ctx: S3Context, record: Omit<ObjectRecord, 'account' | 'region'>): void {
  const bucket = findBucket(ctx, record.bucket);
  const previous = ctx.store.objects.get(bucket.account, record.bucket, record.key);
  ctx.store.transaction(() => {
    ctx.store.objects.put({ ...record, account: bucket.account, region: bucket.region });
    if (!previous) countObjects(ctx, record.bucket, 1);
  });
  if (previous) ctx.store.afterCommit(() => ctx.store.bodies.remove(previous.bodyId));
}

export function findObject(ctx: S3Context, bucketName: string, key: string): ObjectRecord {
  const bucket = findBucket(ctx, bucketName);
  const found = ctx.store.objects.get(bucket.account, bucketName, key);
  if (!found) throw noSuchKey(key);
  return found;
}

/** The headers every read of the object answers with (GetObject, HeadObject). */
export function objectHeaders(o: ObjectRecord): Omit<GetObjectOutput, 'Body'> {
  return {
    ETag: o.etag,
    LastModified: new Date(o.lastModified),
    ContentLength: o.size,
    AcceptRanges: 'bytes',
    ContentType: o.doc.ContentType ?? DEFAULT_CONTENT_TYPE,
    CacheControl: o.doc.CacheControl,
    ContentDisposition: o.doc.ContentDisposition,
    ContentEncoding: o.doc.ContentEncoding,
    ContentLanguage: o.doc.ContentLanguage,
    ExpiresString: o.doc.Expires,
    Metadata: o.doc.Metadata,
    PartsCount: undefined,
    ServerSideEncryption: o.doc.ServerSideEncryption ?? 'AES256',
    SSEKMSKeyId: o.doc.SSEKMSKeyId,
  };
}

/**
 * `bytes=a-b`, `bytes=a-` or `bytes=-n` against the object's size. S3 ignores a Range it cannot parse (and any
 * multi-range) and answers the whole object; a range past the end is InvalidRange (416).
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  if (typeof header !== 'string') return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) throw invalidRange(size, header);
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) throw invalidRange(size, header);
  if (end < start) return undefined;
  return { start, end };
}

const unquote = (etag: string) => etag.replace(/^W\//, '').replace(/^"|"$/g, '');
const matches = (list: string, etag: string) =>
  list.split(',').some((e) => e.trim() === '*' || unquote(e.trim()) === unquote(etag));

/** If-Match / If-None-Match / If-Modified-Since / If-Unmodified-Since, in S3's order of precedence. */
export function checkPreconditions(
  input: Pick<GetObjectRequest, 'IfMatch' | 'IfNoneMatch' | 'IfModifiedSince' | 'IfUnmodifiedSince'>,
  o: ObjectRecord,
): void {
  const modified = new Date(o.lastModified).getTime();
  const {
    IfMatch: ifMatch,
    IfNoneMatch: ifNoneMatch,
    IfModifiedSince: since,
    IfUnmodifiedSince: unmodifiedSince,
  } = input;
  if (ifMatch !== undefined && !matches(ifMatch, o.etag)) throw preconditionFailed('If-Match');
  if (ifMatch === undefined && unmodifiedSince && modified > unmodifiedSince.getTime() + 999)
    throw preconditionFailed('If-Unmodified-Since');
  if (ifNoneMatch !== undefined && matches(ifNoneMatch, o.etag)) throw notModified();
  if (ifNoneMatch === undefined && since && modified <= since.getTime() + 999) throw notModified();
}

export function checkPartNumber(value: number | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 10000) {
    throw invalidArgument('Part number must be an integer between 1 and 10000, inclusive', 'partNumber', String(value));
  }
  return n;
}
