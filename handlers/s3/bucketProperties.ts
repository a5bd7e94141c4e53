// The AWS::S3::Bucket properties the S3 API reads (handlers/s3/bucketConfig.ts), as a stack's template or an
// earlier S3 call left them in the bucket's world row: a template's numbers and booleans may be strings.
import type { WorldResource } from '../../storage/index.js';
import type { LifecycleRule } from '../../generated/s3.js';

export interface CfnEncryptionRule {
  ServerSideEncryptionByDefault?: { SSEAlgorithm?: string; KMSMasterKeyID?: string };
  BucketKeyEnabled?: boolean;
}

/** The fields of a lifecycle Rule that S3 answers with. */
export interface CfnLifecycleRule {
  Id?: string;
  Prefix?: string;
  Status: string;
  ExpirationInDays?: unknown;
  NoncurrentVersionExpirationInDays?: unknown;
  NoncurrentVersionExpiration?: LifecycleRule['NoncurrentVersionExpiration'];
  AbortIncompleteMultipartUpload?: LifecycleRule['AbortIncompleteMultipartUpload'];
}

export const PUBLIC_ACCESS_FIELDS = [
  'BlockPublicAcls',
  'IgnorePublicAcls',
  'BlockPublicPolicy',
  'RestrictPublicBuckets',
] as const;

export interface CfnBucketProperties {
  VersioningConfiguration?: { Status?: string };
  BucketEncryption?: { ServerSideEncryptionConfiguration?: CfnEncryptionRule[] };
  PublicAccessBlockConfiguration?: Partial<Record<(typeof PUBLIC_ACCESS_FIELDS)[number], unknown>>;
  Tags?: { Key: string; Value: string }[];
  LifecycleConfiguration?: { Rules?: CfnLifecycleRule[] };
}

/**
 * The bucket's properties as S3 reads them, written by a stack (in CloudFormation's shapes) or by the S3 handlers
 * (in these): this view is the one place that trusts them.
 */
export const cfnProperties = (bucket: WorldResource): CfnBucketProperties => bucket.properties;

/** A stack's LifecycleConfiguration.Rules in S3's shape (the common fields). */
export function lifecycleFromProperties(props: CfnBucketProperties): LifecycleRule[] | undefined {
  return props.LifecycleConfiguration?.Rules?.map((r) => ({
    ...(r.Id !== undefined ? { ID: r.Id } : {}),
    Filter: { Prefix: r.Prefix ?? '' },
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
