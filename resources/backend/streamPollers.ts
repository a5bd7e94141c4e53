// Event source mappings from Kinesis streams and DynamoDB streams in the backend, polled as Lambda's stream pollers
// do: each shard is read in order from StartingPosition, up to BatchSize records go to the local function as
// Lambda's Kinesis or DynamoDB event, and a batch the function fails is retried (from the first item it reported in
// batchItemFailures, with ReportBatchItemFailures) until it succeeds or MaximumRetryAttempts runs out; then the
// batch is skipped, and its description sent to an SQS OnFailure destination when the mapping names one.
import type { KinesisClient, _Record as KinesisRecord } from '@aws-sdk/client-kinesis';
import type { DynamoDBStreamsClient, _Record as DynamoDbRecord } from '@aws-sdk/client-dynamodb-streams';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { BackendEndpoint, LambdaInvoker } from '../provider.js';
import { clientFor } from './clients.js';
import { backendSdk } from './sdk.js';
import type { Log, Mapping } from './pollers.js';
import { kinesisClient } from './kinesis.js';

export const isKinesisSource = (arn: string) => /^arn:[^:]+:kinesis:[^:]*:[^:]*:stream\//.test(arn);
export const isDynamoDbStreamSource = (arn: string) =>
  /^arn:[^:]+:dynamodb:[^:]*:[^:]*:table\/[^/]+\/stream\//.test(arn);

type Position = 'TRIM_HORIZON' | 'LATEST' | 'AT_TIMESTAMP';

/** What differs between a Kinesis stream and a DynamoDB stream: how shards and records are read, and the event. */
interface StreamSource<R> {
  eventSource: 'aws:kinesis' | 'aws:dynamodb';
  shards(): Promise<string[]>;
  iterator(shard: string, position: Position, at?: Date): Promise<string | undefined>;
  records(iterator: string, limit: number): Promise<{ records: R[]; next?: string }>;
  record(r: R, shard: string): Record<string, unknown>;
  sequence(r: R): string;
  /** Lambda's per-batch maximum for this source (GetRecords' own limit for DynamoDB streams). */
  maxLimit: number;
}

const seconds = (d: Date | undefined) => (d ? d.getTime() / 1000 : undefined);

/** DynamoDB's attribute values with binary values as base64, as Lambda's JSON event carries them. */
function jsonSafe(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  return value;
}

function kinesisSource(
  client: () => Promise<KinesisClient>,
  mapping: Mapping,
  signal: AbortSignal,
): StreamSource<KinesisRecord> {
  const m = backendSdk().kinesis;
  const arn = String(mapping.properties.EventSourceArn);
  const StreamName = arn.slice(arn.indexOf(':stream/') + ':stream/'.length);
  return {
    eventSource: 'aws:kinesis',
    maxLimit: 10_000,
    async shards() {
      const got = await (await client()).send(new m.ListShardsCommand({ StreamName }), { abortSignal: signal });
      return (got.Shards ?? []).map((s) => s.ShardId!);
    },
    async iterator(ShardId, ShardIteratorType, Timestamp) {
      const got = await (
        await client()
      ).send(new m.GetShardIteratorCommand({ StreamName, ShardId, ShardIteratorType, Timestamp }), {
        abortSignal: signal,
      });
      return got.ShardIterator;
    },
    async records(ShardIterator, Limit) {
      const got = await (
        await client()
      ).send(new m.GetRecordsCommand({ ShardIterator, Limit }), { abortSignal: signal });
      return { records: got.Records ?? [], next: got.NextShardIterator };
    },
    record: (r, shard) => ({
      kinesis: {
        kinesisSchemaVersion: '1.0',
        partitionKey: r.PartitionKey,
        sequenceNumber: r.SequenceNumber,
        data: Buffer.from(r.Data ?? new Uint8Array()).toString('base64'),
        approximateArrivalTimestamp: seconds(r.ApproximateArrivalTimestamp),
      },
      eventSource: 'aws:kinesis',
      eventVersion: '1.0',
      eventID: `${shard}:${r.SequenceNumber}`,
      eventName: 'aws:kinesis:record',
      awsRegion: mapping.region,
      eventSourceARN: arn,
    }),
    sequence: (r) => String(r.SequenceNumber),
  };
}

