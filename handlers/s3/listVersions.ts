// ListObjectVersions (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectVersions.html) of a bucket that
// never had versioning enabled: S3 lists each object once, as its only version, with VersionId "null". What the
// CDK's autoDeleteObjects handler pages through to empty a bucket before its deletion.
import { OWNER, findBucket, type S3Handler } from './context.js';

export const listObjectVersions: S3Handler<'ListObjectVersions'> = (ctx, input) => {
  const name = input.Bucket;
  const bucket = findBucket(ctx, name);
  const prefix = input.Prefix ?? '';
  const maxKeys = Math.min(Math.max(input.MaxKeys ?? 1000, 0), 1000);
  const rows = ctx.store.objects.list(bucket.account, name, prefix, input.KeyMarker ?? '', maxKeys + 1);
  const page = rows.slice(0, maxKeys);
  const truncated = rows.length > maxKeys;
  return {
    IsTruncated: truncated,
    KeyMarker: input.KeyMarker ?? '',
    VersionIdMarker: input.VersionIdMarker ?? '',
    NextKeyMarker: truncated ? page.at(-1)?.key : undefined,
    NextVersionIdMarker: truncated ? 'null' : undefined,
    Versions: page.length
      ? page.map((o) => ({
          ETag: o.etag,
          Size: o.size,
          StorageClass: 'STANDARD',
          Key: o.key,
          VersionId: 'null',
          IsLatest: true,
          LastModified: new Date(o.lastModified),
          Owner: OWNER(ctx),
        }))
      : undefined,
    Name: name,
    Prefix: prefix,
    MaxKeys: maxKeys,
  };
};
