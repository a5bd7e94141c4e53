// The container image's /app holds only what scripts/runtime-files.mjs copies (no dev dependencies, no sources):
// the server must start from such a folder alone, read a YAML template, log readably through the bundled
// pino-pretty, and give functions the SDK clients Lambda's Node.js runtimes have (dist/lambda-sdk).
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { waitForStack } from '../helpers/server.js';
import { ROOT } from './dockerfile.js';

// A function whose code needs the SDK (no node_modules of its own), the way the CDK's handlers do.
const TEMPLATE = `Resources:
  Topic:
    Type: AWS::SNS::Topic
  Param:
    Type: AWS::SSM::Parameter
    Properties: { Name: /runtime/value, Type: String, Value: from-ssm }
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: reads-ssm
      Runtime: nodejs20.x
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Code:
        ZipFile: |
          const { SSMClient, GetParameterCommand } = require('@aws-sdk/client-ssm');
          exports.handler = async () =>
            (await new SSMClient({}).send(new GetParameterCommand({ Name: '/runtime/value' }))).Parameter.Value;
`;

const scratch = mkdtempSync(join(tmpdir(), 'cfn-local-runtime-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the runtime files', () => {
  it('start the server alone (no node_modules beyond them), serve a YAML template, run a function using the SDK', async () => {
    const app = join(scratch, 'app');
    execFileSync(process.execPath, [join(ROOT, 'scripts/runtime-files.mjs'), app], { cwd: ROOT });
    expect(existsSync(join(app, 'node_modules/fastify'))).toBe(false);
    const child = spawn(
      process.execPath,
      ['dist/cfn-local.cjs', '--port', '0', '--db', ':memory:', '--log-format', 'pretty'],
      {
        cwd: app,
        env: { ...process.env, NODE_PATH: '', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let out = '';
      child.stderr!.on('data', (d) => (out += d));
      const endpoint = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (d) => {
          out += d;
          const match = /listening on (http:\/\/[\d.:]+)/.exec(out);
          if (match) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      expect(out).toMatch(/^\[[\d:.]+\] INFO: cfn-local \S+ listening on/);
      const client = new CloudFormationClient({
        endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      const { StackId } = await client.send(
        new CreateStackCommand({
          StackName: 'yaml',
          TemplateBody: TEMPLATE,
        }),
      );
      expect((await waitForStack(client, StackId!, 30_000)).StackStatus).toBe('CREATE_COMPLETE');
      const lambda = new LambdaClient({
        endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      const answer = await lambda.send(new InvokeCommand({ FunctionName: 'reads-ssm' }));
      expect(Buffer.from(answer.Payload!).toString('utf8')).toBe('"from-ssm"');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
