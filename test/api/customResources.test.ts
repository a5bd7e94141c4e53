// Custom resources over the real provider protocol, served by a small HTTP handler inside the test: the request
// is POSTed to the ServiceToken URL, the handler PUTs its response to the ResponseURL.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateStackCommand,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { presign } from '../../resources/presign.js';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { ManualTimers } from '../helpers/timers.js';
import { createStack, deleteStack, eventLines, resourceEvents } from './worldHelpers.js';

type Request = Record<string, any>;
type Reply = (req: Request) => Record<string, unknown> | undefined;

/** A custom resource handler: records each request and answers with `reply(request)` (or never, if undefined). */
class Handler {
  readonly requests: Request[] = [];
  reply: Reply = () => ({ Status: 'SUCCESS' });
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.end();
        const request = JSON.parse(body) as Request;
        this.requests.push({ ...request, path: req.url });
        const answer = this.reply(request);
        if (answer) void respond(request, answer);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/handler`;
  }

  close() {
    return new Promise((r) => this.server?.close(r));
  }

  /** The request number `n` (from 1), once it has arrived (bounded: one that never comes fails the test). */
  async received(n: number, timeoutMs = 10_000): Promise<Request> {
    const end = Date.now() + timeoutMs;
    while (this.requests.length < n) {
      if (Date.now() > end) throw new Error(`the handler got ${this.requests.length} request(s), not ${n}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return this.requests[n - 1];
  }
}

/** What cfn-response does: a PUT of the response with an empty Content-Type. */
async function respond(request: Request, answer: Record<string, unknown>) {
  const body = {
    StackId: request.StackId,
    RequestId: request.RequestId,
    LogicalResourceId: request.LogicalResourceId,
    PhysicalResourceId: request.PhysicalResourceId ?? `phys-${request.LogicalResourceId}`,
    ...answer,
  };
  return fetch(request.ResponseURL, { method: 'PUT', headers: { 'content-type': '' }, body: JSON.stringify(body) });
}

const TEMPLATE = (
  token: string,
  props = 'Size: 5\n      Enabled: true\n      Tags: [a, 1]',
  type = 'Custom::Thing',
) => `
Resources:
  Thing:
    Type: ${type}
    Properties:
      ServiceToken: ${token}
      ${props}
Outputs:
  Id:
    Value: !Ref Thing
  Endpoint:
    Value: !GetAtt Thing.Endpoint
`;

let server: TestServer;
const handler = new Handler();
// A handler's reply is awaited for AWS's hour on these timers, which a test moves past instead of waiting.
const timers = new ManualTimers();
beforeAll(async () => {
  server = await startServer({ timers, allowUrlServiceTokens: true });
  await handler.start();
});
afterAll(async () => {
  await server.close();
  await handler.close();
});
beforeEach(() => {
  handler.requests.length = 0;
  handler.reply = () => ({ Status: 'SUCCESS', Data: { Endpoint: 'db.example' } });
});

const reasonOf = async (id: string, status: string) =>
  (await resourceEvents(server.client, id, 'Thing')).find((e) => e.ResourceStatus === status)?.ResourceStatusReason;

