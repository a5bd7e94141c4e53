// A restart of cfn-local on a file database, against a backend that keeps its state (a moto_server this file starts
// and leaves running, as moto in a container or MiniStack would be): the stacks are still there, their resources still
// work on the new process's port, an event source mapping is polled again, and an update and a delete still reach
// the backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeStacksCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { GetQueueAttributesCommand, SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDBClient, GetItemCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { lambdaRoleAndFunction, clientConfig, startMoto, type TestMoto } from '../helpers/moto.js';
import { createStack, deleteStack } from './worldHelpers.js';

let moto: TestMoto;
let dir: string;
beforeAll(async () => {
  moto = await startMoto();
  dir = mkdtempSync(join(tmpdir(), 'cfn-local-backend-restart-'));
});
afterAll(async () => {
  await moto.close();
  rmSync(dir, { recursive: true, force: true });
});

const HANDLER = `
const { DynamoDBClient, PutItemCommand } = require('@aws-sdk/client-dynamodb');
const ddb = new DynamoDBClient({});
exports.handler = async (event) => {
  for (const r of event.Records)
    await ddb.send(new PutItemCommand({ TableName: process.env.TABLE, Item: { id: { S: r.body } } }));
};`;

const APP = (visibility: number) =>
  JSON.stringify({
    Resources: {
      Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: visibility } },
      Table: {
        Type: 'AWS::DynamoDB::Table',
        Properties: {
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
          BillingMode: 'PAY_PER_REQUEST',
        },
      },
      ...lambdaRoleAndFunction(HANDLER, { TABLE: { Ref: 'Table' } }),
      Mapping: {
        Type: 'AWS::Lambda::EventSourceMapping',
        Properties: { EventSourceArn: { 'Fn::GetAtt': ['Queue', 'Arn'] }, FunctionName: { Ref: 'Fn' } },
      },
    },
    Outputs: { QueueUrl: { Value: { Ref: 'Queue' } }, Table: { Value: { Ref: 'Table' } } },
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

describe('cfn-local restarted against a backend that kept its state', () => {
  it('keeps its stacks, and their resources, mapping, updates and deletes still work', async () => {
    const db = join(dir, 'cfn.db');
    const first: TestServer = await startServer({ db, backend: moto.url });
    const { id, stack } = await createStack(first, 'kept', APP(30), { Capabilities: ['CAPABILITY_IAM'] });
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const out = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey!, o.OutputValue!]));
    await first.close();

    const second = await startServer({ db, backend: moto.url });
    try {
      const { Stacks } = await second.client.send(new DescribeStacksCommand({ StackName: 'kept' }));
      expect(Stacks![0]).toMatchObject({ StackId: id, StackStatus: 'CREATE_COMPLETE' });
      // the queue is found by its URL's path on the new process's port
      const queueUrl = `${second.endpoint}${new URL(out.QueueUrl).pathname}`;
      const sqs = new SQSClient(clientConfig(second.endpoint));
      const ddb = new DynamoDBClient(clientConfig(second.endpoint));
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'after the restart' }));
      const item = await eventually(async () => {
        const got = await ddb.send(
          new GetItemCommand({ TableName: out.Table, Key: { id: { S: 'after the restart' } } }),
        );
        return got.Item;
      });
      expect(item).toEqual({ id: { S: 'after the restart' } });

      await second.client.send(
        new UpdateStackCommand({ StackName: id, TemplateBody: APP(60), Capabilities: ['CAPABILITY_IAM'] }),
      );
      expect((await waitForStack(second.client, id, 30_000)).StackStatus).toBe('UPDATE_COMPLETE');
      const direct = new SQSClient(clientConfig(moto.url));
      const { Attributes } = await direct.send(
        new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['VisibilityTimeout'] }),
      );
      expect(Attributes!.VisibilityTimeout).toBe('60');

      expect((await deleteStack(second, id)).StackStatus).toBe('DELETE_COMPLETE');
      const { TableNames } = await new DynamoDBClient(clientConfig(moto.url)).send(new ListTablesCommand({}));
      expect(TableNames).not.toContain(out.Table);
    } finally {
      await second.close();
    }
    // Two starts on a database file and a function run: slow on a loaded machine, never asserted as a time.
  }, 120_000);
});
