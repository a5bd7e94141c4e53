// What the 2026 CDK CLI sends, against cfn-local with the real aws-cdk CLI (AWS_ENDPOINT_URL only): `cdk deploy
// --express` keeps a failed stack failed and holds it to AWS's follow-up rule, a taken bucket name fails at
// pre-deployment validation with the event the CDK prints, and `cdk deploy --hotswap` applies a queue change through
// the Cloud Control fallback, and a bounded `cdk watch` hotswaps a Lambda code change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DescribeStackResourcesCommand, DetectStackResourceDriftCommand } from '@aws-sdk/client-cloudformation';
import { CloudControlClient, GetResourceCommand } from '@aws-sdk/client-cloudcontrol';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { GetFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { startServer, type TestServer } from '../helpers/server.js';
import { run } from './clients.js';
import { CDK, REGION, STEP_MS, cdkHarness, ok, output, type CdkHarness } from './cdkHarness.js';

const TAKEN = 'e2e-taken-bucket';
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

describe('Express mode, validation and the Cloud Control hotswap (aws-cdk CLI)', () => {
  let server: TestServer;
  let h: CdkHarness;
  const cdk = (...args: string[]) => h.cdk(...args);
  const assembly = (variant: string) => h.assembly(variant);
  const stack = (name: string) => h.stack(name);

  beforeAll(async () => {
    server = await startServer();
    h = cdkHarness({ app: 'cdk-express-app', endpoint: server.endpoint, client: server.client });
    await Promise.all(['', 'fail', 'visibility'].map((v) => h.synth(v, { CFN_LOCAL_E2E_TAKEN: TAKEN })));
  }, STEP_MS);
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
  });

  it(
    'cdk deploy --express of an app with a failing resource leaves the stack CREATE_FAILED, not rolled back',
    async () => {
      const result = await cdk('deploy', 'E2eExpress', '--express', '--app', assembly('fail'));
      expect(result.code).not.toBe(0);
      expect(output(result)).toContain('the express failure');
      const failed = await stack('E2eExpress');
      expect(failed.StackStatus).toBe('CREATE_FAILED');
      expect(failed.DeploymentConfig).toEqual({ Mode: 'EXPRESS' });
    },
    STEP_MS,
  );

  it(
    "a follow-up cdk deploy without --express is refused with AWS's text; with --express it fixes the stack forward",
    async () => {
      const refused = await cdk('deploy', 'E2eExpress', '--app', assembly(''));
      expect(refused.code).not.toBe(0);
      expect(output(refused)).toContain(
        'This stack is in a CREATE_FAILED state from a previous operation that used EXPRESS deployment mode with disable-rollback. Follow-up operations must use the same DeploymentConfig (mode=EXPRESS) until the stack reaches a *_COMPLETE state',
      );
      ok(await cdk('deploy', 'E2eExpress', '--express', '--app', assembly('')));
      expect((await stack('E2eExpress')).StackStatus).toBe('UPDATE_COMPLETE');
    },
    2 * STEP_MS,
  );

  it(
    'cdk deploy --hotswap of a queue change only Cloud Control can apply updates the queue in place',
    async () => {
      const queue = async () =>
        (await server.client.send(new DescribeStackResourcesCommand({ StackName: 'E2eExpress' }))).StackResources!.find(
          (r) => r.ResourceType === 'AWS::SQS::Queue',
        )!;
      const before = await queue();
      const out = ok(await cdk('deploy', 'E2eExpress', '--hotswap', '--app', assembly('visibility')));
      expect(out).toMatch(/hotswapp/i);
      const after = await queue();
      const queueUrl = before.PhysicalResourceId!;
      expect(after).toMatchObject({ PhysicalResourceId: queueUrl, ResourceStatus: before.ResourceStatus });
      const cc = new CloudControlClient({ endpoint: server.endpoint, region: REGION, credentials });
      // the CDK does not wait for the Cloud Control request: poll the queue (bounded) until it shows the change
      const visibility = async () =>
        JSON.parse(
          (await cc.send(new GetResourceCommand({ TypeName: 'AWS::SQS::Queue', Identifier: queueUrl })))
            .ResourceDescription!.Properties!,
        ).VisibilityTimeout as number;
      let seen = await visibility();
      for (let i = 0; i < 200 && seen !== 120; i++) {
        await new Promise((r) => setTimeout(r, 10));
        seen = await visibility();
      }
      expect(seen).toBe(120);
      // the stack was not updated: its template still says 30, so the queue has drifted from it
      expect((await stack('E2eExpress')).StackStatus).toBe('UPDATE_COMPLETE');
      const { StackResourceDrift } = await server.client.send(
        new DetectStackResourceDriftCommand({ StackName: 'E2eExpress', LogicalResourceId: after.LogicalResourceId }),
      );
      expect(StackResourceDrift).toMatchObject({
        StackResourceDriftStatus: 'MODIFIED',
        PropertyDifferences: [expect.objectContaining({ PropertyPath: '/VisibilityTimeout' })],
      });
    },
    STEP_MS,
  );

  it(
    "cdk deploy of an app reusing a taken bucket name fails at validation with AWS's text and the event",
    async () => {
      const s3 = new S3Client({ endpoint: server.endpoint, region: REGION, credentials, forcePathStyle: true });
      await s3.send(new CreateBucketCommand({ Bucket: TAKEN }));
      const result = await cdk('deploy', 'E2eClash', '--app', assembly(''));
      expect(result.code).not.toBe(0);
      const out = output(result);
      expect(out).toContain('Early validation failed');
      expect(out).toContain(`Resource of type 'AWS::S3::Bucket' with identifier '${TAKEN}' already exists.`);
    },
    STEP_MS,
  );

  it(
    'cdk watch (run for a bounded time) hotswaps a Lambda code change',
    async () => {
      const code = join(h.work, 'index.js');
      writeFileSync(code, 'exports.handler = async () => "v1";\n');
      const app = `"${process.execPath}" "${join(h.app, 'app.cjs')}"`;
      writeFileSync(join(h.work, 'cdk.json'), JSON.stringify({ app, watch: { include: ['index.js'] } }));
      const watchEnv = { ...h.env, CFN_LOCAL_E2E_CODE: code, CFN_LOCAL_E2E_TAKEN: TAKEN };
      const deployed = await run(CDK, ['deploy', 'E2eWatch', '--no-notices', '--ci', '--require-approval', 'never'], {
        cwd: h.work,
        env: watchEnv,
        timeoutMs: STEP_MS,
      });
      if (deployed.code !== 0) throw new Error(`cdk deploy E2eWatch exited ${deployed.code}:\n${output(deployed)}`);
      const lambda = new LambdaClient({ endpoint: server.endpoint, region: REGION, credentials });
      const functionName = (
        await server.client.send(new DescribeStackResourcesCommand({ StackName: 'E2eWatch' }))
      ).StackResources!.find((r) => r.ResourceType === 'AWS::Lambda::Function')!.PhysicalResourceId!;
      const sha = async () =>
        (await lambda.send(new GetFunctionCommand({ FunctionName: functionName }))).Configuration!.CodeSha256;
      const before = await sha();

      // its own process group, so that the watcher and the synths it starts end together
      const watcher = spawn(CDK, ['watch', 'E2eWatch', '--no-notices', '--ci', '--require-approval', 'never'], {
        cwd: h.work,
        env: watchEnv,
        detached: true,
      });
      let seen = '';
      watcher.stdout.on('data', (d: Buffer) => (seen += d.toString()));
      watcher.stderr.on('data', (d: Buffer) => (seen += d.toString()));
      const until = async (pattern: RegExp, what: string) => {
        const end = Date.now() + STEP_MS / 2;
        while (!pattern.test(seen)) {
          if (Date.now() > end || watcher.exitCode !== null)
            throw new Error(`cdk watch never showed ${what}:\n${seen}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      try {
        await until(
          /Triggering initial 'cdk deploy'[\s\S]*(Deployment time|hotswap-deployment time|no changes)/i,
          'its first deploy',
        );
        const mark = seen.length;
        writeFileSync(code, 'exports.handler = async () => "v2";\n');
        await until(/hotswapped!/, 'the hotswap');
        expect(seen.slice(mark)).toContain("AWS::Lambda::Function '");
      } finally {
        if (watcher.pid) process.kill(-watcher.pid, 'SIGTERM');
      }
      expect(await sha()).not.toBe(before);
    },
    STEP_MS,
  );
});
