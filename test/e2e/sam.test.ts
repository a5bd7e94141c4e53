// A SAM app deployed with `aws cloudformation deploy` (the path `sam deploy` takes): its generated resources are
// listed, then it is updated and deleted, through Debian's AWS CLI v2 and AWS's SAM translator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '../helpers/server.js';
import { samGate } from '../helpers/sam.js';
import { AWS_CLI, clientEnv, json, run, type RunResult } from './clients.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/sam/', import.meta.url));
// `deploy` behaves alike in the AWS CLI v1 and v2: either one will do.
const CLIS = [AWS_CLI, '/root/.pyenv/shims/aws', '/usr/local/bin/aws'];
// The CLI's waiters poll every 5 s (v1: 30 s once the stack runs), whatever the server's speed.
const DEPLOY_TIMEOUT = 180_000;
const found = CLIS.find((path) => existsSync(path));
const version = found ? await run(found, ['--version']).catch(() => undefined) : undefined;
const cli =
  version?.code === 0
    ? { ok: true, path: found! }
    : { ok: false, path: '', reason: `no AWS CLI at ${CLIS.join(', ')}` };
const sam = await samGate('SAM app through aws cloudformation deploy');

describe.skipIf(sam.skip || !cli.ok)(`${sam.title}${cli.ok ? '' : ` — SKIPPED: ${cli.reason}`}`, () => {
  let server: TestServer;
  const aws = (...args: string[]): Promise<RunResult> =>
    run(cli.path, ['--endpoint-url', server.endpoint, '--output', 'json', 'cloudformation', ...args], {
      cwd: FIXTURES,
      env: clientEnv({ AWS_DEFAULT_REGION: 'us-east-1' }), // the CLI v1 reads only this one
    });
  const resources = async () =>
    json(await aws('list-stack-resources', '--stack-name', 'sam-demo')).StackResourceSummaries as any[];
  /** The generated function's environment, as the simulated account holds it (the control API). */
  const environmentOf = async () => {
    const fn = (await resources()).find((r) => r.LogicalResourceId === 'HelloFunction');
    const world = await (
      await fetch(`${server.endpoint}/_cfn-local/world/${encodeURIComponent(fn.PhysicalResourceId)}`)
    ).json();
    return world.properties.Environment.Variables;
  };

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it(
    'deploy creates the stack from the SAM template and lists the generated resources',
    async () => {
      const result = await aws(
        'deploy',
        '--template-file',
        'app.yaml',
        '--stack-name',
        'sam-demo',
        '--capabilities',
        'CAPABILITY_IAM',
      );
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('Successfully created/updated stack - sam-demo');
      expect((await environmentOf()).GREETING).toBe('hello');
      const listed = (await resources()).map((r) => `${r.LogicalResourceId} ${r.ResourceType} ${r.ResourceStatus}`);
      expect(listed).toEqual(
        expect.arrayContaining([
          'HelloFunction AWS::Lambda::Function CREATE_COMPLETE',
          'HelloFunctionRole AWS::IAM::Role CREATE_COMPLETE',
          'HelloFunctionHelloPermissionProd AWS::Lambda::Permission CREATE_COMPLETE',
          'ServerlessRestApi AWS::ApiGateway::RestApi CREATE_COMPLETE',
          'ServerlessRestApiProdStage AWS::ApiGateway::Stage CREATE_COMPLETE',
          'Items AWS::DynamoDB::Table CREATE_COMPLETE',
        ]),
      );
      expect(
        listed.some((l) => /^ServerlessRestApiDeployment\w+ AWS::ApiGateway::Deployment CREATE_COMPLETE$/.test(l)),
      ).toBe(true);
    },
    DEPLOY_TIMEOUT,
  );

  it(
    'deploy with a new parameter value updates the generated function',
    async () => {
      const result = await aws(
        'deploy',
        '--template-file',
        'app.yaml',
        '--stack-name',
        'sam-demo',
        '--capabilities',
        'CAPABILITY_IAM',
        '--parameter-overrides',
        'Greeting=hi',
      );
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('Successfully created/updated stack - sam-demo');
      const stack = json(await aws('describe-stacks', '--stack-name', 'sam-demo')).Stacks[0];
      expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
      expect((await environmentOf()).GREETING).toBe('hi');
      const fn = (await resources()).find((r) => r.LogicalResourceId === 'HelloFunction');
      expect(fn.ResourceStatus).toBe('UPDATE_COMPLETE');
    },
    DEPLOY_TIMEOUT,
  );

  it(
    'delete-stack removes the generated resources',
    async () => {
      expect((await aws('delete-stack', '--stack-name', 'sam-demo')).code).toBe(0);
      expect((await aws('wait', 'stack-delete-complete', '--stack-name', 'sam-demo')).code).toBe(0);
      const { StackSummaries } = json(await aws('list-stacks', '--stack-status-filter', 'DELETE_COMPLETE'));
      expect(StackSummaries.map((s: any) => s.StackName)).toContain('sam-demo');
    },
    DEPLOY_TIMEOUT,
  );
});
