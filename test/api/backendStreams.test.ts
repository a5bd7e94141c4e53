// --backend <url>: AWS::Kinesis::Stream made, changed and deleted in a moto_server this file starts, and event
// source mappings from a Kinesis stream and a DynamoDB stream that read them into a function cfn-local runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { DescribeStreamSummaryCommand, KinesisClient, PutRecordCommand } from '@aws-sdk/client-kinesis';
import { DynamoDBClient, PutItemCommand, ScanCommand, DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { lambdaRoleAndFunction, startMoto, type TestMoto } from '../helpers/moto.js';
import { createStack, deleteStack } from './worldHelpers.js';

let moto: TestMoto;
let server: TestServer;
beforeAll(async () => {
  moto = await startMoto();
  server = await startServer({ backend: moto.url });
});
afterAll(async () => {
  await server.close();
  await moto.close();
});

const config = (endpoint: string) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  // Kinesis's client speaks HTTP/2 by default; moto and cfn-local's port speak HTTP/1.1
  requestHandler: new NodeHttpHandler(),
});

const STREAM = (extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::Kinesis::Stream',
  Properties: { ShardCount: 1, RetentionPeriodHours: 48, ...extra },
});

describe('AWS::Kinesis::Stream in the backend', () => {
  it('is made with its shards and retention, changed in place, and deleted', async () => {
    const body = (extra?: Record<string, unknown>) =>
      JSON.stringify({
        Resources: { Stream: STREAM(extra) },
        Outputs: { Name: { Value: { Ref: 'Stream' } }, Arn: { Value: { 'Fn::GetAtt': ['Stream', 'Arn'] } } },
      });
    const { id, stack } = await createStack(server, 'kinesis', body());
    if (stack.StackStatus !== 'CREATE_COMPLETE')
      console.log(await (await import('./worldHelpers.js')).eventLines(server.client, id, 'Stream'));
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const out = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey!, o.OutputValue!]));
    expect(out.Name).toMatch(/^kinesis-Stream-/);
    const direct = new KinesisClient(config(moto.url));
    const made = (await direct.send(new DescribeStreamSummaryCommand({ StreamName: out.Name })))
      .StreamDescriptionSummary!;
    expect(made).toMatchObject({ StreamARN: out.Arn, OpenShardCount: 1, RetentionPeriodHours: 48 });

    await server.client.send(
      new UpdateStackCommand({ StackName: id, TemplateBody: body({ ShardCount: 2, RetentionPeriodHours: 24 }) }),
    );
    expect((await waitForStack(server.client, id)).StackStatus).toBe('UPDATE_COMPLETE');
    const changed = (await direct.send(new DescribeStreamSummaryCommand({ StreamName: out.Name })))
      .StreamDescriptionSummary!;
    expect(changed).toMatchObject({ StreamARN: out.Arn, OpenShardCount: 2, RetentionPeriodHours: 24 });

    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
    await expect(direct.send(new DescribeStreamSummaryCommand({ StreamName: out.Name }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});

// Writes one Sink item per record: Kinesis data as is, a DynamoDB stream record as "<eventName>:<id>". A Kinesis
// record "fail" fails the whole batch.
const HANDLER = `
const { DynamoDBClient, PutItemCommand } = require('@aws-sdk/client-dynamodb');
const ddb = new DynamoDBClient({});
exports.handler = async (event) => {
  for (const r of event.Records) {
    const id = r.eventSource === 'aws:kinesis'
      ? Buffer.from(r.kinesis.data, 'base64').toString('utf8')
      : r.eventName + ':' + r.dynamodb.Keys.id.S;
    if (id === 'fail') throw new Error('told to fail');
    await ddb.send(new PutItemCommand({ TableName: process.env.SINK, Item: { id: { S: id }, source: { S: r.eventSource } } }));
  }
  return {};
};`;

const TABLE = (stream?: string) => ({
  Type: 'AWS::DynamoDB::Table',
  Properties: {
    KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
    BillingMode: 'PAY_PER_REQUEST',
    ...(stream ? { StreamSpecification: { StreamViewType: stream } } : {}),
  },
});

const STREAMS_APP = JSON.stringify({
  Resources: {
    Stream: STREAM(),
    Source: TABLE('NEW_AND_OLD_IMAGES'),
    Sink: TABLE(),
    Failures: { Type: 'AWS::SQS::Queue' },
    ...lambdaRoleAndFunction(HANDLER, { SINK: { Ref: 'Sink' } }),
    FromKinesis: {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: {
        EventSourceArn: { 'Fn::GetAtt': ['Stream', 'Arn'] },
        FunctionName: { Ref: 'Fn' },
        StartingPosition: 'LATEST',
        BatchSize: 10,
        MaximumRetryAttempts: 1,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': ['Failures', 'Arn'] } } },
      },
    },
    FromTable: {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: {
        EventSourceArn: { 'Fn::GetAtt': ['Source', 'StreamArn'] },
        FunctionName: { Ref: 'Fn' },
        StartingPosition: 'LATEST',
      },
    },
  },
  Outputs: {
    Stream: { Value: { Ref: 'Stream' } },
    Source: { Value: { Ref: 'Source' } },
    Sink: { Value: { Ref: 'Sink' } },
    Failures: { Value: { Ref: 'Failures' } },
  },
});

/** Polls `probe` until it returns something other than undefined (bounded). */
async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('event source mappings from streams in the backend', () => {
  let out: Record<string, string>;
  let stackId: string;
  const ddb = () => new DynamoDBClient(config(server.endpoint));
  const sinkIds = async (source: string) => {
    const { Items } = await ddb().send(new ScanCommand({ TableName: out.Sink }));
    return (Items ?? [])
      .filter((i) => i.source.S === source)
      .map((i) => i.id.S!)
      .sort();
  };
  beforeAll(async () => {
    const { id, stack } = await createStack(server, 'streams', STREAMS_APP, { Capabilities: ['CAPABILITY_IAM'] });
    stackId = id;
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    out = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey!, o.OutputValue!]));
  });

  it('a Kinesis mapping hands the records put after it was made to the function, in order', async () => {
    const kinesis = new KinesisClient(config(server.endpoint));
    for (const data of ['k1', 'k2', 'k3']) {
      await kinesis.send(new PutRecordCommand({ StreamName: out.Stream, PartitionKey: 'p', Data: Buffer.from(data) }));
    }
    const ids = await eventually(async () => {
      const found = await sinkIds('aws:kinesis');
      return found.length === 3 ? found : undefined;
    });
    expect(ids).toEqual(['k1', 'k2', 'k3']);
  });

  it('a failing batch is retried MaximumRetryAttempts times, then skipped and described on the OnFailure queue', async () => {
    const kinesis = new KinesisClient(config(server.endpoint));
    await kinesis.send(new PutRecordCommand({ StreamName: out.Stream, PartitionKey: 'p', Data: Buffer.from('fail') }));
    const sqs = new SQSClient(config(server.endpoint));
    const body = await eventually(async () => {
      const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: out.Failures, WaitTimeSeconds: 1 }));
      return Messages?.[0]?.Body;
    });
    expect(JSON.parse(body)).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 2 },
      KinesisBatchInfo: { shardId: expect.stringMatching(/^shardId-/), batchSize: 1 },
    });
    // the shard goes on past the skipped batch
    await kinesis.send(new PutRecordCommand({ StreamName: out.Stream, PartitionKey: 'p', Data: Buffer.from('k4') }));
    expect(await eventually(async () => ((await sinkIds('aws:kinesis')).includes('k4') ? true : undefined))).toBe(true);
  });

  it("a DynamoDB stream mapping hands the table's inserts, changes and removals to the function", async () => {
    const c = ddb();
    await c.send(new PutItemCommand({ TableName: out.Source, Item: { id: { S: 'a' }, v: { N: '1' } } }));
    await c.send(new PutItemCommand({ TableName: out.Source, Item: { id: { S: 'a' }, v: { N: '2' } } }));
    await c.send(new DeleteItemCommand({ TableName: out.Source, Key: { id: { S: 'a' } } }));
    const ids = await eventually(async () => {
      const found = await sinkIds('aws:dynamodb');
      return found.length === 3 ? found : undefined;
    });
    expect(ids).toEqual(['INSERT:a', 'MODIFY:a', 'REMOVE:a']);
  });

  it('deleting the stack stops the pollers and removes the stream and tables', async () => {
    expect((await deleteStack(server, stackId)).StackStatus).toBe('DELETE_COMPLETE');
    const direct = new KinesisClient(config(moto.url));
    await expect(direct.send(new DescribeStreamSummaryCommand({ StreamName: out.Stream }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
  });
});
