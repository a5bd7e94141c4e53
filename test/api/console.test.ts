// The web console's server side: the page and the redirect from `/`, the JSON reads under /_cfn-local/, the live
// feed of stack rows and events, and the control token over all of it (the page itself holds no data).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, type IncomingMessage } from 'node:http';
import {
  CloudFormationClient,
  CreateChangeSetCommand,
  CreateStackCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { createStack, worldRow } from './worldHelpers.js';

let server: TestServer;
let guarded: TestServer;
beforeAll(async () => {
  server = await startServer();
  guarded = await startServer({ controlToken: 'console-secret' });
});
// Now and then a socket opened in this process, on which nothing is ever sent, holds Node's server.close() until
// its 30 s headers check; nothing is in flight at the end of the file, so every connection is closed first.
afterAll(() =>
  Promise.all(
    [server, guarded].map((s) => {
      s.app.fastify.server.closeAllConnections();
      return s.close();
    }),
  ),
);

const TEMPLATE = `
Resources:
  Data:
    Type: AWS::S3::Bucket
  Config:
    Type: AWS::SSM::Parameter
    DependsOn: Data
    Properties:
      Type: String
      Value: !Sub '\${Data.Arn}/\${Data}'
Outputs:
  Name:
    Value: !Ref Data
`;

const json = async (path: string, init?: RequestInit) => {
  const res = await fetch(`${server.endpoint}/_cfn-local${path}`, init);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe('the console page', () => {
  it('sends a browser opening / to the console with a 302', async () => {
    const res = await fetch(`${server.endpoint}/`, { headers: { accept: 'text/html,*/*' }, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/_cfn-local/console/');
  });

  it('leaves SDK and CLI requests to / alone: no Accept text/html gets the AWS error', async () => {
    const res = await fetch(`${server.endpoint}/`, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('MissingAction');
    const { Stacks } = await server.client.send(new DescribeStacksCommand({}));
    expect(Stacks).toBeDefined();
  });

  it('serves the built page and its script; any other file is a 404', async () => {
    const page = await fetch(`${server.endpoint}/_cfn-local/console/`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('/_cfn-local/console/app.js');
    const script = await fetch(`${server.endpoint}/_cfn-local/console/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`${server.endpoint}/_cfn-local/console/../package.json`)).status).toBe(404);
    expect((await fetch(`${server.endpoint}/_cfn-local/console/manifest.json`)).status).toBe(404);
  });
});

describe('the console API', () => {
  it('lists the stacks of every account and region, and reads one whole', async () => {
    const { id } = await createStack(server, 'console-read', TEMPLATE, { Tags: [{ Key: 'team', Value: 'web' }] });
    // an access key id of 12 digits is the account (README: Configuration)
    const elsewhere = new CloudFormationClient({
      endpoint: server.endpoint,
      region: 'eu-west-1',
      credentials: { accessKeyId: '111111111111', secretAccessKey: 'test' },
    });
    await elsewhere.send(new CreateStackCommand({ StackName: 'console-read', TemplateBody: TEMPLATE }));
    elsewhere.destroy();
    const { body } = await json('/stacks');
    const row = body.stacks.find((s: any) => s.StackId === id);
    expect(row).toMatchObject({ StackName: 'console-read', Account: '000000000000', Region: 'us-east-1' });
    expect(row.StackStatus).toBe('CREATE_COMPLETE');
    expect(body.stacks.find((s: any) => s.Account === '111111111111')).toMatchObject({
      StackName: 'console-read',
      Region: 'eu-west-1',
    });
    const detail = await json(`/stack?id=${encodeURIComponent(id)}`);
    expect(detail.body.Stack.Tags).toEqual([{ Key: 'team', Value: 'web' }]);
    expect(detail.body.Resources.map((r: any) => r.LogicalResourceId).sort()).toEqual(['Config', 'Data']);
    expect(detail.body.TemplateOriginal).toBe(TEMPLATE);
    expect(detail.body.Stack.Outputs[0].OutputKey).toBe('Name');
  });

  it('draws the dependency graph with each edge kind and the resources statuses', async () => {
    const { id } = await createStack(server, 'console-graph', TEMPLATE);
    const { body } = await json(`/stack/graph?id=${encodeURIComponent(id)}`);
    expect(body.nodes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'Data', type: 'AWS::S3::Bucket', status: 'CREATE_COMPLETE' }),
        expect.objectContaining({ id: 'Config', type: 'AWS::SSM::Parameter', status: 'CREATE_COMPLETE' }),
      ]),
    );
    expect(body.edges).toEqual([
      { from: 'Config', to: 'Data', kind: 'DependsOn' },
      { from: 'Config', to: 'Data', kind: 'Sub' },
    ]);
  });

  it('reads all of a stack’s events and a change set with its data-loss report', async () => {
    const { id } = await createStack(server, 'console-cs', TEMPLATE);
    const events = await json(`/stack/events?id=${encodeURIComponent(id)}`);
    expect(events.body.events[0]).toMatchObject({ LogicalResourceId: 'console-cs', ResourceStatus: 'CREATE_COMPLETE' });
    // what the console never shows is left out: the resource's properties and the request token
    const config = events.body.events.find((e: any) => e.LogicalResourceId === 'Config');
    expect(Object.keys(config)).not.toContain('ResourceProperties');
    expect(Object.keys(config)).not.toContain('ClientRequestToken');
    // the newest few, as the console reads them first
    const newest = await json(`/stack/events?id=${encodeURIComponent(id)}&limit=2`);
    expect(newest.body.events).toEqual(events.body.events.slice(0, 2));
    for (const limit of ['0', '10001', 'many', '1.5']) {
      const refused = await json(`/stack/events?id=${encodeURIComponent(id)}&limit=${limit}`);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('limit must be a whole number from 1 to 10000');
    }
    const { Id } = await server.client.send(
      new CreateChangeSetCommand({
        StackName: id,
        ChangeSetName: 'rename',
        TemplateBody: TEMPLATE.replace(
          'Type: AWS::S3::Bucket',
          'Type: AWS::S3::Bucket\n    Properties: { BucketName: renamed-bucket-x }',
        ),
      }),
    );
    for (let i = 0; i < 200; i++) {
      const cs = await json(`/change-set?id=${encodeURIComponent(Id!)}`);
      if (cs.body.Status === 'CREATE_COMPLETE') {
        const data = cs.body.Changes.find((c: any) => c.ResourceChange.LogicalResourceId === 'Data');
        expect(data.ResourceChange).toMatchObject({ Action: 'Modify', Replacement: 'True' });
        expect(cs.body.Impact.dataLoss[0]).toMatchObject({ logicalResourceId: 'Data', action: 'Replace' });
        return;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the change set never reached CREATE_COMPLETE');
  });

  it("starts a drift detection and shows each resource's result with its differences", async () => {
    const { id } = await createStack(server, 'console-drift', TEMPLATE);
    const before = await json(`/stack?id=${encodeURIComponent(id)}`);
    expect(before.body.Stack.DriftInformation).toEqual({ StackDriftStatus: 'NOT_CHECKED' });
    const config = before.body.Resources.find((r: any) => r.LogicalResourceId === 'Config').PhysicalResourceId;
    await fetch(`${server.endpoint}/_cfn-local/world/${encodeURIComponent(config)}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { Value: 'changed' } }),
    });
    const started = await json(`/stack/drift?id=${encodeURIComponent(id)}`, { method: 'POST' });
    expect(started.body.StackDriftDetectionId).toEqual(expect.any(String));
    for (;;) {
      const { body } = await json(`/stack?id=${encodeURIComponent(id)}`);
      if (body.Drift.Detection.DetectionStatus !== 'DETECTION_IN_PROGRESS') {
        expect(body.Stack.DriftInformation.StackDriftStatus).toBe('DRIFTED');
        expect(body.Drift.Detection).toMatchObject({
          DetectionStatus: 'DETECTION_COMPLETE',
          DriftedStackResourceCount: 1,
        });
        const drifted = body.Drift.Resources.find((r: any) => r.LogicalResourceId === 'Config');
        expect(drifted.StackResourceDriftStatus).toBe('MODIFIED');
        expect(drifted.PropertyDifferences).toEqual([
          expect.objectContaining({ PropertyPath: '/Value', ActualValue: 'changed', DifferenceType: 'NOT_EQUAL' }),
        ]);
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const refused = await json('/stack/drift?id=nope', { method: 'POST' });
    expect(refused.status).toBe(404);
  });

  it('answers 400 without an id and 404 for an unknown stack', async () => {
    expect((await json('/stack')).status).toBe(400);
    expect((await json('/stack/events?id=arn:aws:cloudformation:us-east-1:000000000000:stack/x/y')).status).toBe(404);
    expect((await json('/change-set?id=nope')).status).toBe(404);
  });

  it('refuses backend counts without a backend, for a type without counts, and for an unknown resource', async () => {
    const { id } = await createStack(server, 'counted', 'Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n');
    const url = (await worldRow(server, 'AWS::SQS::Queue', 'Queue', id)).physicalId as string;
    const counts = (type: string, physicalId: string) =>
      json(
        `/backend-counts?account=000000000000&region=us-east-1&type=${encodeURIComponent(type)}&id=${encodeURIComponent(physicalId)}`,
      );
    expect(await counts('AWS::SQS::Queue', url)).toEqual({
      status: 400,
      body: {
        error: 'BadRequest',
        message: `AWS::SQS::Queue ${url} is simulated: only a resource in the backend has counts`,
      },
    });
    expect((await counts('AWS::SNS::Topic', 'x')).body.message).toBe(
      'AWS::SNS::Topic has no counts; types with counts: AWS::SQS::Queue, AWS::DynamoDB::Table',
    );
    expect((await counts('AWS::DynamoDB::Table', 'missing')).status).toBe(404);
    expect((await json('/backend-counts?type=AWS::SQS::Queue')).status).toBe(400);
  });
});

/** Reads the feed (over node:http, as a browser holds one connection) until `done` says the messages suffice. */
async function feedUntil(base: string, done: (messages: any[]) => boolean, start: () => Promise<unknown>) {
  const res = await new Promise<IncomingMessage>((resolve, reject) =>
    get(`${base}/_cfn-local/feed`, resolve).on('error', reject),
  );
  expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
  res.setEncoding('utf8');
  const messages: any[] = [];
  let buffer = '';
  const finished = new Promise<void>((resolve) => {
    res.on('data', (chunk: string) => {
      buffer += chunk;
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop()!;
      for (const b of blocks) if (b.startsWith('data: ')) messages.push(JSON.parse(b.slice(6)));
      if (done(messages)) resolve();
    });
  });
  await start();
  await finished;
  res.destroy();
  return messages;
}

describe('the live feed', () => {
  it('streams the stack row and every event of an operation as they are committed', async () => {
    let id = '';
    const messages = await feedUntil(
      server.endpoint,
      (m) => m.some((x) => x.kind === 'stack' && x.stack.StackId === id && x.stack.StackStatus === 'ROLLBACK_COMPLETE'),
      async () => {
        const out = await server.client.send(
          new CreateStackCommand({
            StackName: 'console-feed',
            TemplateBody: TEMPLATE.replace(
              'DependsOn: Data',
              'DependsOn: Data\n    Metadata: { cfn-local: { Fail: Create } }',
            ),
          }),
        );
        id = out.StackId!;
      },
    );
    const events = messages.filter((m) => m.kind === 'event' && m.event.StackId === id).map((m) => m.event);
    expect(events.map((e) => `${e.LogicalResourceId} ${e.ResourceStatus}`)).toEqual(
      expect.arrayContaining(['Config CREATE_FAILED', 'Data DELETE_COMPLETE', 'console-feed ROLLBACK_COMPLETE']),
    );
    expect(events.every((e) => e.StackName === 'console-feed' && typeof e.Seq === 'number')).toBe(true);
    await waitForStack(server.client, id);
  });
});

describe('the control token', () => {
  it('guards the reads and the feed but not the page', async () => {
    const base = `${guarded.endpoint}/_cfn-local`;
    expect((await fetch(`${base}/console/`)).status).toBe(200);
    expect((await fetch(`${base}/stacks`)).status).toBe(401);
    expect((await fetch(`${base}/feed`)).status).toBe(401);
    const ok = await fetch(`${base}/stacks`, { headers: { authorization: 'Bearer console-secret' } });
    expect(ok.status).toBe(200);
  });
});
