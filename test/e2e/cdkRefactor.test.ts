// `cdk refactor` against cfn-local (AWS_ENDPOINT_URL only): a construct moved from one stack to another is moved by a
// stack refactor (CreateStackRefactor, its waiters, ExecuteStackRefactor), the same parameter now in the other
// stack, then the CDK's finishing deploy succeeds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  ListStackRefactorsCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { clientEnv, run, type RunResult } from './clients.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const APP = fileURLToPath(new URL('./fixtures/cdk-refactor-app/', import.meta.url));
const CDK = join(ROOT, 'node_modules', '.bin', 'cdk');
const STEP_MS = 240_000;

describe('cdk refactor (aws-cdk CLI, AWS_ENDPOINT_URL only)', () => {
  let server: TestServer;
  let work: string;
  let env: NodeJS.ProcessEnv;
  const assembly = (variant: string) => join(work, `cdk.out.${variant || 'base'}`);
  const cdk = (...args: string[]): Promise<RunResult> =>
    run(CDK, [...args, '--no-notices', '--ci', '--require-approval', 'never'], { cwd: work, env, timeoutMs: STEP_MS });
  const ok = (result: RunResult) => {
    if (result.code !== 0) throw new Error(`cdk exited ${result.code}:\n${result.stderr}\n${result.stdout}`);
    return `${result.stdout}${result.stderr}`;
  };
  const resources = async (StackName: string) =>
    Object.fromEntries(
      ((await server.client.send(new DescribeStackResourcesCommand({ StackName }))).StackResources ?? []).map((r) => [
        r.LogicalResourceId!,
        r,
      ]),
    );

  async function synth(variant: string) {
    const result = await run(process.execPath, [join(APP, 'app.cjs')], {
      cwd: work,
      timeoutMs: STEP_MS,
      env: { ...env, CDK_OUTDIR: assembly(variant), CFN_LOCAL_E2E_VARIANT: variant },
    });
    if (result.code !== 0) throw new Error(`synth ${variant} failed: ${result.stderr}`);
  }

  beforeAll(async () => {
    server = await startServer();
    work = mkdtempSync(join(tmpdir(), 'cfn-local-cdk-refactor-'));
    env = clientEnv({
      AWS_ENDPOINT_URL: server.endpoint,
      HOME: work,
      CDK_DISABLE_VERSION_CHECK: '1',
      CDK_DISABLE_CLI_TELEMETRY: 'true',
      AWS_DEFAULT_REGION: 'us-east-1',
      CI: 'true',
    });
    await Promise.all(['', 'moved'].map(synth));
  }, STEP_MS);
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it(
    'cdk refactor moves a construct between two stacks without replacing it',
    async () => {
      ok(await cdk('deploy', '--all', '--app', assembly('')));
      const before = Object.values(await resources('E2eRefA')).find((r) => r.LogicalResourceId!.startsWith('Moved'))!;
      const out = ok(await cdk('refactor', '--unstable=refactor', '--force', '--app', assembly('moved')));
      expect(out).toContain('Stack refactor complete');
      const { StackRefactorSummaries } = await server.client.send(new ListStackRefactorsCommand({}));
      expect(StackRefactorSummaries).toMatchObject([
        { Status: 'CREATE_COMPLETE', ExecutionStatus: 'EXECUTE_COMPLETE' },
      ]);
      expect(Object.keys(await resources('E2eRefA')).some((id) => id.startsWith('Moved'))).toBe(false);
      const after = (await resources('E2eRefB'))[before.LogicalResourceId!];
      expect(after.PhysicalResourceId).toBe(before.PhysicalResourceId);
      for (const StackName of ['E2eRefA', 'E2eRefB']) {
        const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName }));
        expect(Stacks![0].StackStatus).toMatch(/^UPDATE_COMPLETE$/);
      }
    },
    3 * STEP_MS,
  );
});
