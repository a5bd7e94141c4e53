// ListObjectsV2 (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html): keys in UTF-8 binary order,
// rolled up into CommonPrefixes at the Delimiter, paged by MaxKeys with an opaque ContinuationToken.
import { invalidArgument } from '../../domain/s3Errors.js';
import type { ObjectRecord } from '../../storage/index.js';
import { OWNER, findBucket, type S3Context, type S3Handler } from './context.js';

const PAGE = 1000;

interface Listing {
  contents: ObjectRecord[];
  prefixes: string[];
  truncated: boolean;
  /** The last key or common prefix returned: where the next page starts. */
  last?: string;
}

/** Walks keys after `after` under `prefix`, folding at the delimiter, until `max` entries are taken. */
function walk(
  ctx: S3Context,
  account: string,
  bucket: string,
  q: { prefix: string; delimiter: string; after: string; max: number },
): Listing {
  const out: Listing = { contents: [], prefixes: [], truncated: false };
  let after = q.after;
  for (;;) {
    const rows = ctx.store.objects.list(account, bucket, q.prefix, after, PAGE);
    for (const row of rows) {
      after = row.key;
      const at = q.delimiter ? row.key.indexOf(q.delimiter, q.prefix.length) : -1;
      const common = at === -1 ? undefined : row.key.slice(0, at + q.delimiter.length);
      if (common !== undefined && common === out.prefixes[out.prefixes.length - 1]) continue;
      if (common !== undefined && q.after.startsWith(common)) continue;
      if (out.contents.length + out.prefixes.length >= q.max) {
        out.truncated = true;
        return out;
      }
      if (common !== undefined) out.prefixes.push(common);
      else out.contents.push(row);
      out.last = common ?? row.key;
    }
    if (rows.length < PAGE) return out;
  }
}

const token = (key: string) => Buffer.from(key, 'utf8').toString('base64');
function fromToken(t: string): string {
  const key = Buffer.from(t, 'base64').toString('utf8');
  if (token(key) !== t) throw invalidArgument('The continuation token provided is incorrect', 'continuation-token', t);
  return key;
}

export const listObjectsV2: S3Handler<'ListObjectsV2'> = (ctx, input) => {
  const name = input.Bucket;
  const bucket = findBucket(ctx, name);
  const prefix = input.Prefix ?? '';
  const delimiter = input.Delimiter ?? '';
  const maxKeys = input.MaxKeys ?? 1000;
  if (!Number.isInteger(maxKeys) || maxKeys < 0)
    throw invalidArgument(
      'Provided max-keys not an integer or within integer range',
      'max-keys',
      String(input.MaxKeys),
    );
  const start = input.ContinuationToken !== undefined ? fromToken(input.ContinuationToken) : (input.StartAfter ?? '');
  const page = walk(ctx, bucket.account, name, { prefix, delimiter, after: start, max: Math.min(maxKeys, 1000) });
  // With encoding-type=url (the AWS CLI asks for it), keys and prefixes travel URL-encoded.
  const url = input.EncodingType === 'url';
  const enc = (s: string) => (url ? encodeURIComponent(s).replace(/%2F/g, '/') : s);
  return {
    IsTruncated: page.truncated,
    Contents: page.contents.length
      ? page.contents.map((o) => ({
          Key: enc(o.key),
          LastModified: new Date(o.lastModified),
          ETag: o.etag,
          Size: o.size,
          StorageClass: 'STANDARD',
          ...(input.FetchOwner ? { Owner: OWNER(ctx) } : {}),
        }))
      : undefined,
    Name: name,
    Prefix: enc(prefix),
    Delimiter: delimiter ? enc(delimiter) : undefined,
    MaxKeys: maxKeys,
    CommonPrefixes: page.prefixes.length ? page.prefixes.map((p) => ({ Prefix: enc(p) })) : undefined,
    EncodingType: url ? 'url' : undefined,
    KeyCount: page.contents.length + page.prefixes.length,
    ContinuationToken: input.ContinuationToken,
    NextContinuationToken: page.truncated && page.last !== undefined ? token(page.last) : undefined,
    StartAfter: input.StartAfter === undefined ? undefined : enc(input.StartAfter),
  };
};
