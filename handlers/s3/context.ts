// What every S3 handler receives (the caller, storage) and the bucket lookups they share. A bucket is the simulated
// account's AWS::S3::Bucket world row, whoever made it: a stack, or CreateBucket.
import type { Store, WorldResource } from '../../storage/index.js';
import type { Caller } from '../../state-machine/engine.js';
import { noSuchBucket } from '../../domain/s3Errors.js';
import type { LifecycleRule, S3Actions } from '../../generated/s3.js';

export const BUCKET_TYPE = 'AWS::S3::Bucket';

export interface S3Context {
  store: Store;
  caller: Caller;
  requestId: string;
}

/** Every S3 operation of the model, and the input and output the model gives it (generated/s3.ts). */
export type S3Action = keyof S3Actions;
export type S3InputOf<A extends S3Action> = S3Actions[A]['input'];

/** A success status other than the operation's own, which server/services/s3.ts sends: 206 for a byte range. */
export interface S3Status {
  $status?: number;
}

export type S3OutputOf<A extends S3Action> = S3Actions[A]['output'] extends undefined
  ? undefined
  : S3Actions[A]['output'] & S3Status;

/** The handler of one operation: its input as restXml decodes it, its output as the model shapes it. */
export type S3Handler<A extends S3Action> = (
  ctx: S3Context,
  input: S3InputOf<A>,
) => S3OutputOf<A> | Promise<S3OutputOf<A>>;

/** The bucket's world row in the caller's account (any region: bucket names are global), if it exists. */
export function bucketRow(ctx: S3Context, name: string): WorldResource | undefined {
  return ctx.store.world.byNameInAccount(ctx.caller.account, BUCKET_TYPE, name);
}

export function findBucket(ctx: S3Context, name: string): WorldResource {
  const found = bucketRow(ctx, name);
  if (!found) throw noSuchBucket(name);
  return found;
}

/** S3's own view of a bucket beyond its CloudFormation properties (what only the S3 API can set). */
export interface BucketS3State {
  /** A policy put through S3 (null: deleted through S3, even if a stack's AWS::S3::BucketPolicy names the bucket). */
  policy?: string | null;
  /** DeletePublicAccessBlock was called: the (default-on) configuration is gone. */
  publicAccessBlockDeleted?: boolean;
  /** A lifecycle configuration put through S3, in S3's shape (null: deleted through S3). */
  lifecycle?: { Rules?: LifecycleRule[] } | null;
}

export const s3State = (bucket: WorldResource): BucketS3State => bucket.state.s3 ?? {};

/** Rewrites the bucket's world row with new properties and/or S3 state. */
export function saveBucket(
  ctx: S3Context,
  bucket: WorldResource,
  change: { properties?: Record<string, unknown>; s3?: BucketS3State },
): void {
  const properties = change.properties ?? bucket.properties;
  const state = change.s3 ? { ...bucket.state, s3: { ...s3State(bucket), ...change.s3 } } : bucket.state;
  ctx.store.world.put({ ...bucket, properties, state });
}

/** Adds (or removes, with a negative delta) objects to the count that makes a bucket "not empty". */
export function countObjects(ctx: S3Context, bucket: string, delta: number): void {
  if (delta === 0) return;
  const row = findBucket(ctx, bucket);
  const objects = Math.max(0, (row.state.objects ?? 0) + delta);
  ctx.store.world.put({ ...row, state: { ...row.state, objects } });
}

export const OWNER = (ctx: S3Context) => ({ ID: ownerId(ctx.caller.account), DisplayName: 'cfn-local' });

/** A stable 64-hex canonical user id for the account (S3's owner ids are 64 hex digits). */
export function ownerId(account: string): string {
  return account.padStart(64, '0').replace(/[^0-9a-f]/g, '0');
}
