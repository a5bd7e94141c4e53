// The control API on a shared server: an optional token (--control-token) guards /_cfn-local/*, and reset can be
// scoped to one account so one user's reset leaves another's stacks and resources alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudFormationClient, CreateStackCommand, ListStacksCommand } from '@aws-sdk/client-cloudformation';
import { exchange, portOf } from '../helpers/rawSocket.js';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ controlToken: 's3cret' });
});
afterAll(() => server.close());

const call = async (method: string, path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.endpoint}/_cfn-local${path}`, { method, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const AUTH = { authorization: 'Bearer s3cret' };

const clientOf = (account: string) =>
  new CloudFormationClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: account, secretAccessKey: 'x' },
  });

async function stackIn(account: string, name: string) {
  const client = clientOf(account);
  const { StackId } = await client.send(
    new CreateStackCommand({ StackName: name, TemplateBody: 'Resources:\n  T:\n    Type: AWS::SNS::Topic\n' }),
  );
  expect((await waitForStack(client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
  return client;
}

const live = async (client: CloudFormationClient) =>
  ((await client.send(new ListStacksCommand({}))).StackSummaries ?? [])
    .filter((s) => s.StackStatus !== 'DELETE_COMPLETE')
    .map((s) => s.StackName);

describe('--control-token', () => {
  it('answers 401 without the token or with a wrong one, and serves it with the token', async () => {
    expect(await call('GET', '/world')).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
    expect(await call('POST', '/reset', { authorization: 'Bearer nope' })).toMatchObject({
      status: 401,
      body: { message: 'the control token does not match' },
    });
    expect(await call('GET', '/faults', AUTH)).toEqual({ status: 200, body: { faults: [] } });
    expect(await call('GET', '/faults', { 'x-cfn-local-token': 's3cret' })).toEqual({
      status: 200,
      body: { faults: [] },
    });
  });

  // The router decodes the path and reduces an absolute-form request line to it: the token holds for each (#25).
  it.each([
    ['POST', '/%5Fcfn-local/reset'],
    ['POST', '/%5fcfn-local/reset'],
    ['GET', '/_cfn-loca%6c/world'],
    ['GET', '/_cfn-local/%77orld'],
    ['POST', '/%5Fcfn-local/world'],
    ['GET', 'http://127.0.0.1/_cfn-local/world'],
    ['POST', 'http://127.0.0.1/%5Fcfn-local/reset'],
    ['GET', '/_cfn-local/waitcondition/%2E%2E/world'],
  ])('refuses %s %s without the token', async (method, target) => {
    const body = method === 'POST' ? '{"type":"AWS::SNS::Topic","name":"t"}' : '';
    const answer = await exchange(portOf(server.endpoint), [
      `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    ]);
    expect(answer.text).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.text).toContain('"error":"Unauthorized"');
  });

  it('leaves the health check and the AWS API open', async () => {
    expect(await call('GET', '/health')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await live(clientOf('111111111111'))).toEqual([]);
  });
});

describe('POST /_cfn-local/reset?account=', () => {
  it('empties one account and leaves the others', async () => {
    const a = await stackIn('111111111111', 'mine');
    const b = await stackIn('222222222222', 'theirs');
    expect(await call('POST', '/reset?account=111111111111', AUTH)).toEqual({
      status: 200,
      body: { reset: true, account: '111111111111' },
    });
    expect(await live(a)).toEqual([]);
    expect(await live(b)).toEqual(['theirs']);
    const world = (await call('GET', '/world', AUTH)).body.resources as { account: string }[];
    expect(world.map((r) => r.account)).toEqual(['222222222222']);
  });

  it('answers 400 for an account that is not 12 digits', async () => {
    expect(await call('POST', '/reset?account=abc', AUTH)).toMatchObject({
      status: 400,
      body: { message: 'account must be 12 digits (got "abc")' },
    });
  });
});
