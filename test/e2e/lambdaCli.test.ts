// `aws lambda invoke` of functions a SAM template deployed: packaged with `aws cloudformation package` (code to
// S3), deployed with `aws cloudformation deploy`, then run by cfn-local's runtime, through Debian's AWS CLI v2.
// Besides: a function that throws, one that times out (AWS's error documents), one whose SDK calls land in the stack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { startServer, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { clientEnv, endpointUrlAwsCli, json, run } from './clients.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/lambda-sam/', import.meta.url));
const STEP_MS = 180_000;
// `package` uploads to S3 with no endpoint but AWS_ENDPOINT_URL: a CLI that reads it (v2.13+, v1.29+).
const { cli } = await endpointUrlAwsCli();

describe('aws lambda invoke of a packaged and deployed SAM app', () => {
  let server: TestServer;
  const work = mkdtempSync(join(tmpdir(), 'cfn-local-lambda-cli-'));
  /** A payload file: fileb:// reads the same in the CLI v1 and v2. */
  const payload = (name: string, value: unknown) => {
    writeFileSync(join(work, name), JSON.stringify(value));
    return `fileb://${join(work, name)}`;
  };
  const aws = (...args: string[]) =>
    run(cli!, ['--output', 'json', ...args], {
      cwd: FIXTURE,
      env: clientEnv({ AWS_ENDPOINT_URL: server.endpoint }),
      timeoutMs: STEP_MS,
    });

  beforeAll(async () => {
    server = await startServer();
    await s3Client(server.endpoint).send(new CreateBucketCommand({ Bucket: 'sam-artifacts' }));
  });
  afterAll(() => server.close());

  it(
    'package uploads the code, deploy creates the stack',
    async () => {
      const packaged = join(work, 'packaged.yaml');
      const pkg = await aws(
        'cloudformation',
        'package',
        '--template-file',
        'template.yaml',
        '--s3-bucket',
        'sam-artifacts',
        '--output-template-file',
        packaged,
      );
      expect(pkg.code, pkg.stderr).toBe(0);
      expect(readFileSync(packaged, 'utf8')).toMatch(/CodeUri: s3:\/\/sam-artifacts\/[0-9a-f]{32}/);
      const deploy = await aws(
        'cloudformation',
        'deploy',
        '--template-file',
        packaged,
        '--stack-name',
        'sam-fns',
        '--capabilities',
        'CAPABILITY_IAM',
      );
      expect(deploy.code, deploy.stderr + deploy.stdout).toBe(0);
    },
    STEP_MS,
  );

  it(
    'invoke runs the Node.js function from its S3 package and writes its answer',
    async () => {
      const out = join(work, 'node.json');
      const result = json(
        await aws(
          'lambda',
          'invoke',
          '--function-name',
          'sam-hello',
          '--payload',
          payload('node-in.json', { name: 'cli' }),
          '--log-type',
          'Tail',
          out,
        ),
      );
      expect(result).toMatchObject({ StatusCode: 200, ExecutedVersion: '$LATEST' });
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ message: 'hello cli' });
      const log = Buffer.from(result.LogResult, 'base64').toString('utf8');
      expect(log).toMatch(/INFO\tinvoked with {"name":"cli"}/);
      expect(log).toMatch(/REPORT RequestId: [0-9a-f-]{36}\tDuration: /);
    },
    STEP_MS,
  );

  it(
    'invoke runs the Python function from its inline code',
    async () => {
      const out = join(work, 'py.json');
      const result = json(
        await aws(
          'lambda',
          'invoke',
          '--function-name',
          'sam-py',
          '--payload',
          payload('py-in.json', { a: 2, b: 40 }),
          out,
        ),
      );
      expect(result.StatusCode).toBe(200);
      expect(result.FunctionError).toBeUndefined();
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ sum: 42 });
    },
    STEP_MS,
  );

  const invoke = async (name: string) => {
    const out = join(work, `${name}.json`);
    const result = json(await aws('lambda', 'invoke', '--function-name', name, out));
    return { result, answer: JSON.parse(readFileSync(out, 'utf8')) };
  };

  it(
    "a function that throws answers Lambda's Unhandled error document",
    async () => {
      const { result, answer } = await invoke('sam-throws');
      expect(result).toMatchObject({ StatusCode: 200, FunctionError: 'Unhandled' });
      expect(answer).toMatchObject({ errorType: 'TypeError', errorMessage: 'bad input' });
      expect(answer.trace[0]).toMatch(/^TypeError: bad input/);
    },
    STEP_MS,
  );

  it(
    "a function past its Timeout answers Lambda's Sandbox.Timedout",
    async () => {
      const { result, answer } = await invoke('sam-sleeps');
      expect(result).toMatchObject({ StatusCode: 200, FunctionError: 'Unhandled' });
      expect(answer).toEqual({
        errorType: 'Sandbox.Timedout',
        errorMessage: expect.stringMatching(/^RequestId: [0-9a-f-]{36} Error: Task timed out after 1\.00 seconds$/),
      });
    },
    STEP_MS,
  );

  it(
    "a function's SDK calls read the stack's parameter and write and read its bucket",
    async () => {
      const { result, answer } = await invoke('sam-sdk');
      expect(result.FunctionError).toBeUndefined();
      expect(answer).toEqual({ value: 'hello-from-ssm', body: 'hello-from-ssm' });
    },
    STEP_MS,
  );
});
