// Waits across a restart: the built server is killed with SIGKILL while a create waits on the outside world (a
// WaitCondition on its handle, a CreationPolicy on SignalResource, a custom resource on its handler's reply) and
// started again on the same database. As on AWS, the wait goes on with its first deadline and the stack ends as it
// would have without the restart; a deadline that passed while the server was down times out at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackResourceCommand,
  SignalResourceCommand,
  UpdateStackCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { allEvents, resourceLines } from '../helpers/events.js';
import { kill, start, type Running } from '../helpers/process.js';

const dir = mkdtempSync(join(tmpdir(), 'cfn-local-waits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `ready` holds (the server has reached the moment the test kills it at). */
async function until(ready: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await ready()) return;
    await sleep(10);
  }
  throw new Error(`never ${what}`);
}

/** Until the resource has logged "Resource creation Initiated": it is in its wait. */
const waitingFor = (client: CloudFormationClient, stackId: string, logicalId: string) =>
  until(
    async () =>
      (await resourceLines(client, stackId, logicalId, true)).includes(
        `${logicalId} CREATE_IN_PROGRESS: Resource creation Initiated`,
      ),
    `${logicalId} waiting`,
  );

async function physicalId(client: CloudFormationClient, stackId: string, logicalId: string) {
  const { StackResourceDetail } = await client.send(
    new DescribeStackResourceCommand({ StackName: stackId, LogicalResourceId: logicalId }),
  );
  return StackResourceDetail!.PhysicalResourceId!;
}

/** The restarted server listens on another port: a URL handed out before is reached there (same path and query). */
const at = (run: Running, url: string) => `${run.endpoint}${url.slice(new URL(url).origin.length)}`;

const put = (url: string, body: unknown) =>
  fetch(url, { method: 'PUT', headers: { 'content-type': '' }, body: JSON.stringify(body) });

/** Events are neither lost nor repeated, and none says a wait was cancelled. */
async function checkEvents(run: Running, stackId: string) {
  const events = await allEvents(run.client, stackId);
  expect(new Set(events.map((e) => e.EventId)).size).toBe(events.length);
  expect(events.filter((e) => /cancelled/.test(e.ResourceStatusReason ?? ''))).toEqual([]);
}

/** Kills the server at this moment and starts it again on the same database. */
async function restart(run: Running, db: string, downMs = 0): Promise<Running> {
  await kill(run);
  await sleep(downMs);
  return start(db);
}

const WAIT_CONDITION = (timeout: number) => `
Resources:
  Handle:
    Type: AWS::CloudFormation::WaitConditionHandle
  Wait:
    Type: AWS::CloudFormation::WaitCondition
    Properties:
      Handle: !Ref Handle
      Timeout: '${timeout}'
  After:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !GetAtt Wait.Data
Outputs:
  Data:
    Value: !GetAtt Wait.Data
`;

