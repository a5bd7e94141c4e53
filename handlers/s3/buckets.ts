// S3 bucket actions: CreateBucket, HeadBucket, DeleteBucket, ListBuckets, GetBucketLocation, over the account's
// AWS::S3::Bucket world rows (https://docs.aws.amazon.com/AmazonS3/latest/API/API_Operations_Amazon_Simple_Storage_Service.html).
import { attributeValues, cryptoRandom } from '../../resources/generic.js';
import { partitionOf } from '../../resources/regions.js';
import {
  bucketAlreadyOwnedByYou,
  bucketNotEmpty,
  illegalLocationConstraint,
  invalidBucketName,
} from '../../domain/s3Errors.js';
import {
  BUCKET_TYPE,
  OWNER,
  bucketRow,
  findBucket,
  type S3Context,
  type S3Handler,
  type S3InputOf,
} from './context.js';

// https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const IP_ADDRESS = /^\d+\.\d+\.\d+\.\d+$/;

export function checkBucketName(name: string): void {
  if (
    !BUCKET_NAME.test(name) ||
    IP_ADDRESS.test(name) ||
    name.includes('..') ||
    name.startsWith('xn--') ||
    name.endsWith('-s3alias')
  ) {
    throw invalidBucketName(name);
  }
}

/** The region a CreateBucket lands in: its LocationConstraint, which must match the endpoint's region. */
function regionOf(ctx: S3Context, input: S3InputOf<'CreateBucket'>): string {
  const constraint = input.CreateBucketConfiguration?.LocationConstraint || undefined;
  const region = ctx.caller.region;
  // us-east-1 takes no constraint (or its legacy alias EU for eu-west-1 is not served); elsewhere it must name the region.
  if (constraint === undefined) {
    if (region !== 'us-east-1') throw illegalLocationConstraint(undefined, region);
    return region;
  }
  if (constraint !== region) throw illegalLocationConstraint(constraint, region);
  return constraint;
}

export const createBucket: S3Handler<'CreateBucket'> = (ctx, input) => {
  const name = input.Bucket;
  checkBucketName(name);
  const region = regionOf(ctx, input);
  if (bucketRow(ctx, name)) {
    // us-east-1 answers a repeated CreateBucket by its owner with 200 OK, for compatibility; other regions refuse.
    if (region === 'us-east-1') return { Location: `/${name}` };
    throw bucketAlreadyOwnedByYou(name);
  }
  const ctxArn = { account: ctx.caller.account, region, partition: partitionOf(region) };
  const attributes = attributeValues({
    type: BUCKET_TYPE,
    physicalId: name,
    name,
    properties: { BucketName: name },
    ctx: ctxArn,
    random: cryptoRandom,
  });
  ctx.store.world.put({
    account: ctx.caller.account,
    region,
    type: BUCKET_TYPE,
    physicalId: name,
    name,
    createdAt: new Date().toISOString(),
    properties: { BucketName: name },
    attributes,
    state: {},
  });
  return {
    Location: region === 'us-east-1' ? `/${name}` : `http://${name}.s3.amazonaws.com/`,
    BucketArn: `arn:${ctxArn.partition}:s3:::${name}`,
  };
};

export const headBucket: S3Handler<'HeadBucket'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  return { BucketRegion: bucket.region, AccessPointAlias: false };
};

export const deleteBucket: S3Handler<'DeleteBucket'> = (ctx, input) => {
  const name = input.Bucket;
  const bucket = findBucket(ctx, name);
  if ((bucket.state.objects ?? 0) + (bucket.state.dataItems ?? 0) > 0) throw bucketNotEmpty(name);
  ctx.store.world.remove(bucket.account, bucket.region, bucket.type, bucket.physicalId);
  return undefined;
};

export const listBuckets: S3Handler<'ListBuckets'> = (ctx, input) => {
  const prefix = input.Prefix ?? '';
  const rows = ctx.store.world
    .list({ type: BUCKET_TYPE, account: ctx.caller.account })
    .filter((b) => (b.name ?? b.physicalId).startsWith(prefix))
    .sort((a, b) => ((a.name ?? a.physicalId) < (b.name ?? b.physicalId) ? -1 : 1));
  const Buckets = rows.map((b) => ({
    Name: b.name ?? b.physicalId,
    CreationDate: new Date(b.createdAt),
    BucketRegion: b.region,
  }));
  return { Buckets, Owner: OWNER(ctx), ...(input.Prefix !== undefined ? { Prefix: prefix } : {}) };
};

/** us-east-1 answers an empty LocationConstraint, as S3 does for its first region. */
export const getBucketLocation: S3Handler<'GetBucketLocation'> = (ctx, input) => {
  const bucket = findBucket(ctx, input.Bucket);
  return { LocationConstraint: bucket.region === 'us-east-1' ? '' : bucket.region };
};