function dynamoDbSource(
  client: () => Promise<DynamoDBStreamsClient>,
  mapping: Mapping,
  signal: AbortSignal,
): StreamSource<DynamoDbRecord> {
  const m = backendSdk().dynamodbStreams;
  const StreamArn = String(mapping.properties.EventSourceArn);
  return {
    eventSource: 'aws:dynamodb',
    maxLimit: 1_000,
    async shards() {
      const got = await (await client()).send(new m.DescribeStreamCommand({ StreamArn }), { abortSignal: signal });
      return (got.StreamDescription?.Shards ?? []).map((s) => s.ShardId!);
    },
    async iterator(ShardId, position) {
      const got = await (
        await client()
      ).send(
        new m.GetShardIteratorCommand({
          StreamArn,
          ShardId,
          ShardIteratorType: position === 'AT_TIMESTAMP' ? 'TRIM_HORIZON' : position,
        }),
        { abortSignal: signal },
      );
      return got.ShardIterator;
    },
    async records(ShardIterator, Limit) {
      const got = await (
        await client()
      ).send(new m.GetRecordsCommand({ ShardIterator, Limit }), { abortSignal: signal });
      return { records: got.Records ?? [], next: got.NextShardIterator };
    },
    record: (r) => ({
      eventID: r.eventID,
      eventName: r.eventName,
      eventVersion: r.eventVersion ?? '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: r.awsRegion ?? mapping.region,
      dynamodb: jsonSafe({
        ...r.dynamodb,
        ApproximateCreationDateTime: seconds(r.dynamodb?.ApproximateCreationDateTime),
      }),
      eventSourceARN: StreamArn,
    }),
    sequence: (r) => String(r.dynamodb?.SequenceNumber),
  };
}

/** The sequence numbers a function reported as failed (ReportBatchItemFailures); undefined when none. */
function reportedFailures(payload: Buffer): string[] | undefined {
  try {
    const parsed = JSON.parse(payload.toString('utf8')) as { batchItemFailures?: { itemIdentifier?: string }[] };
    const ids = parsed.batchItemFailures?.map((f) => String(f.itemIdentifier));
    return ids?.length ? ids : undefined;
  } catch {
    return undefined;
  }
}

export class StreamPoller<R> {
  private readonly abort = new AbortController();
  private readonly source: StreamSource<R>;
  /** Resolves once every shard has its first iterator: LATEST means "from when the mapping was made". */
  readonly ready: Promise<void>;
  readonly done: Promise<void>;

  constructor(
    private readonly mapping: Mapping,
    private readonly backend: BackendEndpoint,
    private readonly lambda: LambdaInvoker,
    private readonly log: Log,
  ) {
    const arn = String(mapping.properties.EventSourceArn);
    const signal = this.abort.signal;
    const sdk = backendSdk();
    this.source = (
      isKinesisSource(arn)
        ? kinesisSource(() => kinesisClient(backend, mapping), mapping, signal)
        : dynamoDbSource(
            () =>
              clientFor(backend, mapping, 'dynamodb-streams', async () => sdk.dynamodbStreams.DynamoDBStreamsClient),
            mapping,
            signal,
          )
    ) as StreamSource<R>;
    let started!: () => void;
    this.ready = new Promise((resolve) => (started = resolve));
    this.done = this.loop(started);
  }

  stop(): Promise<void> {
    this.abort.abort();
    return this.done;
  }