describe('a WaitCondition across a restart', () => {
  it('takes a signal sent after the restart: CREATE_COMPLETE with its Data, then what depends on it', async () => {
    const db = join(dir, 'wait-condition.db');
    let run = await start(db);
    const { StackId } = await run.client.send(
      new CreateStackCommand({
        StackName: 'wc-restart',
        TemplateBody: WAIT_CONDITION(300),
        ClientRequestToken: 'wc-1',
      }),
    );
    await waitingFor(run.client, StackId!, 'Wait');
    const url = await physicalId(run.client, StackId!, 'Handle');
    run = await restart(run, db);
    try {
      expect((await put(at(run, url), { Status: 'SUCCESS', UniqueId: 'one', Data: 'after' })).status).toBe(200);
      const stack = await waitForStack(run.client, StackId!, 15_000);
      expect(stack.StackStatus).toBe('CREATE_COMPLETE');
      expect(JSON.parse(stack.Outputs![0].OutputValue!)).toEqual({ one: 'after' });
      expect(await resourceLines(run.client, StackId!, 'Wait')).toEqual([
        'Wait CREATE_IN_PROGRESS',
        'Wait CREATE_IN_PROGRESS',
        'Wait CREATE_COMPLETE',
      ]);
      expect(await resourceLines(run.client, StackId!, 'After')).toHaveLength(3);
      await checkEvents(run, StackId!);
      // the events after the restart still carry the call's token
      expect(new Set((await allEvents(run.client, StackId!)).map((e) => e.ClientRequestToken))).toEqual(
        new Set(['wc-1']),
      );
    } finally {
      await kill(run);
    }
  }, 30_000);

  it('times out right after the start when its deadline passed while the server was down', async () => {
    const db = join(dir, 'wait-timeout.db');
    let run = await start(db);
    const { StackId } = await run.client.send(
      new CreateStackCommand({ StackName: 'wc-timeout', TemplateBody: WAIT_CONDITION(4) }),
    );
    await waitingFor(run.client, StackId!, 'Wait');
    run = await restart(run, db, 4500);
    const back = Date.now();
    try {
      const stack = await waitForStack(run.client, StackId!, 15_000);
      expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
      expect(await resourceLines(run.client, StackId!, 'wc-timeout', true)).toContain(
        'wc-timeout ROLLBACK_IN_PROGRESS: The following resource(s) failed to create: [Wait]. Rollback requested by user.',
      );
      expect(await resourceLines(run.client, StackId!, 'Wait', true)).toContain(
        'Wait CREATE_FAILED: WaitCondition timed out. Received 0 conditions when expecting 1',
      );
      // at once, not after a new Timeout counted from the restart
      expect(Date.now() - back).toBeLessThan(3500);
    } finally {
      await kill(run);
    }
  }, 30_000);
});

const CREATION_POLICY = `
Resources:
  Instance:
    Type: AWS::CloudFormation::WaitCondition
    CreationPolicy:
      ResourceSignal:
        Count: 2
        Timeout: PT5M
`;

describe('a CreationPolicy across a restart', () => {
  it('counts the signals sent before the restart with those sent after it', async () => {
    const db = join(dir, 'creation-policy.db');
    let run = await start(db);
    const { StackId } = await run.client.send(
      new CreateStackCommand({ StackName: 'cp-restart', TemplateBody: CREATION_POLICY }),
    );
    await waitingFor(run.client, StackId!, 'Instance');
    const signal = (client: CloudFormationClient, UniqueId: string) =>
      client.send(
        new SignalResourceCommand({
          StackName: 'cp-restart',
          LogicalResourceId: 'Instance',
          UniqueId,
          Status: 'SUCCESS',
        }),
      );
    await signal(run.client, 'i-before');
    run = await restart(run, db);
    try {
      await sleep(200);
      expect((await waitForStack(run.client, StackId!, 100).catch((e: Error) => e)) instanceof Error).toBe(true);
      await signal(run.client, 'i-after');
      expect((await waitForStack(run.client, StackId!, 15_000)).StackStatus).toBe('CREATE_COMPLETE');
      await checkEvents(run, StackId!);
    } finally {
      await kill(run);
    }
  }, 30_000);
});

type Request = Record<string, string>;

