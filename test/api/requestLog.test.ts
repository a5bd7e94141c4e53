// One log line per call, from the same hook for every route on the port (server/requestLog.ts): CloudFormation over
// awsQuery and awsJson, a request signed for a service cfn-local does not serve, and the control API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import pino from 'pino';
import { CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';

const lines: Record<string, any>[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(JSON.parse(String(chunk)));
    done();
  },
});
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ logger: pino({ level: 'info' }, sink) });
});
afterAll(() => server.close());

const calls = () => lines.filter((l) => l.call).map((l) => l.call);

describe('the per-call log line', () => {
  it('names the service, action, stack, status and error code of CloudFormation calls', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({
        StackName: 'logged',
        TemplateBody: JSON.stringify({ Resources: { T: { Type: 'AWS::SNS::Topic' } } }),
      }),
    );
    await waitForStack(server.client, StackId!);
    await server.client.send(new DescribeStacksCommand({ StackName: 'missing' })).catch(() => undefined);
    expect(calls()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ service: 'cloudformation', action: 'CreateStack', resource: 'logged', status: 200 }),
        expect.objectContaining({
          service: 'cloudformation',
          action: 'DescribeStacks',
          resource: 'missing',
          status: 400,
          errorCode: 'ValidationError',
        }),
      ]),
    );
    expect(lines.find((l) => l.msg?.startsWith('AWS cloudformation.CreateStack logged => 200 ('))).toBeDefined();
    expect(lines.find((l) => l.operation)?.msg).toMatch(
      /^logged CREATE_STACK → CREATE_COMPLETE in \d+ ms \(1 created\)$/,
    );
  });

  it('reads awsJson calls from X-Amz-Target and error codes from the JSON envelope', async () => {
    await fetch(server.endpoint, {
      method: 'POST',
      body: '{"StackName":"nope"}',
      headers: { 'x-amz-target': 'CloudFormation.DescribeStacks', 'content-type': 'application/x-amz-json-1.0' },
    });
    expect(calls().at(-1)).toMatchObject({
      service: 'cloudformation',
      action: 'DescribeStacks',
      resource: 'nope',
      status: 400,
      errorCode: 'ValidationError',
    });
  });

  it('logs a call signed for an unserved service under that service, with its error code', async () => {
    await fetch(`${server.endpoint}/?Action=ListQueues`, {
      headers: {
        authorization:
          'AWS4-HMAC-SHA256 Credential=test/20261201/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=x',
      },
    });
    expect(calls().at(-1)).toMatchObject({
      service: 'sqs',
      action: 'ListQueues',
      errorCode: 'UnknownService',
      status: 400,
    });
  });

  it('logs the control API by method and path, and health checks only at debug', async () => {
    await fetch(`${server.endpoint}/_cfn-local/health`);
    await fetch(`${server.endpoint}/_cfn-local/reset`, { method: 'POST' });
    expect(calls().at(-1)).toMatchObject({ service: 'cfn-local', action: 'POST /_cfn-local/reset', status: 200 });
    expect(calls().some((c) => c.action.includes('health'))).toBe(false);
  });
});
