// The S3 operations cfn-local serves: one table, operation name → handler (docs/services.md lists them).
import type { S3Action, S3Handler } from './context.js';
import type { NotImplemented } from '../actionTable.js';
import { NOT_SERVED } from './notImplemented.js';
import { createBucket, deleteBucket, getBucketLocation, headBucket, listBuckets } from './buckets.js';
import * as config from './bucketConfig.js';
import { deleteObject, deleteObjects, getObject, headObject, putObject } from './objects.js';
import { copyObject } from './copy.js';
import { listObjectsV2 } from './list.js';
import { listObjectVersions } from './listVersions.js';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  listParts,
  uploadPart,
} from './multipart.js';

export type { S3Context, S3Handler } from './context.js';

/** Total over the model's operations: the served ones here, the others NOT_IMPLEMENTED (notImplemented.ts). */
export const S3_ACTIONS: { readonly [A in S3Action]: S3Handler<A> | NotImplemented } = {
  ...NOT_SERVED,
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
  ListObjectVersions: listObjectVersions,
  CreateMultipartUpload: createMultipartUpload,
  UploadPart: uploadPart,
  CompleteMultipartUpload: completeMultipartUpload,
  AbortMultipartUpload: abortMultipartUpload,
  ListParts: listParts,
};
