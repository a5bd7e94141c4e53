// --backend <url>: the provisioned families (SQS, SNS, DynamoDB, IAM, Logs, Step Functions) made, changed and
// deleted in a moto_server this file starts, and the one endpoint that forwards their data planes to it. A state
// machine the stack made in moto still runs its executions in cfn-local, whose Lambda runtime its tasks need.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateStackCommand, DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import {
  ReceiveMessageCommand,
  SQSClient,
  SendMessageCommand,
  GetQueueAttributesCommand,
  DeleteQueueCommand,
} from '@aws-sdk/client-sqs';
import {
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  DescribeTableCommand,
  ListTablesCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import {
  AttachRolePolicyCommand,
  CreatePolicyCommand,
  DetachRolePolicyCommand,
  GetRoleCommand,
  IAMClient,
  ListRolePoliciesCommand,
} from '@aws-sdk/client-iam';
import { CloudWatchLogsClient, DescribeLogGroupsCommand } from '@aws-sdk/client-cloudwatch-logs';
import {
  CreateStateMachineCommand,
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { lambdaRoleAndFunction, clientConfig, startMoto, type TestMoto } from '../helpers/moto.js';
import { control, createStack, deleteStack, eventLines } from './worldHelpers.js';

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

/** Clients of cfn-local's one endpoint, and of moto itself (to look behind cfn-local's back). */
const via = () => ({
  sqs: new SQSClient(clientConfig(server.endpoint)),
  ddb: new DynamoDBClient(clientConfig(server.endpoint)),
  sns: new SNSClient(clientConfig(server.endpoint)),
  iam: new IAMClient(clientConfig(server.endpoint)),
  sfn: new SFNClient(clientConfig(server.endpoint)),
});
const direct = () => ({
  sqs: new SQSClient(clientConfig(moto.url)),
  ddb: new DynamoDBClient(clientConfig(moto.url)),
  iam: new IAMClient(clientConfig(moto.url)),
  logs: new CloudWatchLogsClient(clientConfig(moto.url)),
  sfn: new SFNClient(clientConfig(moto.url)),
});

const TRUST = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'states.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};
const TABLE = (key = 'id') => ({
  Type: 'AWS::DynamoDB::Table',
  Properties: {
    KeySchema: [{ AttributeName: key, KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: key, AttributeType: 'S' }],
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
  },
});
const APP = (key = 'id') =>
  JSON.stringify({
    Resources: {
      Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 45 } },
      Topic: { Type: 'AWS::SNS::Topic' },
      Sub: {
        Type: 'AWS::SNS::Subscription',
        Properties: {
          TopicArn: { Ref: 'Topic' },
          Protocol: 'sqs',
          Endpoint: { 'Fn::GetAtt': ['Queue', 'Arn'] },
          RawMessageDelivery: true,
        },
      },
      Table: TABLE(key),
      Role: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: TRUST } },
      Policy: {
        Type: 'AWS::IAM::Policy',
        Properties: {
          PolicyName: 'app',
          Roles: [{ Ref: 'Role' }],
          PolicyDocument: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'sqs:*', Resource: '*' }] },
        },
      },
      Logs: { Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 7 } },
      Machine: {
        Type: 'AWS::StepFunctions::StateMachine',
        Properties: {
          RoleArn: { 'Fn::GetAtt': ['Role', 'Arn'] },
          DefinitionString: '{"StartAt":"A","States":{"A":{"Type":"Pass","End":true}}}',
        },
      },
    },
    Outputs: {
      QueueUrl: { Value: { Ref: 'Queue' } },
      QueueArn: { Value: { 'Fn::GetAtt': ['Queue', 'Arn'] } },
      TopicArn: { Value: { Ref: 'Topic' } },
      Table: { Value: { Ref: 'Table' } },
      StreamArn: { Value: { 'Fn::GetAtt': ['Table', 'StreamArn'] } },
      Role: { Value: { Ref: 'Role' } },
      RoleArn: { Value: { 'Fn::GetAtt': ['Role', 'Arn'] } },
      Logs: { Value: { Ref: 'Logs' } },
      Machine: { Value: { Ref: 'Machine' } },
    },
  });

async function deploy(name: string, body = APP()) {
  const { id, stack } = await createStack(server, name, body, { Capabilities: ['CAPABILITY_IAM'] });
  expect(stack.StackStatus).toBe('CREATE_COMPLETE');
  const out = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey!, o.OutputValue!]));
  return { id, out };
}