  private stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.abort.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }

  private warn(obj: object, msg: string) {
    this.log.warn({ mapping: this.mapping.id, ...obj }, `event source mapping: ${msg}`);
  }

  private async loop(started: () => void): Promise<void> {
    const p = this.mapping.properties;
    const position = String(p.StartingPosition ?? 'LATEST') as Position;
    const at =
      p.StartingPositionTimestamp === undefined ? undefined : new Date(Number(p.StartingPositionTimestamp) * 1000);
    const iterators = new Map<string, string | undefined>();
    const seen = new Set<string>();
    const discover = async (first: boolean) => {
      for (const shard of await this.source.shards()) {
        if (seen.has(shard)) continue;
        seen.add(shard);
        // a shard that appears later (a reshard) is read from its start, as Lambda does
        iterators.set(shard, await this.source.iterator(shard, first ? position : 'TRIM_HORIZON', at));
      }
    };
    let discovered = false;
    try {
      for (let round = 0; !this.stopped(); round++) {
        try {
          if (!discovered || round % 40 === 0) await discover(!discovered);
          discovered = true;
        } catch (err) {
          if (this.stopped()) break;
          this.warn({ err: (err as Error).message }, 'reading the shards failed');
          await this.pause(1_000);
          continue;
        } finally {
          started();
        }
        let busy = false;
        for (const [shard, iterator] of iterators) {
          if (this.stopped() || !iterator) continue;
          try {
            busy = (await this.pollShard(shard, iterator, iterators)) || busy;
          } catch (err) {
            if (this.stopped()) break;
            this.warn({ shard, err: (err as Error).message }, 'poll failed');
            await this.pause(1_000);
          }
        }
        if (!busy) await this.pause(250);
      }
    } finally {
      started();
    }
  }

  /** One GetRecords on a shard and the batch's invocations; true when it had records. */
  private async pollShard(shard: string, iterator: string, iterators: Map<string, string | undefined>) {
    const p = this.mapping.properties;
    const limit = Math.min(Number(p.BatchSize ?? 100), this.source.maxLimit);
    const { records, next } = await this.source.records(iterator, limit);
    if (records.length > 0) await this.deliver(shard, records);
    // a closed shard (after a reshard) has no next iterator: it is done
    iterators.set(shard, next);
    return records.length > 0;
  }

  /** Invokes the function with the batch until it succeeds or the retries run out. */
  private async deliver(shard: string, all: R[]): Promise<void> {
    const p = this.mapping.properties;
    const maxRetries = Number(p.MaximumRetryAttempts ?? -1);
    const partial = (p.FunctionResponseTypes as string[] | undefined)?.includes('ReportBatchItemFailures');
    let batch = all;
    for (let attempt = 0; !this.stopped(); attempt++) {
      const answer = await this.lambda.invoke({
        account: this.mapping.account,
        region: this.mapping.region,
        functionName: String(p.FunctionName),
        payload: JSON.stringify({ Records: batch.map((r) => this.source.record(r, shard)) }),
        invocationType: 'RequestResponse',
      });
      const failedCall = Boolean(answer.functionError) || answer.statusCode >= 300;
      const failures = !failedCall && partial ? reportedFailures(answer.payload) : undefined;
      if (!failedCall && !failures) return;
      if (failures) {
        // the batch is checkpointed before the first failed item; the retry starts there
        const first = batch.findIndex((r) => failures.includes(this.source.sequence(r)));
        batch = first < 0 ? [] : batch.slice(first);
        if (batch.length === 0) return;
      }
      if (maxRetries >= 0 && attempt >= maxRetries) {
        this.warn(
          { shard, error: answer.functionError },
          'the function failed; retries exhausted, the batch is skipped',
        );
        await this.onFailure(shard, batch, attempt + 1);
        return;
      }
      this.warn({ shard, error: answer.functionError }, 'the function failed; the batch is retried');
      await this.pause(Math.min(1_000 * 2 ** attempt, 10_000));
    }
  }

  /** Lambda's record of a discarded batch, sent to an SQS OnFailure destination. */
  private async onFailure(shard: string, batch: R[], attempts: number): Promise<void> {
    const p = this.mapping.properties;
    const destination =
      (p.DestinationConfig as { OnFailure?: { Destination?: string } } | undefined)?.OnFailure?.Destination ?? '';
    if (!/^arn:[^:]+:sqs:/.test(destination)) return;
    const arn = String(p.EventSourceArn);
    const kind = this.source.eventSource === 'aws:kinesis' ? 'KinesisBatchInfo' : 'DDBStreamBatchInfo';
    const body = {
      requestContext: {
        requestId: crypto.randomUUID(),
        functionArn: String(p.FunctionName),
        condition: 'RetryAttemptsExhausted',
        approximateInvokeCount: attempts,
      },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      version: '1.0',
      timestamp: new Date().toISOString(),
      [kind]: {
        shardId: shard,
        startSequenceNumber: this.source.sequence(batch[0]),
        endSequenceNumber: this.source.sequence(batch[batch.length - 1]),
        batchSize: batch.length,
        streamArn: arn,
      },
    };
    try {
      const m = backendSdk().sqs;
      const sqs = await clientFor<SQSClient>(this.backend, this.mapping, 'sqs', async () => m.SQSClient);
      const parts = destination.split(':');
      const { QueueUrl } = await sqs.send(
        new m.GetQueueUrlCommand({ QueueName: parts[5], QueueOwnerAWSAccountId: parts[4] }),
      );
      await sqs.send(new m.SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify(body) }));
    } catch (err) {
      this.warn({ err: (err as Error).message }, 'sending to the OnFailure destination failed');
    }
  }
}
