// Custom resources across a restart: the built server is killed with SIGKILL while a Create, Update or Delete
// request waits for its handler's reply (the handler is a small HTTP server here that records each request and
// answers none), then started again on the same database. The reply PUT to the same ResponseURL after the restart
// completes the action, and the request is never sent a second time, as on AWS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateStackCommand, DeleteStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { kill, start, type Running } from '../helpers/process.js';
import { at, checkEvents, put, restart, until } from './waitHelpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cfn-local-custom-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
// The handler is a URL, which AWS would refuse as a ServiceToken: the flag lets cfn-local POST to it.
const URL_TOKENS = ['--allow-url-service-tokens'];
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
    let run = await start(db, URL_TOKENS);
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
    run = await restart(run, db, 0, URL_TOKENS);
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
      let run = await start(db, URL_TOKENS);
      const name = `cr-${type.toLowerCase()}`;
      const stackId = await created(run, name);
      const before = handler.requests.length;
      if (type === 'Update')
        await run.client.send(new UpdateStackCommand({ StackName: stackId, TemplateBody: body(2) }));
      else await run.client.send(new DeleteStackCommand({ StackName: stackId }));
      await until(async () => handler.requests.length === before + 1, `${type} requested`);
      run = await restart(run, db, 0, URL_TOKENS);
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
