// The CDK dev loop with a backend: the real aws-cdk CLI (default synthesizer, AWS_ENDPOINT_URL only) deploys an app
// with a queue, a table, a topic with an SQS subscription, a role, a state machine and an SQS-fed function into moto
// through cfn-local; then boto3 and the JS SDK use those resources on cfn-local's one port, the function writes each
// message into the table, an update replaces the table, IAM's DeleteConflict refuses a delete, and `cdk destroy`
// leaves moto empty. Once with `--backend moto` (cfn-local runs moto), once with `--backend <url>` (a moto_server this
// file starts), the second with the deploy, the use and the destroy only (each CLI call costs seconds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import {
  DeleteStackCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { ListQueuesCommand, ReceiveMessageCommand, SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import {
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { ListTopicsCommand, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import {
  AttachRolePolicyCommand,
  CreatePolicyCommand,
  DeletePolicyCommand,
  DetachRolePolicyCommand,
  IAMClient,
  ListRolesCommand,
} from '@aws-sdk/client-iam';
import { ListStateMachinesCommand, SFNClient } from '@aws-sdk/client-sfn';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { startMoto, type TestMoto } from '../helpers/moto.js';
import { eventLines } from '../api/worldHelpers.js';
import { gate, run } from './clients.js';
import { anyBoto3 } from './s3Clients.js';
import { ACCOUNT, REGION, STEP_MS, cdkHarness, ok, type CdkHarness } from './cdkHarness.js';

const SCRIPT = fileURLToPath(new URL('./boto3_backend.py', import.meta.url));
const python = await anyBoto3();
const boto3 = gate('boto3', python);

const config = (endpoint: string) => ({
  endpoint,
  region: REGION,
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
});

/** What moto holds of the kinds the app makes (roles by name). */
async function inMoto(url: string) {
  const c = config(url);
  return {
    queues: (await new SQSClient(c).send(new ListQueuesCommand({}))).QueueUrls ?? [],
    tables: (await new DynamoDBClient(c).send(new ListTablesCommand({}))).TableNames ?? [],
    topics: (await new SNSClient(c).send(new ListTopicsCommand({}))).Topics ?? [],
    machines: (await new SFNClient(c).send(new ListStateMachinesCommand({}))).stateMachines ?? [],
    roles: ((await new IAMClient(c).send(new ListRolesCommand({}))).Roles ?? []).map((r) => r.RoleName!),
  };
}

/** Polls `probe` until it returns something other than undefined (bounded). */
async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.each([
  { backend: 'moto', full: true },
  { backend: '<url>', full: false },
])('the CDK dev loop with --backend $backend (aws-cdk CLI)', ({ backend, full }) => {
  let moto: TestMoto | undefined;
  let server: TestServer;
  let motoUrl: string;
  let h: CdkHarness;
  let out: Record<string, string>;
  const outputs = async () =>
    Object.fromEntries((await h.stack('E2eBackend')).Outputs!.map((o) => [o.OutputKey!, o.OutputValue!]));
  const via = () => ({
    sqs: new SQSClient(config(server.endpoint)),
    ddb: new DynamoDBClient(config(server.endpoint)),
    sns: new SNSClient(config(server.endpoint)),
  });
  const esmItems = async (key: string) => {
    const { Items } = await via().ddb.send(new ScanCommand({ TableName: out.TableName }));
    return (Items ?? [])
      .filter((i) => 'from' in i && i.from.S === 'esm')
      .map((i) => i[key].S!)
      .sort();
  };

  beforeAll(async () => {
    if (backend === 'moto') {
      server = await startServer({ backend: 'moto' });
      motoUrl = await server.app.backend!.url();
    } else {
      moto = await startMoto();
      motoUrl = moto.url;
      server = await startServer({ backend: moto.url });
    }
    h = cdkHarness({ app: 'cdk-backend-app', endpoint: server.endpoint, client: server.client });
    await Promise.all((full ? ['', 'replaced'] : ['']).map((v) => h.synth(v)));
  }, STEP_MS);
  afterAll(async () => {
    await server.close();
    await moto?.close();
  });

  it(
    'cdk bootstrap, then cdk deploy makes the queue, table, topic, role and state machine in moto',
    async () => {
      ok(await h.cdk('bootstrap', `aws://${ACCOUNT}/${REGION}`));
      ok(await h.cdk('deploy', '--app', h.assembly('')));
      expect((await h.stack('E2eBackend')).StackStatus).toBe('CREATE_COMPLETE');
      out = await outputs();
      const held = await inMoto(motoUrl);
      expect(held.tables).toContain(out.TableName);
      expect(held.roles).toContain(out.RoleName);
      expect(held.machines.map((m) => m.stateMachineArn)).toContain(out.MachineArn);
      expect(held.topics.map((t) => t.TopicArn)).toContain(out.TopicArn);
      expect(held.queues.map((q) => new URL(q).pathname)).toContain(new URL(out.QueueUrl).pathname);
    },
    2 * STEP_MS,
  );

  it('the JS SDK sends and receives, puts and gets, and a publish arrives in the subscribed queue', async () => {
    const c = via();
    await c.sqs.send(new SendMessageCommand({ QueueUrl: out.QueueUrl, MessageBody: 'from the JS SDK' }));
    const got = await c.sqs.send(new ReceiveMessageCommand({ QueueUrl: out.QueueUrl, WaitTimeSeconds: 2 }));
    expect(got.Messages?.map((m) => m.Body)).toEqual(['from the JS SDK']);
    await c.ddb.send(new PutItemCommand({ TableName: out.TableName, Item: { id: { S: 'js' }, n: { N: '1' } } }));
    const item = await c.ddb.send(new GetItemCommand({ TableName: out.TableName, Key: { id: { S: 'js' } } }));
    expect(item.Item).toEqual({ id: { S: 'js' }, n: { N: '1' } });
    await c.sns.send(new PublishCommand({ TopicArn: out.TopicArn, Message: 'published by the JS SDK' }));
    const delivered = await eventually(async () => {
      const { Messages } = await c.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: out.QueueUrl, WaitTimeSeconds: 1, VisibilityTimeout: 0 }),
      );
      const bodies = (Messages ?? []).map((m) => m.Body);
      return bodies.includes('published by the JS SDK') ? bodies : undefined;
    }, 20_000);
    expect(delivered).toContain('published by the JS SDK');
  });

  it.skipIf(boto3.skip)(`${boto3.title}: sends and receives, puts and gets, publishes to the queue`, async () => {
    // the JS SDK's messages are read back first, so boto3 sees only its own
    await via().sqs.send(new ReceiveMessageCommand({ QueueUrl: out.QueueUrl, MaxNumberOfMessages: 10 }));
    const result = await run(python.path!, [SCRIPT, server.endpoint, out.QueueUrl, out.TableName, 'id', out.TopicArn], {
      timeoutMs: 60_000,
    });
    if (result.code !== 0) throw new Error(`boto3_backend.py exited ${result.code}:\n${result.stderr}`);
    const seen = JSON.parse(result.stdout);
    expect(seen.received).toContain('from boto3');
    expect(seen.item).toEqual({ id: { S: 'boto3' }, n: { N: '7' } });
    expect(seen.delivered).toContain('published by boto3');
  });

  it('the function the SQS event source mapping feeds writes each message into the table', async () => {
    const sqs = via().sqs;
    for (const body of ['m1', 'm2', 'm3'])
      await sqs.send(new SendMessageCommand({ QueueUrl: out.IngestUrl, MessageBody: body }));
    const ids = await eventually(async () => {
      const found = await esmItems('id');
      return found.length === 3 ? found : undefined;
    });
    expect(ids).toEqual(['m1', 'm2', 'm3']);
  });

  if (full)
    it(
      'a deploy that renames the partition key replaces the table in moto, and the function writes to the new one',
      async () => {
        ok(await h.cdk('deploy', '--app', h.assembly('replaced')));
        expect((await h.stack('E2eBackend')).StackStatus).toBe('UPDATE_COMPLETE');
        const before = out.TableName;
        out = await outputs();
        expect(out.TableName).not.toBe(before);
        const { tables } = await inMoto(motoUrl);
        expect(tables).toContain(out.TableName);
        expect(tables).not.toContain(before);
        await via().sqs.send(new SendMessageCommand({ QueueUrl: out.IngestUrl, MessageBody: 'after' }));
        expect(await eventually(async () => ((await esmItems('pk')).includes('after') ? true : undefined))).toBe(true);
      },
      STEP_MS,
    );

  if (full)
    it(
      "a policy attached out of band makes IAM refuse the role's delete with DeleteConflict, as CloudFormation reports it",
      async () => {
        const iam = new IAMClient(config(server.endpoint));
        const { Policy } = await iam.send(
          new CreatePolicyCommand({
            PolicyName: 'attached-by-hand',
            PolicyDocument: JSON.stringify({
              Version: '2012-10-17',
              Statement: [{ Effect: 'Allow', Action: 'states:*', Resource: '*' }],
            }),
          }),
        );
        await iam.send(new AttachRolePolicyCommand({ RoleName: out.RoleName, PolicyArn: Policy!.Arn }));
        const { StackId } = (await server.client.send(new DescribeStacksCommand({ StackName: 'E2eBackend' })))
          .Stacks![0];
        await server.client.send(new DeleteStackCommand({ StackName: 'E2eBackend' }));
        expect((await waitForStack(server.client, StackId!, 60_000)).StackStatus).toBe('DELETE_FAILED');
        const { StackResources } = await server.client.send(new DescribeStackResourcesCommand({ StackName: StackId }));
        const role = StackResources!.find((r) => r.PhysicalResourceId === out.RoleName)!;
        expect(role.ResourceStatus).toBe('DELETE_FAILED');
        expect((await eventLines(server.client, StackId!, role.LogicalResourceId!)).at(-1)).toMatch(
          /^DELETE_FAILED Resource handler returned message: "Cannot delete entity, must detach all policies first\. \(Service: Iam, Status Code: 409, Request ID: [^)]*\)" \(RequestToken: [0-9a-f-]+, HandlerErrorCode: GeneralServiceException\)$/,
        );
        // the other resources are gone; detached, the role goes with the next delete (cdk destroy, below)
        expect((await inMoto(motoUrl)).tables).toEqual([]);
        await iam.send(new DetachRolePolicyCommand({ RoleName: out.RoleName, PolicyArn: Policy!.Arn }));
        await iam.send(new DeletePolicyCommand({ PolicyArn: Policy!.Arn }));
      },
      STEP_MS,
    );

  it(
    'cdk destroy removes the app from moto; with CDKToolkit deleted too, moto holds nothing',
    async () => {
      ok(await h.cdk('destroy', '--all', '--force', '--app', h.assembly(full ? 'replaced' : '')));
      const stacks = (await server.client.send(new DescribeStacksCommand({}))).Stacks!.map((s) => s.StackName);
      expect(stacks).toEqual(['CDKToolkit']);
      const { StackId } = (await server.client.send(new DescribeStacksCommand({ StackName: 'CDKToolkit' }))).Stacks![0];
      await server.client.send(new DeleteStackCommand({ StackName: 'CDKToolkit' }));
      expect((await waitForStack(server.client, StackId!, 60_000)).StackStatus).toBe('DELETE_COMPLETE');
      expect(await inMoto(motoUrl)).toEqual({ queues: [], tables: [], topics: [], machines: [], roles: [] });
    },
    STEP_MS,
  );
});
