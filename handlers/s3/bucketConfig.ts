// S3 bucket configuration reads and writes that `cdk bootstrap` and asset publishing touch: versioning, encryption,
// policy, public access block, lifecycle, tagging. Where CloudFormation has the same setting, it lives in the
// bucket's CloudFormation properties (so a change through S3 is drift, as on AWS); the rest in the row's S3 state.
import {
  malformedPolicy,
  encryptionNotFound,
  noSuchBucketPolicy,
  noSuchLifecycleConfiguration,
  noSuchPublicAccessBlockConfiguration,
  noSuchTagSet,
} from '../../domain/s3Errors.js';
import { findBucket, s3State, saveBucket, type S3Context, type S3Input } from './context.js';

type Obj = Record<string, unknown>;

const withProperty = (props: Obj, name: string, value: unknown): Obj => {
  const next = { ...props };
  if (value === undefined) delete next[name];
  else next[name] = value;
  return next;
};

export function getBucketVersioning(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const status = (bucket.properties.VersioningConfiguration as { Status?: string } | undefined)?.Status;
  return status ? { Status: status } : {};
}

export function putBucketVersioning(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const status = (input.VersioningConfiguration as { Status?: string } | undefined)?.Status;
  if (status)
    saveBucket(ctx, bucket, {
      properties: withProperty(bucket.properties, 'VersioningConfiguration', { Status: status }),
    });
  return undefined;
}

interface CfnEncryptionRule {
  ServerSideEncryptionByDefault?: { SSEAlgorithm?: string; KMSMasterKeyID?: string };
  BucketKeyEnabled?: boolean;
}

