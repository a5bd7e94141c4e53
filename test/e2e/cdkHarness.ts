// What the CDK CLI end-to-end tests share: a private work folder and client environment pointed at one cfn-local
// endpoint (AWS_ENDPOINT_URL only), the CLI itself, and the synthesis of a fixture app into a named cloud assembly.
// Assemblies are synthesized up front and deployed with --app <assembly>: each deploy then costs one CLI start.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DescribeStacksCommand, type CloudFormationClient, type Stack } from '@aws-sdk/client-cloudformation';
import { clientEnv, run, type RunResult } from './clients.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CDK = join(ROOT, 'node_modules', '.bin', 'cdk');
export const REGION = 'us-east-1';
export const ACCOUNT = '000000000000';
// Each CDK start loads the CLI and, for synthesis, aws-cdk-lib: seconds each on a loaded machine.
export const STEP_MS = 240_000;

export interface CdkHarness {
  /** The fixture app's folder. */
  app: string;
  work: string;
  env: NodeJS.ProcessEnv;
  /** The folder of a synthesized variant. */
  assembly(variant: string): string;
  /** `cdk <args> --no-notices --ci --require-approval never`, in the work folder. */
  cdk(...args: string[]): Promise<RunResult>;
  /** Runs the fixture's app.cjs into assembly(variant), with CFN_LOCAL_E2E_VARIANT=variant and `extra`. */
  synth(variant: string, extra?: Record<string, string>): Promise<void>;
  stack(name: string): Promise<Stack>;
}

/** stdout and stderr of a run, together (the CDK prints its progress on stderr). */
export const output = (result: RunResult) => `${result.stdout}${result.stderr}`;

/** The run's output, or an error with it when the CLI failed. */
export function ok(result: RunResult): string {
  if (result.code !== 0) throw new Error(`cdk exited ${result.code}:\n${result.stderr}\n${result.stdout}`);
  return output(result);
}

export function cdkHarness(options: {
  /** The fixture app's folder under test/e2e/fixtures/. */
  app: string;
  endpoint: string;
  client: CloudFormationClient;
}): CdkHarness {
  const app = fileURLToPath(new URL(`./fixtures/${options.app}/`, import.meta.url));
  const work = mkdtempSync(join(tmpdir(), `cfn-local-${options.app}-`));
  const env = clientEnv({
    AWS_ENDPOINT_URL: options.endpoint,
    HOME: work,
    CDK_DISABLE_VERSION_CHECK: '1',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    AWS_DEFAULT_REGION: REGION,
    CI: 'true',
  });
  const assembly = (variant: string) => join(work, `cdk.out.${variant || 'base'}`);
  return {
    app,
    work,
    env,
    assembly,
    cdk: (...args) =>
      run(CDK, [...args, '--no-notices', '--ci', '--require-approval', 'never'], {
        cwd: work,
        env,
        timeoutMs: STEP_MS,
      }),
    async synth(variant, extra = {}) {
      const result = await run(process.execPath, [join(app, 'app.cjs')], {
        cwd: work,
        timeoutMs: STEP_MS,
        env: {
          ...env,
          CDK_OUTDIR: assembly(variant),
          CDK_DEFAULT_ACCOUNT: ACCOUNT,
          CDK_DEFAULT_REGION: REGION,
          CFN_LOCAL_E2E_VARIANT: variant,
          ...extra,
        },
      });
      if (result.code !== 0) throw new Error(`synth ${variant || 'base'} failed: ${result.stderr}`);
    },
    stack: async (name) => (await options.client.send(new DescribeStacksCommand({ StackName: name }))).Stacks![0],
  };
}
