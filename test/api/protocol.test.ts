// Bad input on the wire, sent as raw HTTP the way a broken client would: AWS's error documents, never a 500,
// nothing stored; and a client that disconnects mid-request does no harm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { ListStacksCommand } from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function post(body: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.endpoint, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', ...headers },
  });
  const text = await res.text();
  const unescape = (v: string) =>
    v
      .replace(/&apos;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const field = (name: string) => {
    const raw = new RegExp(`<${name}>([^<]*)</${name}>`).exec(text)?.[1];
    return raw === undefined ? undefined : unescape(raw);
  };
  return {
    status: res.status,
    text,
    type: field('Type'),
    code: field('Code'),
    message: field('Message'),
    requestId: res.headers.get('x-amzn-requestid'),
  };
}

const TEMPLATE = encodeURIComponent('Resources:\n  A:\n    Type: AWS::SQS::Queue\n');

describe('the awsQuery envelope', () => {
  it("answers a successful call in AWS's XML envelope with the x-amzn-RequestId header", async () => {
    const res = await fetch(server.endpoint, {
      method: 'POST',
      body: 'Action=ListStacks&Version=2010-05-15',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(text).toMatch(
      /^<ListStacksResponse xmlns="http:\/\/cloudformation\.amazonaws\.com\/doc\/2010-05-15\/"><ListStacksResult><StackSummaries\/><\/ListStacksResult><ResponseMetadata><RequestId>[0-9a-f-]{36}<\/RequestId><\/ResponseMetadata><\/ListStacksResponse>$/,
    );
    expect(text).toContain(`<RequestId>${res.headers.get('x-amzn-requestid')}</RequestId>`);
  });
});

describe('bad requests', () => {
  it('returns InvalidAction for an action CloudFormation does not have', async () => {
    expect(await post('Action=DescribeUnicorns&Version=2010-05-15')).toMatchObject({
      status: 400,
      type: 'Sender',
      code: 'InvalidAction',
      message: 'Could not find operation DescribeUnicorns for version 2010-05-15',
    });
  });

  it('returns MissingAction without an Action', async () => {
    expect(await post('Version=2010-05-15')).toMatchObject({ status: 400, code: 'MissingAction' });
  });

  it('returns ValidationError for a missing required member', async () => {
    expect(await post(`Action=CreateStack&Version=2010-05-15&TemplateBody=${TEMPLATE}`)).toMatchObject({
      status: 400,
      code: 'ValidationError',
      message:
        "1 validation error detected: Value null at 'stackName' failed to satisfy constraint: Member must not be null",
    });
  });

  it('returns ValidationError for a member of the wrong type, and stores nothing', async () => {
    const res = await post(
      `Action=CreateStack&Version=2010-05-15&StackName=typed&TimeoutInMinutes=abc&TemplateBody=${TEMPLATE}`,
    );
    expect(res).toMatchObject({ status: 400, code: 'ValidationError' });
    expect(res.message).toMatch(/'timeoutInMinutes'/);
    const { StackSummaries } = await server.client.send(new ListStacksCommand({}));
    expect(StackSummaries!.map((s) => s.StackName)).not.toContain('typed');
  });

  it('returns ValidationError for a malformed form body (a broken percent-escape)', async () => {
    const res = await post('Action=CreateStack&Version=2010-05-15&StackName=%E0%A4%A&TemplateBody=x');
    expect(res.status).toBe(400);
    expect(res.code).toBe('ValidationError');
  });

  it('returns ValidationError for a non-boolean where a boolean belongs', async () => {
    expect(
      await post(`Action=CreateStack&Version=2010-05-15&StackName=b&DisableRollback=maybe&TemplateBody=${TEMPLATE}`),
    ).toMatchObject({ status: 400, code: 'ValidationError' });
  });

  it('never answers 500 for a body that is not a form at all', async () => {
    const res = await post('\u0000\u0001garbage%%%', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(400);
  });
});

describe('a client that disconnects mid-request', () => {
  it('does no harm: the server keeps answering', async () => {
    const url = new URL(server.endpoint);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\nAction=Create',
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 20);
      });
    });
    const { StackSummaries } = await server.client.send(new ListStacksCommand({}));
    expect(Array.isArray(StackSummaries)).toBe(true);
  });
});

describe('the service dispatch', () => {
  it('answers a request signed for a service cfn-local does not serve with UnknownService, naming it', async () => {
    const auth =
      'AWS4-HMAC-SHA256 Credential=test/20261201/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00';
    const res = await post('Action=ListStacks', { authorization: auth });
    expect(res.status).toBe(400);
    expect(res.code).toBe('UnknownService');
    expect(res.message).toBe(
      'cfn-local does not serve the dynamodb API (the request was signed for dynamodb); start cfn-local with --backend moto to serve it (docs/backend.md).',
    );
  });
});

describe("a body over the server's limit", () => {
  // AWS's front end answers 413 with a body the AWS CLI cannot parse (aws/aws-cli#2378); cfn-local keeps the status
  // and answers in the XML error envelope every query client reads.
  it("gets a 413 in AWS's XML error envelope, not fastify's JSON", async () => {
    const big = `Action=ValidateTemplate&Version=2010-05-15&TemplateBody=${'x'.repeat(16 * 1024 * 1024 + 1)}`;
    const res = await post(big);
    expect(res).toMatchObject({
      status: 413,
      type: 'Sender',
      code: 'RequestEntityTooLarge',
      message: 'Request body is larger than 16777216 bytes',
    });
    expect(res.text).toMatch(
      /^<ErrorResponse xmlns="http:\/\/cloudformation\.amazonaws\.com\/doc\/2010-05-15\/"><Error>/,
    );
  });
});

describe('slow and idle senders', () => {
  it("the server has request, header, idle-socket and keep-alive timeouts (fastify turns Node's request timeout off)", () => {
    const http = server.app.fastify.server;
    expect({
      request: http.requestTimeout,
      headers: http.headersTimeout,
      idle: http.timeout,
      keepAlive: http.keepAliveTimeout,
    }).toEqual({ request: 300_000, headers: 60_000, idle: 120_000, keepAlive: 72_000 });
  });

  it('closes a connection that sends headers and then goes silent mid-body', async () => {
    const http = server.app.fastify.server;
    const idle = http.timeout;
    http.timeout = 200; // shortened for this test only; the default is 120 s
    try {
      const { port } = new URL(server.endpoint);
      const socket = connect(Number(port), '127.0.0.1');
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => undefined);
      socket.write(
        'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nAction=List',
      );
      await closed;
    } finally {
      http.timeout = idle;
    }
  });
});
