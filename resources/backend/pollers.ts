// Event source mappings from SQS queues in the backend, polled as Lambda's pollers do: receive up to BatchSize
// messages, invoke the local function (the Lambda runtime) with Lambda's SQS event, delete the batch when the
// function succeeds (or the messages it did not report in batchItemFailures), and leave failed messages to come
// back after their visibility timeout, so the queue's own RedrivePolicy moves them to a dead-letter queue. Kinesis
// and DynamoDB streams are read by resources/backend/streamPollers.ts.
import type { SQSClient, Message } from '@aws-sdk/client-sqs';
import type { BackendEndpoint, LambdaInvoker } from '../provider.js';
import type { WorldResource } from '../../storage/world.js';
import { clientFor } from './clients.js';
import { backendSdk } from './sdk.js';
import { StreamPoller, isDynamoDbStreamSource, isKinesisSource } from './streamPollers.js';

export const ESM_TYPE = 'AWS::Lambda::EventSourceMapping';

export interface Log {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface Mapping {
  id: string;
  account: string;
  region: string;
  partition: string;
  properties: Record<string, unknown>;
}

const isSqsSource = (arn: string) => /^arn:[^:]+:sqs:/.test(arn);

/** Whether the mapping reads a source cfn-local polls: an SQS queue, a Kinesis stream or a DynamoDB stream. */
export function isPolledSource(properties: Record<string, unknown>): boolean {
  const arn = String(properties.EventSourceArn ?? '');
  return isSqsSource(arn) || isKinesisSource(arn) || isDynamoDbStreamSource(arn);
}

/** Lambda's SQS record for one message. */
function record(m: Message, arn: string, region: string) {
  const attributes = Object.fromEntries(
    Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [
      k,
      {
        stringValue: v.StringValue,
        binaryValue: v.BinaryValue ? Buffer.from(v.BinaryValue).toString('base64') : undefined,
        stringListValues: [],
        binaryListValues: [],
        dataType: v.DataType,
      },
    ]),
  );
  return {
    messageId: m.MessageId,
    receiptHandle: m.ReceiptHandle,
    body: m.Body,
    attributes: m.Attributes ?? {},
    messageAttributes: attributes,
    md5OfBody: m.MD5OfBody,
    eventSource: 'aws:sqs',
    eventSourceARN: arn,
    awsRegion: region,
  };
}

/** The message ids a function reported as failed (ReportBatchItemFailures), or undefined for "all succeeded". */
function reportedFailures(payload: Buffer): string[] | undefined {
  try {
    const parsed = JSON.parse(payload.toString('utf8')) as { batchItemFailures?: { itemIdentifier?: string }[] };
    return parsed.batchItemFailures?.map((f) => String(f.itemIdentifier));
  } catch {
    return undefined;
  }
}

interface Poller {
  /** Resolves once the poller reads from where the mapping starts (a stream's shard iterators taken). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

class SqsPoller implements Poller {
  private readonly abort = new AbortController();
  readonly ready = Promise.resolve();
  readonly done: Promise<void>;

  constructor(
    private readonly mapping: Mapping,
    private readonly backend: BackendEndpoint,
    private readonly lambda: LambdaInvoker,
    private readonly log: Log,
  ) {
    this.done = this.loop();
  }

  stop(): Promise<void> {
    this.abort.abort();
    return this.done;
  }

  private async loop(): Promise<void> {
    const stopped = () => this.abort.signal.aborted;
    while (!stopped()) {
      try {
        await this.pollOnce();
      } catch (err) {
        if (stopped()) return;
        this.log.warn({ mapping: this.mapping.id, err: (err as Error).message }, 'event source mapping: poll failed');
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  }

  private async pollOnce(): Promise<void> {
    const m = backendSdk().sqs;
    const p = this.mapping.properties;
    const arn = String(p.EventSourceArn);
    const name = arn.split(':').at(-1)!;
    const scope = this.mapping;
    const sqs = await clientFor<SQSClient>(this.backend, scope, 'sqs', async () => m.SQSClient);
    const { QueueUrl } = await sqs.send(
      new m.GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: arn.split(':')[4] }),
      { abortSignal: this.abort.signal },
    );
    const batch = Math.min(Number(p.BatchSize ?? 10), 10);
    const got = await sqs.send(
      new m.ReceiveMessageCommand({
        QueueUrl,
        MaxNumberOfMessages: batch,
        WaitTimeSeconds: 1,
        // eslint-disable-next-line @typescript-eslint/no-deprecated -- the name moto and older endpoints read
        AttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      // not aborted: the backend would still hand a message to the dropped long poll, hiding it for the queue's
      // visibility timeout; a stop waits for the poll (at most 1 s) and gives back what it received
    );
    const messages = got.Messages ?? [];
    if (messages.length === 0) return;
    if (this.abort.signal.aborted) {
      await sqs.send(
        new m.ChangeMessageVisibilityBatchCommand({
          QueueUrl,
          Entries: messages.map((msg, i) => ({
            Id: String(i),
            ReceiptHandle: msg.ReceiptHandle,
            VisibilityTimeout: 0,
          })),
        }),
      );
      return;
    }
    const event = { Records: messages.map((msg) => record(msg, arn, scope.region)) };
    const answer = await this.lambda.invoke({
      account: scope.account,
      region: scope.region,
      functionName: String(p.FunctionName),
      payload: JSON.stringify(event),
      invocationType: 'RequestResponse',
    });
    if (answer.functionError || answer.statusCode >= 300) {
      this.log.warn(
        { mapping: this.mapping.id, error: answer.functionError },
        'event source mapping: the function failed; the batch returns to the queue',
      );
      return;
    }
    const partial = (p.FunctionResponseTypes as string[] | undefined)?.includes('ReportBatchItemFailures')
      ? reportedFailures(answer.payload)
      : undefined;
    const done = messages.filter((msg) => !partial?.includes(String(msg.MessageId)));
    if (done.length === 0) return;
    await sqs.send(
      new m.DeleteMessageBatchCommand({
        QueueUrl,
        Entries: done.map((msg, i) => ({ Id: String(i), ReceiptHandle: msg.ReceiptHandle })),
      }),
    );
  }
}

/** The running pollers, one per enabled mapping; kept by server/app.ts, started by the mapping's provider. */
export class EventSourcePollers {
  private readonly running = new Map<string, Poller>();

  constructor(
    private readonly backend: BackendEndpoint,
    private readonly lambda: () => LambdaInvoker | undefined,
    private readonly log: Log,
  ) {}

  /** Starts (or restarts) the mapping's poller; resolves once it reads from the mapping's starting position. */
  start(mapping: Mapping): Promise<void> {
    void this.stop(mapping.id);
    const lambda = this.lambda();
    if (!lambda || !isPolledSource(mapping.properties) || String(mapping.properties.Enabled ?? true) === 'false')
      return Promise.resolve();
    const arn = String(mapping.properties.EventSourceArn);
    const poller = isSqsSource(arn)
      ? new SqsPoller(mapping, this.backend, lambda, this.log)
      : new StreamPoller(mapping, this.backend, lambda, this.log);
    this.running.set(mapping.id, poller);
    return poller.ready;
  }

  async stop(id: string): Promise<void> {
    const poller = this.running.get(id);
    this.running.delete(id);
    await poller?.stop();
  }

  /** A restart takes up the mappings the world holds. */
  resume(rows: WorldResource[]): void {
    for (const r of rows) {
      if (r.state.lives === 'backend')
        void this.start({
          id: r.physicalId,
          account: r.account,
          region: r.region,
          partition: 'aws',
          properties: r.properties,
        });
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.stop(id)));
  }
}
