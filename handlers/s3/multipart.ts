// Multipart upload: CreateMultipartUpload, UploadPart, CompleteMultipartUpload, AbortMultipartUpload, ListParts
// (https://docs.aws.amazon.com/AmazonS3/latest/userguide/mpuoverview.html). Completing streams the parts, in order,
// into one body; the ETag is the MD5 of the parts' MD5s followed by `-` and the part count, as S3 computes it.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  entityTooSmall,
  invalidPart,
  invalidPartOrder,
  invalidRequest,
  malformedXml,
  noSuchUpload,
} from '../../domain/s3Errors.js';
import type { PartRecord, UploadRecord } from '../../storage/index.js';
import type { CompletedPart } from '../../generated/s3.js';
import { OWNER, findBucket, type S3Context, type S3Handler } from './context.js';
import { checkKey, checkPartNumber, docFrom, putObjectRow, storeBody } from './objectHelpers.js';

const MIN_PART_SIZE = 5 * 1024 * 1024;

export const createMultipartUpload: S3Handler<'CreateMultipartUpload'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const key = input.Key;
  checkKey(key);
  const uploadId = randomBytes(48).toString('base64url');
  ctx.store.objects.putUpload({
    uploadId,
    account: bucket.account,
    region: bucket.region,
    bucket: bucket.physicalId,
    key,
    initiated: new Date().toISOString(),
    doc: docFrom(input),
  });
  return { Bucket: bucket.physicalId, Key: key, UploadId: uploadId, ServerSideEncryption: 'AES256' };
};

/** The upload, which must be for this bucket and key (else NoSuchUpload, as S3 answers). */
function findUpload(ctx: S3Context, input: { Bucket: string; Key: string; UploadId?: string }): UploadRecord {
  const bucket = findBucket(ctx, input.Bucket);
  const uploadId = input.UploadId ?? '';
  const upload = ctx.store.objects.getUpload(uploadId);
  if (!upload || upload.account !== bucket.account || upload.bucket !== input.Bucket || upload.key !== input.Key)
    throw noSuchUpload(uploadId);
  return upload;
}

export const uploadPart: S3Handler<'UploadPart'> = async (ctx, input) => {
  const partNumber = checkPartNumber(input.PartNumber);
  const upload = findUpload(ctx, input);
  const written = await storeBody(ctx, input.Body, input.ContentMD5);
  const etag = `"${written.md5}"`;
  // An upload aborted or completed while this part streamed in: the part has nowhere to go.
  if (!ctx.store.objects.getUpload(upload.uploadId)) {
    ctx.store.bodies.remove(written.id);
    throw noSuchUpload(upload.uploadId);
  }
  const previous = ctx.store.objects.getPart(upload.uploadId, partNumber);
  ctx.store.objects.putPart({
    uploadId: upload.uploadId,
    partNumber,
    size: written.size,
    etag,
    lastModified: new Date().toISOString(),
    bodyId: written.id,
  });
  if (previous) ctx.store.afterCommit(() => ctx.store.bodies.remove(previous.bodyId));
  return { ETag: etag, ServerSideEncryption: 'AES256' };
};

/** The parts the request names, checked against the stored ones in S3's order: order, existence and ETag, size. */
function chosenParts(upload: UploadRecord, requested: CompletedPart[], stored: PartRecord[]): PartRecord[] {
  if (!requested.length) throw malformedXml();
  const byNumber = new Map(stored.map((p) => [p.partNumber, p]));
  const chosen: PartRecord[] = [];
  let last = 0;
  for (const r of requested) {
    const n = Number(r.PartNumber);
    if (!(n > last)) throw invalidPartOrder(upload.uploadId);
    last = n;
    const part = byNumber.get(n);
    const etag = r.ETag ?? '';
    if (!part || part.etag.replace(/"/g, '') !== etag.replace(/"/g, '')) throw invalidPart(upload.uploadId, n, etag);
    chosen.push(part);
  }
  chosen.slice(0, -1).forEach((p) => {
    if (p.size < MIN_PART_SIZE) throw entityTooSmall(p.size, p.partNumber, p.etag);
  });
  return chosen;
}

/**
 * The parts' bodies one after another, as one stream. A generator rather than writes into a PassThrough: if the
 * write fails, destroying the stream ends the generator and closes the part being read, with no write left waiting.
 */
function concatenated(ctx: S3Context, parts: PartRecord[]): Readable {
  async function* chunks() {
    for (const part of parts) yield* ctx.store.bodies.read(part.bodyId);
  }
  return Readable.from(chunks(), { objectMode: false });
}

export const completeMultipartUpload: S3Handler<'CompleteMultipartUpload'> = async (ctx, input) => {
  const upload = findUpload(ctx, input);
  const requested = input.MultipartUpload?.Parts ?? [];
  if (!input.MultipartUpload) throw invalidRequest('You must specify at least one part');
  const parts = chosenParts(upload, requested, ctx.store.objects.parts(upload.uploadId));
  const written = await ctx.store.bodies.write(concatenated(ctx, parts));
  const md5s = Buffer.concat(parts.map((p) => Buffer.from(p.etag.replace(/"/g, ''), 'hex')));
  const etag = `"${createHash('md5').update(md5s).digest('hex')}-${parts.length}"`;
  putObjectRow(ctx, {
    bucket: upload.bucket,
    key: upload.key,
    size: written.size,
    etag,
    lastModified: new Date().toISOString(),
    bodyId: written.id,
    doc: { ...upload.doc, PartsCount: parts.length },
  });
  const removed = ctx.store.objects.removeUpload(upload.uploadId);
  ctx.store.afterCommit(() => removed.forEach((p) => ctx.store.bodies.remove(p.bodyId)));
  const location = `/${encodeURIComponent(upload.bucket)}/${upload.key.split('/').map(encodeURIComponent).join('/')}`;
  return { Location: location, Bucket: upload.bucket, Key: upload.key, ETag: etag, ServerSideEncryption: 'AES256' };
};

// None of AbortMultipartUpload's output headers applies: its output is empty.
export const abortMultipartUpload: S3Handler<'AbortMultipartUpload'> = (ctx, input) => {
  const upload = findUpload(ctx, input);
  const removed = ctx.store.objects.removeUpload(upload.uploadId);
  ctx.store.afterCommit(() => removed.forEach((p) => ctx.store.bodies.remove(p.bodyId)));
  return {};
};

export const listParts: S3Handler<'ListParts'> = (ctx, input) => {
  const upload = findUpload(ctx, input);
  const marker = input.PartNumberMarker === undefined ? 0 : Number(input.PartNumberMarker);
  const max = input.MaxParts === undefined ? 1000 : Math.min(input.MaxParts, 1000);
  const after = ctx.store.objects.parts(upload.uploadId).filter((p) => p.partNumber > marker);
  const page = after.slice(0, max);
  const truncated = after.length > page.length;
  return {
    Bucket: upload.bucket,
    Key: upload.key,
    UploadId: upload.uploadId,
    PartNumberMarker: String(marker),
    NextPartNumberMarker: page.length ? String(page[page.length - 1].partNumber) : undefined,
    MaxParts: max,
    IsTruncated: truncated,
    Parts: page.map((p) => ({
      PartNumber: p.partNumber,
      LastModified: new Date(p.lastModified),
      ETag: p.etag,
      Size: p.size,
    })),
    Initiator: OWNER(ctx),
    Owner: OWNER(ctx),
    StorageClass: 'STANDARD',
  };
};
