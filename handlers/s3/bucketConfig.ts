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
import type { PublicAccessBlockConfiguration } from '../../generated/s3.js';
import {
  PUBLIC_ACCESS_FIELDS,
  cfnProperties,
  lifecycleFromProperties,
  type CfnEncryptionRule,
} from './bucketProperties.js';
import { findBucket, s3State, saveBucket, type S3Handler } from './context.js';

type Obj = Record<string, unknown>;

const withProperty = (props: Obj, name: string, value: unknown): Obj => {
  const next = { ...props };
  if (value === undefined) delete next[name];
  else next[name] = value;
  return next;
};

export const getBucketVersioning: S3Handler<'GetBucketVersioning'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const status = cfnProperties(bucket).VersioningConfiguration?.Status;
  return status ? { Status: status } : {};
};

export const putBucketVersioning: S3Handler<'PutBucketVersioning'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const status = input.VersioningConfiguration?.Status;
  if (status)
    saveBucket(ctx, bucket, {
      properties: withProperty(bucket.properties, 'VersioningConfiguration', { Status: status }),
    });
  return undefined;
};

// Every bucket has had SSE-S3 (AES256) default encryption since January 2023: a bucket without a configuration
// answers that rule, and DeleteBucketEncryption goes back to it.
// https://docs.aws.amazon.com/AmazonS3/latest/userguide/default-encryption-faq.html
const DEFAULT_ENCRYPTION: CfnEncryptionRule[] = [
  { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' }, BucketKeyEnabled: false },
];

export const getBucketEncryption: S3Handler<'GetBucketEncryption'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const rules = cfnProperties(bucket).BucketEncryption?.ServerSideEncryptionConfiguration ?? DEFAULT_ENCRYPTION;
  if (!rules.length) throw encryptionNotFound(bucket.physicalId);
  const Rules = rules.map((r) => ({
    ApplyServerSideEncryptionByDefault: r.ServerSideEncryptionByDefault,
    BucketKeyEnabled: r.BucketKeyEnabled ?? false,
  }));
  return { ServerSideEncryptionConfiguration: { Rules } };
};

export const putBucketEncryption: S3Handler<'PutBucketEncryption'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const rules = (input.ServerSideEncryptionConfiguration?.Rules ?? []).map((r) => ({
    ServerSideEncryptionByDefault: r.ApplyServerSideEncryptionByDefault,
    ...(r.BucketKeyEnabled !== undefined ? { BucketKeyEnabled: r.BucketKeyEnabled } : {}),
  }));
  saveBucket(ctx, bucket, {
    properties: withProperty(bucket.properties, 'BucketEncryption', { ServerSideEncryptionConfiguration: rules }),
  });
  return undefined;
};

export const deleteBucketEncryption: S3Handler<'DeleteBucketEncryption'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  saveBucket(ctx, bucket, { properties: withProperty(bucket.properties, 'BucketEncryption', undefined) });
  return undefined;
};

/** A policy put through S3, else the PolicyDocument of a stack's AWS::S3::BucketPolicy on this bucket. */
export const getBucketPolicy: S3Handler<'GetBucketPolicy'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
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
};

export const putBucketPolicy: S3Handler<'PutBucketPolicy'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const policy = input.Policy;
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
};

export const deleteBucketPolicy: S3Handler<'DeleteBucketPolicy'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  saveBucket(ctx, bucket, { s3: { policy: null } });
  return undefined;
};

// New buckets have blocked all public access by default since April 2023.
// https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html
export const getPublicAccessBlock: S3Handler<'GetPublicAccessBlock'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const set = cfnProperties(bucket).PublicAccessBlockConfiguration;
  if (!set && s3State(bucket).publicAccessBlockDeleted) throw noSuchPublicAccessBlockConfiguration(bucket.physicalId);
  const config = Object.fromEntries(
    PUBLIC_ACCESS_FIELDS.map((f) => [f, set ? set[f] === true || set[f] === 'true' : true]),
  );
  return { PublicAccessBlockConfiguration: config };
};

export const putPublicAccessBlock: S3Handler<'PutPublicAccessBlock'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const given: PublicAccessBlockConfiguration = input.PublicAccessBlockConfiguration ?? {};
  const config = Object.fromEntries(PUBLIC_ACCESS_FIELDS.map((f) => [f, given[f] === true]));
  saveBucket(ctx, bucket, {
    properties: withProperty(bucket.properties, 'PublicAccessBlockConfiguration', config),
    s3: { publicAccessBlockDeleted: false },
  });
  return undefined;
};

export const deletePublicAccessBlock: S3Handler<'DeletePublicAccessBlock'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  saveBucket(ctx, bucket, {
    properties: withProperty(bucket.properties, 'PublicAccessBlockConfiguration', undefined),
    s3: { publicAccessBlockDeleted: true },
  });
  return undefined;
};

export const getBucketTagging: S3Handler<'GetBucketTagging'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const tags = cfnProperties(bucket).Tags;
  if (!tags?.length) throw noSuchTagSet(bucket.physicalId);
  return { TagSet: tags.map((t) => ({ Key: t.Key, Value: t.Value })) };
};

export const putBucketTagging: S3Handler<'PutBucketTagging'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const tags = (input.Tagging?.TagSet ?? []).map((t) => ({
    Key: t.Key,
    Value: t.Value ?? '',
  }));
  saveBucket(ctx, bucket, { properties: withProperty(bucket.properties, 'Tags', tags.length ? tags : undefined) });
  return undefined;
};

export const deleteBucketTagging: S3Handler<'DeleteBucketTagging'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  saveBucket(ctx, bucket, { properties: withProperty(bucket.properties, 'Tags', undefined) });
  return undefined;
};

export const getBucketLifecycleConfiguration: S3Handler<'GetBucketLifecycleConfiguration'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const own = s3State(bucket).lifecycle;
  const rules = own === undefined ? lifecycleFromProperties(cfnProperties(bucket)) : own?.Rules;
  if (!rules?.length) throw noSuchLifecycleConfiguration(bucket.physicalId);
  return { Rules: rules };
};

export const putBucketLifecycleConfiguration: S3Handler<'PutBucketLifecycleConfiguration'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  const rules = input.LifecycleConfiguration?.Rules ?? [];
  saveBucket(ctx, bucket, { s3: { lifecycle: { Rules: rules } } });
  return {};
};

export const deleteBucketLifecycle: S3Handler<'DeleteBucketLifecycle'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  saveBucket(ctx, bucket, { s3: { lifecycle: null } });
  return undefined;
};
