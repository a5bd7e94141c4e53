// The CDK CLI's operation-aware commands against cfn-local (AWS_ENDPOINT_URL only): a failed deploy reports its own
// failure and not an earlier deploy's (the CDK splits events by OperationId); cdk drift reports an out-of-band change;
// cdk migrate --from-scan writes an app from a scan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CreateStackCommand, DeleteStackCommand } from '@aws-sdk/client-cloudformation';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { run } from './clients.js';
import { CDK, REGION, STEP_MS, cdkHarness, ok, type CdkHarness } from './cdkHarness.js';

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
describe('CDK operations (aws-cdk CLI, AWS_ENDPOINT_URL only)', () => {
  let server: TestServer;
  let h: CdkHarness;
  const cdk = (...args: string[]) => h.cdk(...args);
  const assembly = (variant: string) => h.assembly(variant);
  const stack = (name: string) => h.stack(name);

  beforeAll(async () => {
    server = await startServer();
    h = cdkHarness({ app: 'cdk-ops-app', endpoint: server.endpoint, client: server.client });
    await Promise.all(['', 'fail1', 'fail2'].map((v) => h.synth(v)));
  }, STEP_MS);
  afterAll(async () => {
    await server.close();
    rmSync(h.work, { recursive: true, force: true });
  }, STEP_MS);

  it(
    'cdk deploy deploys the stack without bootstrap',
    async () => {
      ok(await cdk('deploy', '--app', assembly('')));
      expect((await stack('E2eOps')).StackStatus).toBe('CREATE_COMPLETE');
    },
    STEP_MS,
  );

  it(
    'a failed deploy after an earlier failed deploy reports only its own failure',
    async () => {
      const first = await cdk('deploy', '--app', assembly('fail1'));
      expect(first.code).not.toBe(0);
      expect(`${first.stdout}${first.stderr}`).toContain('the fail1 failure');
      const second = await cdk('deploy', '--app', assembly('fail2'));
      expect(second.code).not.toBe(0);
      const out = `${second.stdout}${second.stderr}`;
      expect(out).toContain('the fail2 failure');
      expect(out).not.toContain('the fail1 failure');
      expect((await stack('E2eOps')).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    },
    2 * STEP_MS,
  );

  it(
    'cdk drift reports an out-of-band SSM change as a modified property',
    async () => {
      const ssm = new SSMClient({ endpoint: server.endpoint, region: REGION, credentials: CREDENTIALS });
      await ssm.send(new PutParameterCommand({ Name: '/e2e/ops/setting', Value: 'changed-by-hand', Overwrite: true }));
      const result = await cdk('drift', '--app', assembly(''), 'E2eOps');
      const out = `${result.stdout}${result.stderr}`;
      expect(out).toContain('AWS::SSM::Parameter');
      expect(out).toContain('as-deployed');
      expect(out).toContain('changed-by-hand');
    },
    STEP_MS,
  );

  it(
    'cdk migrate --from-scan new generates an app from the resources a deleted stack retained',
    async () => {
      const { StackId } = await server.client.send(
        new CreateStackCommand({
          StackName: 'E2eLeftovers',
          TemplateBody:
            'Resources:\n  Kept:\n    Type: AWS::SSM::Parameter\n    DeletionPolicy: Retain\n    Properties: { Name: /e2e/kept, Type: String, Value: retained }\n',
        }),
      );
      await waitForStack(server.client, StackId!);
      await server.client.send(new DeleteStackCommand({ StackName: StackId }));
      await waitForStack(server.client, StackId!);
      // cdk migrate draws progress with stdout.clearLine, which only a terminal has: it runs under script(1)
      const args = [CDK, 'migrate', '--stack-name', 'MigratedApp', '--from-scan', 'new', '--language', 'typescript'];
      args.push('--output-path', h.work, '--no-notices', '--ci');
      const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
      const out = ok(
        await run('/usr/bin/script', ['-qec', quoted, '/dev/null'], { cwd: h.work, env: h.env, timeoutMs: STEP_MS }),
      );
      expect(out).toContain('Template successfully generated');
      const app = join(h.work, 'MigratedApp');
      const stackFile = readFileSync(join(app, 'lib', 'migrated_app-stack.ts'), 'utf8');
      expect(stackFile).toContain('/e2e/kept');
      expect(stackFile).toContain("new ssm.CfnParameter(this, 'SSMParameter'");
      expect(stackFile).toContain('cdk.CfnDeletionPolicy.RETAIN');
      expect(JSON.parse(readFileSync(join(app, 'migrate.json'), 'utf8')).Source).toMatch(/:generatedTemplate\//);
    },
    STEP_MS,
  );
});