/** A custom resource handler that records each request and answers none: the test answers when it chooses. */
class SilentHandler {
  readonly requests: Request[] = [];
  url = '';
  private server?: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        res.end();
        this.requests.push(JSON.parse(body) as Request);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/handler`;
  }

  close() {
    return new Promise((r) => this.server?.close(r));
  }
}

const handler = new SilentHandler();
beforeAll(() => handler.start());
afterAll(() => handler.close());

const reply = (run: Running, request: Request, Data: Record<string, string>) =>
  put(at(run, request.ResponseURL), {
    Status: 'SUCCESS',
    StackId: request.StackId,
    RequestId: request.RequestId,
    LogicalResourceId: request.LogicalResourceId,
    PhysicalResourceId: 'thing-1',
    Data,
  });

describe('a custom resource across a restart', () => {
  it('takes the reply PUT to its ResponseURL after the restart, without sending the request again', async () => {
    const db = join(dir, 'custom.db');
    let run = await start(db);
    const body = `
Resources:
  Thing:
    Type: Custom::Thing
    Properties:
      ServiceToken: ${handler.url}
Outputs:
  Endpoint:
    Value: !GetAtt Thing.Endpoint
`;
    const { StackId } = await run.client.send(new CreateStackCommand({ StackName: 'cr-restart', TemplateBody: body }));
    await until(async () => handler.requests.length === 1, 'requested');
    run = await restart(run, db);
    try {
      const [request] = handler.requests;
      expect((await reply(run, request, { Endpoint: 'https://thing' })).status).toBe(200);
      const stack = await waitForStack(run.client, StackId!, 15_000);
      expect(stack.StackStatus).toBe('CREATE_COMPLETE');
      expect(stack.Outputs![0].OutputValue).toBe('https://thing');
      expect(handler.requests).toHaveLength(1);
      // the request is over: a second reply keeps the answer a finished request gets
      expect((await reply(run, request, {})).status).toBe(410);
      await checkEvents(run, StackId!);
    } finally {
      await kill(run);
    }
  }, 30_000);
});

describe('a custom resource update or delete across a restart', () => {
  const body = (size: number) => `
Resources:
  Thing:
    Type: Custom::Thing
    Properties:
      ServiceToken: ${handler.url}
      Size: ${size}
`;

  /** A stack whose custom resource the handler has created (answered by the test), and its Create request. */
  async function created(run: Running, name: string) {
    const before = handler.requests.length;
    const { StackId } = await run.client.send(new CreateStackCommand({ StackName: name, TemplateBody: body(1) }));
    await until(async () => handler.requests.length === before + 1, 'requested');
    await reply(run, handler.requests[before], {});
    expect((await waitForStack(run.client, StackId!, 15_000)).StackStatus).toBe('CREATE_COMPLETE');
    return StackId!;
  }

  it.each([
    ['Update', 'UPDATE_COMPLETE'],
    ['Delete', 'DELETE_COMPLETE'],
  ])(
    'a %s request answered after the restart ends %s, sent once',
    async (type, settled) => {
      const db = join(dir, `custom-${type}.db`);
      let run = await start(db);
      const name = `cr-${type.toLowerCase()}`;
      const stackId = await created(run, name);
      const before = handler.requests.length;
      if (type === 'Update')
        await run.client.send(new UpdateStackCommand({ StackName: stackId, TemplateBody: body(2) }));
      else await run.client.send(new DeleteStackCommand({ StackName: stackId }));
      await until(async () => handler.requests.length === before + 1, `${type} requested`);
      run = await restart(run, db);
      try {
        const request = handler.requests[before];
        expect(request.RequestType).toBe(type);
        expect((await reply(run, request, {})).status).toBe(200);
        expect((await waitForStack(run.client, stackId, 15_000)).StackStatus).toBe(settled);
        expect(handler.requests.slice(before).map((r) => r.RequestType)).toEqual([type]);
      } finally {
        await kill(run);
      }
    },
    30_000,
  );
});

describe('a wait caught beside an action that is not a wait', () => {
  it('is cancelled with it: the action cut short fails the create, which rolls back as after any failure', async () => {
    const db = join(dir, 'mixed.db');
    let run = await start(db);
    const body = `${WAIT_CONDITION(300)}
  Slow:
    Type: AWS::SSM::Parameter
    Metadata:
      cfn-local:
        DelayMs: 2000
    Properties:
      Type: String
      Value: slow
`.replace('Outputs:\n  Data:\n    Value: !GetAtt Wait.Data\n', '');
    const { StackId } = await run.client.send(new CreateStackCommand({ StackName: 'mixed', TemplateBody: body }));
    await waitingFor(run.client, StackId!, 'Wait');
    await waitingFor(run.client, StackId!, 'Slow');
    run = await restart(run, db);
    try {
      expect((await waitForStack(run.client, StackId!, 15_000)).StackStatus).toBe('ROLLBACK_COMPLETE');
      for (const id of ['Wait', 'Slow'])
        expect(await resourceLines(run.client, StackId!, id, true)).toContain(
          `${id} CREATE_FAILED: Resource creation cancelled`,
        );
    } finally {
      await kill(run);
    }
  }, 30_000);
});