// Every bucket has had SSE-S3 (AES256) default encryption since January 2023: a bucket without a configuration
// answers that rule, and DeleteBucketEncryption goes back to it.
// https://docs.aws.amazon.com/AmazonS3/latest/userguide/default-encryption-faq.html
const DEFAULT_ENCRYPTION: CfnEncryptionRule[] = [
  { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' }, BucketKeyEnabled: false },
];

export function getBucketEncryption(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const rules =
    (bucket.properties.BucketEncryption as { ServerSideEncryptionConfiguration?: CfnEncryptionRule[] } | undefined)
      ?.ServerSideEncryptionConfiguration ?? DEFAULT_ENCRYPTION;
  if (!rules.length) throw encryptionNotFound(bucket.physicalId);
  const Rules = rules.map((r) => ({
    ApplyServerSideEncryptionByDefault: r.ServerSideEncryptionByDefault,
    BucketKeyEnabled: r.BucketKeyEnabled ?? false,
  }));
  return { ServerSideEncryptionConfiguration: { Rules } };
}

export function putBucketEncryption(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const rules = ((input.ServerSideEncryptionConfiguration as { Rules?: Obj[] } | undefined)?.Rules ?? []).map((r) => ({
    ServerSideEncryptionByDefault: r.ApplyServerSideEncryptionByDefault,
    ...(r.BucketKeyEnabled !== undefined ? { BucketKeyEnabled: r.BucketKeyEnabled } : {}),
  }));
  saveBucket(ctx, bucket, {
    properties: withProperty(bucket.properties, 'BucketEncryption', { ServerSideEncryptionConfiguration: rules }),
  });
  return undefined;
}

export function deleteBucketEncryption(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  saveBucket(ctx, bucket, { properties: withProperty(bucket.properties, 'BucketEncryption', undefined) });
  return undefined;
}

/** A policy put through S3, else the PolicyDocument of a stack's AWS::S3::BucketPolicy on this bucket. */
export function getBucketPolicy(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const own = s3State(bucket).policy;
  if (typeof own === 'string') return { Policy: own };
  if (own === undefined) {
    const fromStack = ctx.store.world
      .list({ type: 'AWS::S3::BucketPolicy', account: bucket.account })
      .find((p) => p.properties.Bucket === bucket.physicalId);
    const doc = fromStack?.properties.PolicyDocument;
    if (doc !== undefined) return { Policy: typeof doc === 'string' ? doc : JSON.stringify(doc) };
  }
  throw noSuchBucketPolicy(bucket.physicalId);
}

export function putBucketPolicy(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const policy = String(input.Policy ?? '');
  let doc: unknown;
  try {
    doc = JSON.parse(policy);
  } catch {
    throw malformedPolicy("Policies must be valid JSON and the first byte must be '{'");
  }
  if (!doc || typeof doc !== 'object' || !('Statement' in doc))
    throw malformedPolicy('Missing required field Statement');
  saveBucket(ctx, bucket, { s3: { policy } });
  return undefined;
}

export function deleteBucketPolicy(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  saveBucket(ctx, bucket, { s3: { policy: null } });
  return undefined;
}

const PUBLIC_ACCESS_FIELDS = [
  'BlockPublicAcls',
  'IgnorePublicAcls',
  'BlockPublicPolicy',
  'RestrictPublicBuckets',
] as const;

// New buckets have blocked all public access by default since April 2023.
// https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html
export function getPublicAccessBlock(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const set = bucket.properties.PublicAccessBlockConfiguration as Obj | undefined;
  if (!set && s3State(bucket).publicAccessBlockDeleted) throw noSuchPublicAccessBlockConfiguration(bucket.physicalId);
  const config = Object.fromEntries(
    PUBLIC_ACCESS_FIELDS.map((f) => [f, set ? set[f] === true || set[f] === 'true' : true]),
  );
  return { PublicAccessBlockConfiguration: config };
}

export function putPublicAccessBlock(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const given = (input.PublicAccessBlockConfiguration ?? {}) as Obj;
  const config = Object.fromEntries(PUBLIC_ACCESS_FIELDS.map((f) => [f, given[f] === true]));
  saveBucket(ctx, bucket, {
    properties: withProperty(bucket.properties, 'PublicAccessBlockConfiguration', config),
    s3: { publicAccessBlockDeleted: false },
  });
  return undefined;
}

export function deletePublicAccessBlock(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  saveBucket(ctx, bucket, {
    properties: withProperty(bucket.properties, 'PublicAccessBlockConfiguration', undefined),
    s3: { publicAccessBlockDeleted: true },
  });
  return undefined;
}

export function getBucketTagging(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const tags = bucket.properties.Tags as { Key: string; Value: string }[] | undefined;
  if (!tags?.length) throw noSuchTagSet(bucket.physicalId);
  return { TagSet: tags.map((t) => ({ Key: t.Key, Value: String(t.Value) })) };
}

export function putBucketTagging(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const tags = ((input.Tagging as { TagSet?: Obj[] } | undefined)?.TagSet ?? []).map((t) => ({
    Key: t.Key,
    Value: t.Value ?? '',
  }));
  saveBucket(ctx, bucket, { properties: withProperty(bucket.properties, 'Tags', tags.length ? tags : undefined) });
  return undefined;
}

export function deleteBucketTagging(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  saveBucket(ctx, bucket, { properties: withProperty(bucket.properties, 'Tags', undefined) });
  return undefined;
}

/** A stack's LifecycleConfiguration.Rules in S3's shape (the common fields). */
function lifecycleFromProperties(props: Obj): Obj[] | undefined {
  const rules = (props.LifecycleConfiguration as { Rules?: Obj[] } | undefined)?.Rules;
  return rules?.map((r) => ({
    ...(r.Id !== undefined ? { ID: r.Id } : {}),
    Filter: { Prefix: (r.Prefix as string | undefined) ?? '' },
    Status: r.Status,
    ...(r.ExpirationInDays !== undefined ? { Expiration: { Days: Number(r.ExpirationInDays) } } : {}),
    ...(r.NoncurrentVersionExpirationInDays !== undefined
      ? { NoncurrentVersionExpiration: { NoncurrentDays: Number(r.NoncurrentVersionExpirationInDays) } }
      : {}),
    ...(r.NoncurrentVersionExpiration !== undefined
      ? { NoncurrentVersionExpiration: r.NoncurrentVersionExpiration }
      : {}),
    ...(r.AbortIncompleteMultipartUpload !== undefined
      ? { AbortIncompleteMultipartUpload: r.AbortIncompleteMultipartUpload }
      : {}),
  }));
}

export function getBucketLifecycleConfiguration(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const own = s3State(bucket).lifecycle;
  const rules = own === undefined ? lifecycleFromProperties(bucket.properties) : (own?.Rules as Obj[] | undefined);
  if (!rules?.length) throw noSuchLifecycleConfiguration(bucket.physicalId);
  return { Rules: rules };
}

export function putBucketLifecycleConfiguration(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  const rules = (input.LifecycleConfiguration as { Rules?: Obj[] } | undefined)?.Rules ?? [];
  saveBucket(ctx, bucket, { s3: { lifecycle: { Rules: rules } } });
  return undefined;
}

export function deleteBucketLifecycle(ctx: S3Context, input: S3Input) {
  const bucket = findBucket(ctx, input.Bucket as string);
  saveBucket(ctx, bucket, { s3: { lifecycle: null } });
  return undefined;
}