describe('Custom resources over HTTP', () => {
  it("CreateStack POSTs the Create request and reaches CREATE_COMPLETE with the handler's PhysicalResourceId and Data", async () => {
    const { id, stack } = await createStack(server, 'cr-create', TEMPLATE(handler.url));
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const [request] = handler.requests;
    expect(request).toMatchObject({
      RequestType: 'Create',
      ServiceToken: handler.url,
      StackId: id,
      LogicalResourceId: 'Thing',
      ResourceType: 'Custom::Thing',
      // CloudFormation passes every scalar to the handler as a string.
      ResourceProperties: { ServiceToken: handler.url, Size: '5', Enabled: 'true', Tags: ['a', '1'] },
    });
    expect(request.RequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.ResponseURL.startsWith(`${server.endpoint}/_cfn-local/custom-resource-response/`)).toBe(true);
    expect(request.PhysicalResourceId).toBeUndefined();
    expect(request.OldResourceProperties).toBeUndefined();
    const outputs = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey, o.OutputValue]));
    expect(outputs).toEqual({ Id: 'phys-Thing', Endpoint: 'db.example' });
    expect(await eventLines(server.client, id, 'Thing')).toEqual([
      'CREATE_IN_PROGRESS',
      'CREATE_IN_PROGRESS Resource creation Initiated',
      'CREATE_COMPLETE',
    ]);
  });

  it('UpdateStack sends Update with PhysicalResourceId and OldResourceProperties; DeleteStack sends Delete', async () => {
    const { id } = await createStack(server, 'cr-update', TEMPLATE(handler.url));
    await server.client.send(new UpdateStackCommand({ StackName: id, TemplateBody: TEMPLATE(handler.url, 'Size: 6') }));
    expect((await waitForStack(server.client, id)).StackStatus).toBe('UPDATE_COMPLETE');
    const update = handler.requests[1];
    expect(update).toMatchObject({
      RequestType: 'Update',
      PhysicalResourceId: 'phys-Thing',
      ResourceProperties: { ServiceToken: handler.url, Size: '6' },
      OldResourceProperties: { ServiceToken: handler.url, Size: '5', Enabled: 'true', Tags: ['a', '1'] },
    });
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
    expect(handler.requests[2]).toMatchObject({
      RequestType: 'Delete',
      PhysicalResourceId: 'phys-Thing',
      ResourceProperties: { Size: '6' },
    });
  });

  it('treats a new PhysicalResourceId on Update as a replacement: the old one gets a Delete in cleanup', async () => {
    const { id } = await createStack(server, 'cr-replace', TEMPLATE(handler.url));
    handler.reply = (r) =>
      r.RequestType === 'Update'
        ? { Status: 'SUCCESS', PhysicalResourceId: 'phys-new', Data: { Endpoint: 'b' } }
        : { Status: 'SUCCESS' };
    await server.client.send(new UpdateStackCommand({ StackName: id, TemplateBody: TEMPLATE(handler.url, 'Size: 7') }));
    expect((await waitForStack(server.client, id)).StackStatus).toBe('UPDATE_COMPLETE');
    expect(handler.requests.map((r) => `${r.RequestType} ${r.PhysicalResourceId ?? ''}`.trim())).toEqual([
      'Create',
      'Update phys-Thing',
      'Delete phys-Thing',
    ]);
  });

  it('fails with "Received response status [FAILED] from custom resource" and rolls back', async () => {
    handler.reply = (r) =>
      r.RequestType === 'Create' ? { Status: 'FAILED', Reason: 'bad input' } : { Status: 'SUCCESS' };
    const { id, stack } = await createStack(server, 'cr-failed', TEMPLATE(handler.url));
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const requestId = handler.requests[0].RequestId;
    expect(await reasonOf(id, 'CREATE_FAILED')).toBe(
      `Received response status [FAILED] from custom resource. Message returned: bad input (RequestId: ${requestId})`,
    );
  });

  it('a Create answered FAILED with a PhysicalResourceId gets a Delete for it during the rollback', async () => {
    handler.reply = (r) =>
      r.RequestType === 'Create'
        ? { Status: 'FAILED', Reason: 'half done', PhysicalResourceId: 'half-made' }
        : { Status: 'SUCCESS' };
    const { id, stack } = await createStack(server, 'cr-failed-cleanup', TEMPLATE(handler.url));
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(handler.requests.map((r) => `${r.RequestType} ${r.PhysicalResourceId ?? ''}`.trim())).toEqual([
      'Create',
      'Delete half-made',
    ]);
    expect((await eventLines(server.client, id, 'Thing')).slice(-2)).toEqual(['DELETE_IN_PROGRESS', 'DELETE_COMPLETE']);
  });

  it('times out as configured when the handler never answers, without holding up other stacks', async () => {
    handler.reply = () => undefined;
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'cr-silent', TemplateBody: TEMPLATE(handler.url) }),
    );
    await timers.armed(3_600_000);
    const other = await createStack(server, 'cr-other', 'Resources:\n  Q:\n    Type: AWS::SQS::Queue\n');
    expect(other.stack.StackStatus).toBe('CREATE_COMPLETE');
    await timers.advance(3_600_000 - 1);
    expect((await server.client.send(new DescribeStacksCommand({ StackName: StackId }))).Stacks![0].StackStatus).toBe(
      'CREATE_IN_PROGRESS',
    );
    await timers.advance(1);
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('ROLLBACK_COMPLETE');
    const requestId = handler.requests[0].RequestId;
    expect(await reasonOf(StackId!, 'CREATE_FAILED')).toBe(
      `CloudFormation did not receive a response from your Custom Resource. Please check your logs for requestId [${requestId}]. If you are using the Python cfn-response module, you may need to update your Lambda function code so that CloudFormation can attach the updated version.`,
    );
    // A response that comes after the timeout is told the request is finished.
    const late = await respond(handler.requests[0], { Status: 'SUCCESS' });
    expect(late.status).toBe(410);
  });

  it("answers 4xx to a response for an unknown request, or one that is not the protocol's JSON", async () => {
    const key = server.app.store.secrets.get('signal-urls');
    const unsigned = `${server.endpoint}/_cfn-local/custom-resource-response/x%7CThing%7Cnope`;
    // Unsigned, S3 refuses it before anything else (403 AccessDenied); signed, the request is unknown.
    expect((await fetch(unsigned, { method: 'PUT', body: '{"Status":"SUCCESS"}' })).status).toBe(403);
    const unknown = await fetch(presign(unsigned, key, new Date(), 7200, 'us-east-1'), {
      method: 'PUT',
      body: '{"Status":"SUCCESS"}',
    });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe('NoSuchRequest');
    handler.reply = () => undefined;
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'cr-bad-response', TemplateBody: TEMPLATE(handler.url) }),
    );
    const first = await handler.received(1);
    const garbage = await fetch(first.ResponseURL, { method: 'PUT', body: 'nope' });
    expect(garbage.status).toBe(400);
    const badStatus = await respond(first, { Status: 'DONE' });
    expect(badStatus.status).toBe(400);
    expect((await badStatus.json()).message).toBe('Status must be "SUCCESS" or "FAILED".');
    expect((await respond(first, { Status: 'SUCCESS', Data: { Endpoint: 'x' } })).status).toBe(200);
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
  });

  it('refuses a response longer than 4096 bytes with "Response object is too long."', async () => {
    handler.reply = () => ({ Status: 'SUCCESS', Data: { Endpoint: 'x'.repeat(5000) } });
    const { id } = await createStack(server, 'cr-long', TEMPLATE(handler.url));
    expect(await reasonOf(id, 'CREATE_FAILED')).toBe('Response object is too long.');
  });

  it('DeleteStack ends DELETE_FAILED while the handler answers FAILED, then DELETE_COMPLETE once it succeeds', async () => {
    const { id } = await createStack(server, 'cr-delete', TEMPLATE(handler.url));
    handler.reply = () => ({ Status: 'FAILED', Reason: 'still in use' });
    const failed = await deleteStack(server, id);
    expect(failed.StackStatus).toBe('DELETE_FAILED');
    expect(await reasonOf(id, 'DELETE_FAILED')).toMatch(
      /^Received response status \[FAILED\] from custom resource\. Message returned: still in use \(RequestId: /,
    );
    handler.reply = () => ({ Status: 'SUCCESS' });
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
  });

  it('refuses a changed ServiceToken with "Modifying service token is not allowed."', async () => {
    const { id } = await createStack(server, 'cr-token', TEMPLATE(handler.url));
    await server.client.send(new UpdateStackCommand({ StackName: id, TemplateBody: TEMPLATE(`${handler.url}/v2`) }));
    expect((await waitForStack(server.client, id)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(await reasonOf(id, 'UPDATE_FAILED')).toBe('Modifying service token is not allowed.');
  });
});

describe('Custom resource validation', () => {
  it("a custom resource without ServiceToken fails with the registry's required-key text", async () => {
    const { id } = await createStack(
      server,
      'cr-no-token',
      'Resources:\n  Thing:\n    Type: Custom::Thing\n    Properties:\n      Size: 1\n',
    );
    expect(await reasonOf(id, 'CREATE_FAILED')).toBe(
      'Properties validation failed for resource Thing with message: [#: required key [ServiceToken] not found]',
    );
  });
});

describe('an http(s) ServiceToken without --allow-url-service-tokens', () => {
  // AWS takes only SNS topic and Lambda function ARNs; a URL would make the server POST wherever a template says.
  it('fails the resource as an invalid token, and nothing is sent', async () => {
    const strict = await startServer();
    try {
      const { StackId } = await strict.client.send(
        new CreateStackCommand({ StackName: 'cr-url', TemplateBody: TEMPLATE(handler.url) }),
      );
      expect((await waitForStack(strict.client, StackId!)).StackStatus).toBe('ROLLBACK_COMPLETE');
      const events = await strict.client.send(new DescribeStackEventsCommand({ StackName: StackId }));
      const failed = events.StackEvents!.find((e) => e.ResourceStatus === 'CREATE_FAILED');
      expect(failed?.ResourceStatusReason).toBe(`Invalid service token: ${handler.url}`);
      expect(handler.requests).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('Custom resources with a Lambda ServiceToken', () => {
  const ARN = 'arn:aws:lambda:us-east-1:000000000000:function:provider';

  it('fails with a clear reason under --no-lambda instead of succeeding without running anything', async () => {
    const off = await startServer({ lambda: false });
    try {
      const { StackId } = await off.client.send(
        new CreateStackCommand({ StackName: 'cr-lambda', TemplateBody: TEMPLATE(ARN) }),
      );
      expect((await waitForStack(off.client, StackId!)).StackStatus).toBe('ROLLBACK_COMPLETE');
      const events = await off.client.send(new DescribeStackEventsCommand({ StackName: StackId }));
      const failed = events.StackEvents!.find((e) => e.ResourceStatus === 'CREATE_FAILED');
      expect(failed?.ResourceStatusReason).toBe(
        `cfn-local runs no function code (--no-lambda), so the custom resource's function ${ARN} was not invoked: start cfn-local without --no-lambda or CFN_LOCAL_LAMBDA=off, or with --lambda-endpoint <url>.`,
      );
      expect(handler.requests).toEqual([]);
    } finally {
      await off.close();
    }
  });

  it('invokes the function through the configured Lambda-compatible endpoint', async () => {
    const lambda = await startServer({ lambdaEndpoint: handler.url.replace('/handler', '') });
    try {
      const { StackId } = await lambda.client.send(
        new CreateStackCommand({ StackName: 'cr-invoke', TemplateBody: TEMPLATE(ARN) }),
      );
      expect((await waitForStack(lambda.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
      expect(handler.requests[0].path).toBe(`/2015-03-31/functions/${encodeURIComponent(ARN)}/invocations`);
      expect(handler.requests[0]).toMatchObject({ RequestType: 'Create', ServiceToken: ARN });
    } finally {
      await lambda.close();
    }
  });
});
