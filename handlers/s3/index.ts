// The S3 operations cfn-local serves: one table, operation name → handler (docs/services.md lists them).
import type { S3Action, S3Context, S3Handler } from './context.js';
import { createBucket, deleteBucket, getBucketLocation, headBucket, listBuckets } from './buckets.js';
import * as config from './bucketConfig.js';
import { deleteObject, deleteObjects, getObject, headObject, putObject } from './objects.js';
import { copyObject } from './copy.js';
import { listObjectsV2 } from './list.js';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  listParts,
  uploadPart,
} from './multipart.js';

export type { S3Context, S3Handler } from './context.js';

/** Partial: a name the routing table returns may have no handler here (it answers NotImplemented). */
export const S3_ACTIONS: { readonly [A in S3Action]?: S3Handler<A> } = {
  CreateBucket: createBucket,
  HeadBucket: headBucket,
  DeleteBucket: deleteBucket,
  ListBuckets: listBuckets,
  GetBucketLocation: getBucketLocation,
  GetBucketVersioning: config.getBucketVersioning,
  PutBucketVersioning: config.putBucketVersioning,
  GetBucketEncryption: config.getBucketEncryption,
  PutBucketEncryption: config.putBucketEncryption,
  DeleteBucketEncryption: config.deleteBucketEncryption,
  GetBucketPolicy: config.getBucketPolicy,
  PutBucketPolicy: config.putBucketPolicy,
  DeleteBucketPolicy: config.deleteBucketPolicy,
  GetPublicAccessBlock: config.getPublicAccessBlock,
  PutPublicAccessBlock: config.putPublicAccessBlock,
  DeletePublicAccessBlock: config.deletePublicAccessBlock,
  GetBucketLifecycleConfiguration: config.getBucketLifecycleConfiguration,
  PutBucketLifecycleConfiguration: config.putBucketLifecycleConfiguration,
  DeleteBucketLifecycle: config.deleteBucketLifecycle,
  GetBucketTagging: config.getBucketTagging,
  PutBucketTagging: config.putBucketTagging,
  DeleteBucketTagging: config.deleteBucketTagging,
  PutObject: putObject,
  GetObject: getObject,
  HeadObject: headObject,
  DeleteObject: deleteObject,
  DeleteObjects: deleteObjects,
  CopyObject: copyObject,
  ListObjectsV2: listObjectsV2,
  CreateMultipartUpload: createMultipartUpload,
  UploadPart: uploadPart,
  CompleteMultipartUpload: completeMultipartUpload,
  AbortMultipartUpload: abortMultipartUpload,
  ListParts: listParts,
};

type Decoded = Record<string, unknown>;

/**
 * S3_ACTIONS as the protocol holds them: restXml builds each input from its operation's model shape and encodes each
 * output by it, and generated/s3.ts types both from that model; this view is the one place that is trusted.
 */
export const DECODED_S3_ACTIONS = S3_ACTIONS as unknown as Readonly<
  Record<string, ((ctx: S3Context, input: Decoded) => Decoded | undefined | Promise<Decoded | undefined>) | undefined>
>;
