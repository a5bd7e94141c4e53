// Kinesis in the backend: AWS::Kinesis::Stream (shards or on-demand, retention, encryption, tags).
import type { KinesisClient } from '@aws-sdk/client-kinesis';
import { clientFor } from './clients.js';
import { backendSdk } from './sdk.js';
import type { BackendCall, BackendOps } from './provider.js';
import type { BackendEndpoint } from '../provider.js';
import { num, tagMap } from './values.js';

const sdk = async () => backendSdk().kinesis;
const client = async (call: BackendCall) => kinesisClient(call.backend, call.req);

/** Kinesis's client defaults to HTTP/2 (for SubscribeToShard); the backend is spoken to over HTTP/1.1. */
export const kinesisClient = (backend: BackendEndpoint, scope: { account: string; region: string }) =>
  clientFor<KinesisClient>(
    backend,
    scope,
    'kinesis',
    async () => backendSdk().kinesis.KinesisClient,
    () => ({ requestHandler: new (backendSdk().http.NodeHttpHandler)() }),
  );

type Obj = Record<string, unknown>;

/** CloudFormation's default for a stream without a mode: one shard, as its handler creates. */
const mode = (p: Obj) => String((p.StreamModeDetails as Obj | undefined)?.StreamMode ?? 'PROVISIONED');

async function summary(call: BackendCall, name: string) {
  const m = await sdk();
  const got = await (await client(call)).send(new m.DescribeStreamSummaryCommand({ StreamName: name }));
  return got.StreamDescriptionSummary!;
}

/** A stream is CREATING, then ACTIVE (moto answers ACTIVE at once); CloudFormation's handler waits for it. */
async function active(call: BackendCall, name: string) {
  for (let i = 0; ; i++) {
    const s = await summary(call, name);
    if (s.StreamStatus === 'ACTIVE' || i >= 300) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function retention(call: BackendCall, name: string, hours: unknown, before: number): Promise<void> {
  const wanted = num(hours) ?? 24;
  if (wanted === before) return;
  const m = await sdk();
  const kinesis = await client(call);
  if (wanted > before)
    await kinesis.send(new m.IncreaseStreamRetentionPeriodCommand({ StreamName: name, RetentionPeriodHours: wanted }));
  else
    await kinesis.send(new m.DecreaseStreamRetentionPeriodCommand({ StreamName: name, RetentionPeriodHours: wanted }));
}

async function encryption(call: BackendCall, name: string, value: unknown, before: unknown): Promise<void> {
  const now = value as Obj | undefined;
  const was = before as Obj | undefined;
  if (JSON.stringify(now) === JSON.stringify(was)) return;
  const m = await sdk();
  const kinesis = await client(call);
  if (was?.KeyId)
    await kinesis.send(
      new m.StopStreamEncryptionCommand({ StreamName: name, EncryptionType: 'KMS', KeyId: String(was.KeyId) }),
    );
  if (now?.KeyId)
    await kinesis.send(
      new m.StartStreamEncryptionCommand({ StreamName: name, EncryptionType: 'KMS', KeyId: String(now.KeyId) }),
    );
}

export const KINESIS_STREAM: BackendOps = {
  service: 'Kinesis',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const onDemand = mode(p) === 'ON_DEMAND';
    await (
      await client(call)
    ).send(
      new m.CreateStreamCommand({
        StreamName: call.name,
        ShardCount: onDemand ? undefined : (num(p.ShardCount) ?? 1),
        StreamModeDetails: { StreamMode: onDemand ? 'ON_DEMAND' : 'PROVISIONED' },
        Tags: tagMap(p.Tags),
      }),
    );
    const made = await active(call, call.name);
    await retention(call, call.name, p.RetentionPeriodHours, made.RetentionPeriodHours ?? 24);
    await encryption(call, call.name, p.StreamEncryption, undefined);
    return { physicalId: call.name, attributes: { Arn: made.StreamARN } };
  },
  async update(call) {
    const m = await sdk();
    const p = call.req.properties;
    const before = call.req.previousProperties ?? {};
    const kinesis = await client(call);
    const now = await summary(call, call.physicalId);
    if (mode(p) !== mode(before)) {
      await kinesis.send(
        new m.UpdateStreamModeCommand({
          StreamARN: now.StreamARN,
          StreamModeDetails: { StreamMode: mode(p) as 'ON_DEMAND' | 'PROVISIONED' },
        }),
      );
    }
    const shards = num(p.ShardCount) ?? 1;
    if (mode(p) === 'PROVISIONED' && shards !== (now.OpenShardCount ?? shards)) {
      await kinesis.send(
        new m.UpdateShardCountCommand({
          StreamName: call.physicalId,
          TargetShardCount: shards,
          ScalingType: 'UNIFORM_SCALING',
        }),
      );
    }
    await retention(call, call.physicalId, p.RetentionPeriodHours, now.RetentionPeriodHours ?? 24);
    await encryption(call, call.physicalId, p.StreamEncryption, before.StreamEncryption);
  },
  async delete(call) {
    const m = await sdk();
    // CloudFormation's handler deletes a stream that still has consumers too
    await (
      await client(call)
    ).send(new m.DeleteStreamCommand({ StreamName: call.physicalId, EnforceConsumerDeletion: true }));
  },
  async read(call) {
    const s = await summary(call, call.physicalId);
    const onDemand = s.StreamModeDetails?.StreamMode === 'ON_DEMAND';
    return {
      Name: s.StreamName,
      ShardCount: onDemand ? undefined : s.OpenShardCount,
      RetentionPeriodHours: s.RetentionPeriodHours,
      StreamModeDetails: { StreamMode: s.StreamModeDetails?.StreamMode ?? 'PROVISIONED' },
      StreamEncryption: s.EncryptionType === 'KMS' ? { EncryptionType: 'KMS', KeyId: s.KeyId } : undefined,
    };
  },
};