describe('provisioning into the backend', () => {
  it('creates each family in moto, with physical ids and GetAtt values from its answers', async () => {
    const { out } = await deploy('made');
    const m = direct();
    // the queue URL is on cfn-local's endpoint; its ARN is the one moto reports
    expect(out.QueueUrl.startsWith(`${server.endpoint}/000000000000/made-Queue-`)).toBe(true);
    const attrs = await m.sqs.send(new GetQueueAttributesCommand({ QueueUrl: out.QueueUrl, AttributeNames: ['All'] }));
    expect(attrs.Attributes).toMatchObject({ QueueArn: out.QueueArn, VisibilityTimeout: '45' });
    const { Table } = await m.ddb.send(new DescribeTableCommand({ TableName: out.Table }));
    expect(Table!.LatestStreamArn).toBe(out.StreamArn);
    const { Role } = await m.iam.send(new GetRoleCommand({ RoleName: out.Role }));
    expect(Role!.Arn).toBe(out.RoleArn);
    expect((await m.iam.send(new ListRolePoliciesCommand({ RoleName: out.Role }))).PolicyNames).toEqual(['app']);
    const { logGroups } = await m.logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: out.Logs }));
    expect(logGroups![0].retentionInDays).toBe(7);
    expect((await m.sfn.send(new DescribeStateMachineCommand({ stateMachineArn: out.Machine }))).roleArn).toBe(
      out.RoleArn,
    );
  });

  it('the control API says each resource lives in the backend', async () => {
    const { body } = await control(server, 'GET', '/world?stackName=made');
    const lives = Object.fromEntries(
      body.resources.map((r: { logicalId: string; lives: string }) => [r.logicalId, r.lives]),
    );
    expect(lives).toMatchObject({ Queue: 'backend', Table: 'backend', Role: 'backend', Machine: 'backend' });
  });

  it('an update whose change needs a new table replaces it in moto and deletes the old one', async () => {
    const { id, out } = await deploy('replace');
    await server.client.send(
      new UpdateStackCommand({ StackName: id, TemplateBody: APP('pk'), Capabilities: ['CAPABILITY_IAM'] }),
    );
    const stack = await waitForStack(server.client, id, 30_000);
    expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
    const table = stack.Outputs!.find((o) => o.OutputKey === 'Table')!.OutputValue!;
    expect(table).not.toBe(out.Table);
    const { TableNames } = await direct().ddb.send(new ListTablesCommand({}));
    expect(TableNames).toContain(table);
    expect(TableNames).not.toContain(out.Table);
  });

  it("a delete IAM refuses with DeleteConflict fails with CloudFormation's text; detached, it goes", async () => {
    const { id, out } = await deploy('conflict');
    const m = direct();
    const { Policy } = await m.iam.send(
      new CreatePolicyCommand({
        PolicyName: 'outside',
        PolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: 's3:*', Resource: '*' }],
        }),
      }),
    );
    await m.iam.send(new AttachRolePolicyCommand({ RoleName: out.Role, PolicyArn: Policy!.Arn }));
    const failed = await deleteStack(server, id);
    expect(failed.StackStatus).toBe('DELETE_FAILED');
    const lines = await eventLines(server.client, id, 'Role');
    expect(lines.at(-1)).toMatch(
      /^DELETE_FAILED Resource handler returned message: "Cannot delete entity, must detach all policies first\. \(Service: Iam, Status Code: 409, Request ID: [^)]*\)" \(RequestToken: [0-9a-f-]+, HandlerErrorCode: GeneralServiceException\)$/,
    );
    await m.iam.send(new DetachRolePolicyCommand({ RoleName: out.Role, PolicyArn: Policy!.Arn }));
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
    await expect(m.iam.send(new GetRoleCommand({ RoleName: out.Role }))).rejects.toMatchObject({
      name: 'NoSuchEntityException',
    });
  });

  it('a resource deleted out of band counts as deleted', async () => {
    const { id, out } = await deploy('gone');
    await direct().sqs.send(new DeleteQueueCommand({ QueueUrl: out.QueueUrl }));
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
  });

  it('an injected fault fails the create in front of the backend: nothing is made there', async () => {
    const body = JSON.stringify({
      Resources: {
        Table: {
          ...TABLE(),
          Properties: { ...TABLE().Properties, TableName: 'never-made' },
          Metadata: { 'cfn-local': { Fail: ['Create'], Message: 'Simulated outage' } },
        },
      },
    });
    const { stack } = await createStack(server, 'faulted', body);
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect((await direct().ddb.send(new ListTablesCommand({}))).TableNames).not.toContain('never-made');
  });
});

