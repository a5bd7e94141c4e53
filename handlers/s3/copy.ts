// CopyObject (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CopyObject.html): the source's bytes are streamed
// into a new body; metadata is copied unless MetadataDirective is REPLACE.
import { invalidArgument, invalidRequest } from '../../domain/s3Errors.js';
import { findBucket, type S3Handler } from './context.js';
import { checkKey, checkPreconditions, docFrom, findObject, putObjectRow } from './objectHelpers.js';

/** `bucket/key`, `/bucket/key` or either URL-encoded, with an optional `?versionId=`. */
function parseCopySource(source: string): { bucket: string; key: string } {
  const path = source.split('?')[0].replace(/^\//, '');
  const slash = path.indexOf('/');
  if (slash <= 0 || slash === path.length - 1)
    throw invalidArgument('Invalid copy source object key', 'x-amz-copy-source', source);
  try {
    return { bucket: decodeURIComponent(path.slice(0, slash)), key: decodeURIComponent(path.slice(slash + 1)) };
  } catch {
    throw invalidArgument('Invalid copy source encoding', 'x-amz-copy-source', source);
  }
}

export const copyObject: S3Handler<'CopyObject'> = async (ctx, input) => {
  const bucket = input.Bucket;
  const key = input.Key;
  findBucket(ctx, bucket);
  checkKey(key);
  const source = parseCopySource(input.CopySource ?? '');
  const from = findObject(ctx, source.bucket, source.key);
  checkPreconditions(
    {
      IfMatch: input.CopySourceIfMatch,
      IfNoneMatch: input.CopySourceIfNoneMatch,
      IfModifiedSince: input.CopySourceIfModifiedSince,
      IfUnmodifiedSince: input.CopySourceIfUnmodifiedSince,
    },
    from,
  );
  const replace = input.MetadataDirective === 'REPLACE';
  if (
    source.bucket === bucket &&
    source.key === key &&
    !replace &&
    input.StorageClass === undefined &&
    input.ServerSideEncryption === undefined &&
    input.WebsiteRedirectLocation === undefined
  ) {
    throw invalidRequest(
      "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
    );
  }
  const written = await ctx.store.bodies.write(ctx.store.bodies.read(from.bodyId));
  const doc = replace ? docFrom(input) : { ...from.doc, PartsCount: undefined };
  // A copy is one part, whatever the source was: its ETag is the MD5 of its bytes.
  const etag = `"${written.md5}"`;
  const lastModified = new Date().toISOString();
  putObjectRow(ctx, { bucket, key, size: written.size, etag, lastModified, bodyId: written.id, doc });
  return {
    CopyObjectResult: { ETag: etag, LastModified: new Date(lastModified) },
    ServerSideEncryption: doc.ServerSideEncryption ?? 'AES256',
  };
};
