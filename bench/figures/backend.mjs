// Backend figures (--backend): a stack of provisioned types deployed by cfn-local into moto beside the same template
// deployed by moto's own CloudFormation (its CreateStack) on the same moto, and SQS SendMessage / DynamoDB PutItem
// through cfn-local's endpoint (the proxy) beside the same calls sent to moto directly. See bench/README.md.
import { CloudFormationClient, DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Agent } from 'node:http';
import { MotoBackend } from '../../dist/server/backend/moto.js';
import { startServer, scratch } from '../lib/server.mjs';
import { createStack, deleteStack } from '../lib/deploy.mjs';
import { figure, median, single } from '../lib/stats.mjs';

/** The provisioned types cycled through the stack; moto's CloudFormation makes each of them too. */
const KINDS = [
  ['Queue', 'AWS::SQS::Queue', {}],
  ['Topic', 'AWS::SNS::Topic', {}],
  [
    'Table',
    'AWS::DynamoDB::Table',
    {
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
    },
  ],
  [
    'Role',
    'AWS::IAM::Role',
    {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
      },
    },
  ],
  ['Logs', 'AWS::Logs::LogGroup', { RetentionInDays: 7 }],
];

/** `resources` resources of the provisioned types, with generated names (two stacks of it never collide). */
export function backendTemplate(resources) {
  const out = {};
  for (let i = 0; i < resources; i++) {
    const [name, type, properties] = KINDS[i % KINDS.length];
    out[`${name}${i}`] = { Type: type, Properties: properties };
  }
  return JSON.stringify({ Resources: out });
}

const credentials = { accessKeyId: 'bench', secretAccessKey: 'bench' };

/** Keep-alive sockets, as an SDK user's: the figure is the request's cost, not a TCP handshake's. */
const keepAlive = () => ({ requestHandler: new NodeHttpHandler({ httpAgent: new Agent({ keepAlive: true }) }) });

const sdkConfig = (endpoint) => ({ endpoint, region: 'us-east-1', maxAttempts: 1, credentials, ...keepAlive() });

const timed = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

/** Calls `send(target)` on both targets in turn, so the machine's load drifts over both alike. */
async function alternating(calls, warmup, targets) {
  const samples = targets.map(() => []);
  for (let i = 0; i < warmup + calls; i++) {
    for (const [k, send] of targets.entries()) {
      const ms = await timed(send);
      if (i >= warmup) samples[k].push(ms);
    }
  }
  return samples;
}

const quiet = { info() {}, warn() {} };

export async function backendFigures({ resources = 50, runs = 3, calls = 300, warmup = 30 } = {}) {
  const moto = new MotoBackend({ account: '000000000000', log: quiet });
  await moto.start();
  const motoUrl = await moto.url();
  const dir = scratch();
  // a start beside moto's on a loaded machine takes longer than the other groups' 15 s allow
  const server = await startServer({
    db: dir.file('backend.db'),
    extraArgs: ['--backend', motoUrl],
    timeoutMs: 60_000,
  });
  const motoCf = new CloudFormationClient(sdkConfig(motoUrl));
  const body = backendTemplate(resources);
  const figures = [];
  try {
    const ours = { create: [], delete: [] };
    const theirs = { create: [], delete: [] };
    for (let i = 0; i < runs; i++) {
      const made = await createStack(server.client, `ours-${i}`, body);
      ours.create.push(made.ms);
      ours.delete.push((await deleteStack(server.client, made.stackId)).ms);
      const mine = await createStack(motoCf, `moto-${i}`, body);
      theirs.create.push(mine.ms);
      theirs.delete.push((await deleteStack(motoCf, mine.stackId)).ms);
    }
    const note = `${resources} resources: SQS queues, SNS topics, DynamoDB tables, IAM roles, log groups`;
    figures.push(
      figure(`backend: create ${resources} provisioned resources, cfn-local --backend moto`, ours.create, 'ms', {
        note,
      }),
      figure(`backend: create ${resources} provisioned resources, moto's own CreateStack`, theirs.create, 'ms'),
      single('backend: create, cfn-local / moto', median(ours.create) / median(theirs.create), '×'),
      figure(`backend: delete ${resources} provisioned resources, cfn-local --backend moto`, ours.delete, 'ms'),
      figure(`backend: delete ${resources} provisioned resources, moto's own DeleteStack`, theirs.delete, 'ms'),
    );

    // one queue and one table, made by a stack through cfn-local, then called both ways
    const { stackId } = await createStack(server.client, 'calls', backendTemplate(3));
    const { StackResources } = await server.client.send(new DescribeStackResourcesCommand({ StackName: stackId }));
    const id = (type) => StackResources.find((r) => r.ResourceType === type).PhysicalResourceId;
    const queueUrl = id('AWS::SQS::Queue');
    const table = id('AWS::DynamoDB::Table');
    const motoQueueUrl = `${motoUrl}/${queueUrl.split('/').slice(-2).join('/')}`;
    const clients = [];
    const make = (Client, endpoint) => {
      const c = new Client(sdkConfig(endpoint));
      clients.push(c);
      return c;
    };
    const [sqsProxy, sqsDirect] = [make(SQSClient, server.endpoint), make(SQSClient, motoUrl)];
    const [ddbProxy, ddbDirect] = [make(DynamoDBClient, server.endpoint), make(DynamoDBClient, motoUrl)];
    let n = 0;
    const send = (c, url) => () => c.send(new SendMessageCommand({ QueueUrl: url, MessageBody: `m${n++}` }));
    const put = (c) => () =>
      c.send(new PutItemCommand({ TableName: table, Item: { id: { S: `k${n++}` }, v: { N: String(n) } } }));
    const [sqsVia, sqsTo] = await alternating(calls, warmup, [send(sqsProxy, queueUrl), send(sqsDirect, motoQueueUrl)]);
    const [ddbVia, ddbTo] = await alternating(calls, warmup, [put(ddbProxy), put(ddbDirect)]);
    const cost = (via, to) => ({ note: `proxy cost ${(median(via) - median(to)).toFixed(2)} ms at the median` });
    figures.push(
      figure("backend: SQS SendMessage through cfn-local's endpoint", sqsVia, 'ms', cost(sqsVia, sqsTo)),
      figure('backend: SQS SendMessage to moto directly', sqsTo, 'ms'),
      figure("backend: DynamoDB PutItem through cfn-local's endpoint", ddbVia, 'ms', cost(ddbVia, ddbTo)),
      figure('backend: DynamoDB PutItem to moto directly', ddbTo, 'ms'),
    );
    for (const c of clients) c.destroy();
  } finally {
    motoCf.destroy();
    await server.stop();
    await moto.close();
    dir.remove();
  }
  return figures;
}