describe("the one endpoint: the backend's data planes on cfn-local's port", () => {
  it('sends and receives SQS messages, puts and gets items, and a publish arrives in the subscribed queue', async () => {
    const { out } = await deploy('use');
    const c = via();
    await c.sqs.send(new SendMessageCommand({ QueueUrl: out.QueueUrl, MessageBody: 'hello' }));
    const first = await c.sqs.send(new ReceiveMessageCommand({ QueueUrl: out.QueueUrl, WaitTimeSeconds: 1 }));
    expect(first.Messages?.map((m) => m.Body)).toEqual(['hello']);
    await c.ddb.send(new PutItemCommand({ TableName: out.Table, Item: { id: { S: 'a' }, n: { N: '1' } } }));
    const got = await c.ddb.send(new GetItemCommand({ TableName: out.Table, Key: { id: { S: 'a' } } }));
    expect(got.Item).toEqual({ id: { S: 'a' }, n: { N: '1' } });
    await c.sns.send(new PublishCommand({ TopicArn: out.TopicArn, Message: 'published' }));
    const delivered = await c.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: out.QueueUrl, WaitTimeSeconds: 2, VisibilityTimeout: 0 }),
    );
    expect(delivered.Messages?.map((m) => m.Body)).toContain('published');
  });

  it("answers the backend's errors unchanged, in the service's own protocol", async () => {
    const err = await via()
      .sqs.send(new GetQueueAttributesCommand({ QueueUrl: `${server.endpoint}/000000000000/nope` }))
      .catch((e: Error) => e);
    expect(err).toMatchObject({ name: 'QueueDoesNotExist' });
  });

  it('the stack resources are listed with the physical ids moto gave', async () => {
    const { StackResources } = await server.client.send(new DescribeStackResourcesCommand({ StackName: 'use' }));
    expect(StackResources!.find((r) => r.LogicalResourceId === 'Machine')!.PhysicalResourceId).toMatch(
      /^arn:aws:states:us-east-1:000000000000:stateMachine:use-Machine-/,
    );
  });
});

describe("the console's counts of what the backend holds", () => {
  it("reads a queue's approximate message counts and a table's item count from moto; a gone queue is a 404", async () => {
    const { id, out } = await deploy('counted');
    const c = via();
    await c.sqs.send(new SendMessageCommand({ QueueUrl: out.QueueUrl, MessageBody: 'hello' }));
    for (const key of ['a', 'b'])
      await c.ddb.send(new PutItemCommand({ TableName: out.Table, Item: { id: { S: key } } }));
    const counts = (type: string, physicalId: string) =>
      control(
        server,
        'GET',
        `/backend-counts?account=000000000000&region=us-east-1&type=${type}&id=${encodeURIComponent(physicalId)}`,
      );
    expect(await counts('AWS::SQS::Queue', out.QueueUrl)).toEqual({
      status: 200,
      body: {
        counts: {
          ApproximateNumberOfMessages: 1,
          ApproximateNumberOfMessagesNotVisible: 0,
          ApproximateNumberOfMessagesDelayed: 0,
        },
      },
    });
    expect((await counts('AWS::DynamoDB::Table', out.Table)).body).toEqual({ counts: { ItemCount: 2 } });
    await direct().sqs.send(new DeleteQueueCommand({ QueueUrl: out.QueueUrl }));
    expect(await counts('AWS::SQS::Queue', out.QueueUrl)).toEqual({
      status: 404,
      body: { error: 'NotFound', message: `the backend no longer holds AWS::SQS::Queue ${out.QueueUrl}` },
    });
    await deleteStack(server, id);
  });
});

describe('when the backend lost its state', () => {
  it('every backend resource is missing, and a delete succeeds as it does on AWS for absent resources', async () => {
    const { id } = await deploy('lost');
    await fetch(`${moto.url}/moto-api/reset`, { method: 'POST' });
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
  });
});

const HANDLER = `
const { DynamoDBClient, PutItemCommand } = require('@aws-sdk/client-dynamodb');
const ddb = new DynamoDBClient({});
exports.handler = async (event) => {
  for (const r of event.Records) {
    if (r.body === 'fail') throw new Error('told to fail');
    await ddb.send(new PutItemCommand({ TableName: process.env.TABLE, Item: { id: { S: r.body } } }));
  }
  return {};
};`;

