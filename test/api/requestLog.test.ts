// One log line per call, from the same hook for every route on the port (server/requestLog.ts): CloudFormation over
// awsQuery and awsJson, a request signed for a service cfn-local does not serve, and the control API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import pino from 'pino';
import { CreateStackCommand, DescribeStacksCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { ListFunctionsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
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

  it('names the STS action of an STS call (awsQuery in the body), not `POST /`', async () => {
    const sts = new STSClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    await sts.send(new GetCallerIdentityCommand({}));
    expect(calls().at(-1)).toMatchObject({ service: 'sts', action: 'GetCallerIdentity', status: 200 });
    expect(lines.some((l) => /^AWS sts\.GetCallerIdentity => 200 \(/.test(l.msg ?? ''))).toBe(true);
  });

  it('names the S3 and Lambda actions of REST calls, and the bucket', async () => {
    const config = {
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    };
    await new S3Client({ ...config, forcePathStyle: true }).send(new CreateBucketCommand({ Bucket: 'log-bucket' }));
    expect(calls().at(-1)).toMatchObject({ service: 's3', action: 'CreateBucket', resource: 'log-bucket' });
    await new LambdaClient(config).send(new ListFunctionsCommand({}));
    expect(calls().at(-1)).toMatchObject({ service: 'lambda', action: 'ListFunctions', status: 200 });
  });
});

describe('the operation log line', () => {
  const exporting = (value: string) =>
    `Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: ${value}\n` +
    `Outputs:\n  Name:\n    Value: ${value}\n    Export:\n      Name: logged-export\n`;
  const create = async (name: string, body: string) => {
    const { StackId } = await server.client.send(new CreateStackCommand({ StackName: name, TemplateBody: body }));
    return waitForStack(server.client, StackId!);
  };

  it('names the first failure of an update rolled back by an export still in use', async () => {
    const exporter = await create('log-exporter', exporting('one'));
    await create(
      'log-importer',
      'Resources:\n  Q:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: !ImportValue logged-export\n',
    );
    await server.client.send(new UpdateStackCommand({ StackName: 'log-exporter', TemplateBody: exporting('two') }));
    expect((await waitForStack(server.client, exporter.StackId!)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const line = lines.filter((l) => l.operation?.stack === 'log-exporter').at(-1);
    expect(line?.msg).toMatch(
      /^log-exporter UPDATE_STACK → UPDATE_ROLLBACK_COMPLETE in \d+ ms \(.*\): Export logged-export cannot be updated as it is in use by log-importer/,
    );
  });
});