const ESM_APP = JSON.stringify({
  Resources: {
    Dlq: { Type: 'AWS::SQS::Queue' },
    Queue: {
      Type: 'AWS::SQS::Queue',
      Properties: {
        VisibilityTimeout: 1,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': ['Dlq', 'Arn'] }, maxReceiveCount: 1 },
      },
    },
    Table: TABLE(),
    ...lambdaRoleAndFunction(HANDLER, { TABLE: { Ref: 'Table' } }),
    Mapping: {
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: { EventSourceArn: { 'Fn::GetAtt': ['Queue', 'Arn'] }, FunctionName: { Ref: 'Fn' }, BatchSize: 2 },
    },
  },
  Outputs: {
    QueueUrl: { Value: { Ref: 'Queue' } },
    DlqUrl: { Value: { Ref: 'Dlq' } },
    Table: { Value: { Ref: 'Table' } },
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

describe('an SQS event source mapping in the backend', () => {
  it('invokes the local function with batches, deletes what it handled, and redrives what failed', async () => {
    const { out } = await deploy('esm', ESM_APP);
    const c = via();
    for (const body of ['one', 'two', 'three']) {
      await c.sqs.send(new SendMessageCommand({ QueueUrl: out.QueueUrl, MessageBody: body }));
    }
    const ids = await eventually(async () => {
      const { Items } = await c.ddb.send(new ScanCommand({ TableName: out.Table }));
      const found = (Items ?? []).map((i) => i.id.S).sort();
      return found.length === 3 ? found : undefined;
    });
    expect(ids).toEqual(['one', 'three', 'two']);
    await c.sqs.send(new SendMessageCommand({ QueueUrl: out.QueueUrl, MessageBody: 'fail' }));
    const dead = await eventually(async () => {
      const { Messages } = await c.sqs.send(new ReceiveMessageCommand({ QueueUrl: out.DlqUrl, WaitTimeSeconds: 1 }));
      return Messages?.length ? Messages.map((m) => m.Body) : undefined;
    });
    expect(dead).toEqual(['fail']);
    const { Attributes } = await c.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: out.QueueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    expect(Attributes).toMatchObject({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
  }, 60_000);
});

const FLOW_APP = JSON.stringify({
  Resources: {
    Role: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: TRUST } },
    Fn: {
      Type: 'AWS::Lambda::Function',
      Properties: {
        Runtime: 'nodejs20.x',
        Handler: 'index.handler',
        Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
        Code: { ZipFile: 'exports.handler = async (e) => ({ greeting: "hello " + e.who });' },
      },
    },
    Machine: {
      Type: 'AWS::StepFunctions::StateMachine',
      Properties: {
        RoleArn: { 'Fn::GetAtt': ['Role', 'Arn'] },
        DefinitionString: {
          'Fn::Sub': '{"StartAt":"Greet","States":{"Greet":{"Type":"Task","Resource":"${Fn.Arn}","End":true}}}',
        },
      },
    },
  },
  Outputs: { Machine: { Value: { Ref: 'Machine' } }, RoleArn: { Value: { 'Fn::GetAtt': ['Role', 'Arn'] } } },
});

describe('Step Functions with a backend', () => {
  it("runs the execution of a state machine made in moto here, its task in cfn-local's Lambda runtime", async () => {
    const { out } = await deploy('flow', FLOW_APP);
    const c = via();
    // the machine lives in moto (DescribeStateMachine is forwarded there)
    expect((await c.sfn.send(new DescribeStateMachineCommand({ stateMachineArn: out.Machine }))).name).toBe(
      out.Machine.split(':').at(-1),
    );
    const { executionArn } = await c.sfn.send(
      new StartExecutionCommand({ stateMachineArn: out.Machine, input: '{"who":"moto"}' }),
    );
    const done = await eventually(async () => {
      const d = await c.sfn.send(new DescribeExecutionCommand({ executionArn }));
      return d.status === 'RUNNING' ? undefined : d;
    });
    expect(done.status).toBe('SUCCEEDED');
    expect(JSON.parse(done.output!)).toEqual({ greeting: 'hello moto' });
  });

  it('a state machine made outside any stack is made in moto, through the one endpoint', async () => {
    const { out } = await deploy('flow-out', FLOW_APP);
    const made = await via().sfn.send(
      new CreateStateMachineCommand({
        name: 'outside',
        roleArn: out.RoleArn,
        definition: '{"StartAt":"A","States":{"A":{"Type":"Pass","End":true}}}',
      }),
    );
    expect(
      (await direct().sfn.send(new DescribeStateMachineCommand({ stateMachineArn: made.stateMachineArn }))).name,
    ).toBe('outside');
  });
});
