// Runs real AWS clients (Debian's AWS CLI v2 and a python3 with boto3) as child processes against a cfn-local endpoint.
// Asynchronous spawns only: the server under test lives in this same process and must keep answering.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPythonWith } from '../../template/transforms/samPython.js';

/** Debian's AWS CLI v2; the `aws` on PATH may be another install (here a pyenv CLI v1), so never rely on PATH. */
export const AWS_CLI = '/usr/bin/aws';
/**
 * A python3 with boto3, found as the SAM translator's Python is: the first python3 on PATH that can import it (a
 * pyenv or venv one with `pip install boto3`, or Debian's with python3-boto3); Debian's when none can, so the
 * skip names it.
 */
export const PYTHON = (await findPythonWith('boto3')) ?? '/usr/bin/python3';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

// A private, empty config home: a developer's ~/.aws (profiles, cli_pager, output) must not change what the tests see.
const CONFIG_HOME = mkdtempSync(join(tmpdir(), 'cfn-local-e2e-aws-'));
const STRIPPED = [
  'AWS_PROFILE',
  'AWS_DEFAULT_PROFILE',
  'AWS_SESSION_TOKEN',
  'AWS_ENDPOINT_URL',
  'AWS_DEFAULT_OUTPUT',
  'AWS_CA_BUNDLE',
];

/** The environment the quick start tells users to set: dummy credentials, a region, no pager. */
export function clientEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of STRIPPED) delete env[name];
  return {
    ...env,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_PAGER: '',
    AWS_CONFIG_FILE: join(CONFIG_HOME, 'config'),
    AWS_SHARED_CREDENTIALS_FILE: join(CONFIG_HOME, 'credentials'),
    ...extra,
  };
}

/** Runs a program to completion; a non-zero exit is a result, not an exception. */
export function run(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? clientEnv(),
        maxBuffer: 16 * 1024 * 1024,
        timeout: options.timeoutMs ?? 60_000,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** `aws --endpoint-url <endpoint> --output json cloudformation <args>`. */
export function awsCloudFormation(endpoint: string, args: string[], cwd?: string): Promise<RunResult> {
  return run(AWS_CLI, ['--endpoint-url', endpoint, '--output', 'json', 'cloudformation', ...args], { cwd });
}

/** Parses a successful CLI call's JSON output; fails the test with the CLI's stderr otherwise. */
export function json<T = any>(result: RunResult): T {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr || result.stdout}`);
  return JSON.parse(result.stdout) as T;
}

export interface Availability {
  ok: boolean;
  reason: string;
}

export async function awsCliAvailable(): Promise<Availability> {
  if (!existsSync(AWS_CLI)) return { ok: false, reason: `${AWS_CLI} not found (apt-get install awscli)` };
  const result = await run(AWS_CLI, ['--version']).catch((err: Error) => ({
    code: -1,
    stdout: '',
    stderr: err.message,
  }));
  const version = `${result.stdout}${result.stderr}`.trim();
  if (result.code !== 0) return { ok: false, reason: `${AWS_CLI} --version failed: ${version}` };
  if (!version.startsWith('aws-cli/2.')) return { ok: false, reason: `${AWS_CLI} is not AWS CLI v2: ${version}` };
  return { ok: true, reason: version };
}

/** An AWS CLI v1 (pip's `awscli`), the `aws` on PATH when it is one: the quick start must work with it too. */
export async function awsCliV1(): Promise<{ cli?: string; availability: Availability }> {
  const found = await run('/bin/sh', ['-c', 'command -v aws']).catch(() => ({ code: 1, stdout: '', stderr: '' }));
  const cli = found.stdout.trim();
  if (!cli) return { availability: { ok: false, reason: 'no aws on PATH (pip install awscli)' } };
  const result = await run(cli, ['--version']).catch((err: Error) => ({ code: -1, stdout: '', stderr: err.message }));
  const version = `${result.stdout}${result.stderr}`.trim();
  if (result.code !== 0 || !version.startsWith('aws-cli/1.'))
    return {
      availability: { ok: false, reason: `${cli} is not AWS CLI v1: ${version.split(' ')[0] || 'no version'}` },
    };
  return { cli, availability: { ok: true, reason: version.split(' ')[0] } };
}

/** Whether `aws --version` output names a CLI that reads AWS_ENDPOINT_URL (v2.13+, v1.29+). */
export function readsEndpointUrl(version: string): boolean {
  const m = /^aws-cli\/(\d+)\.(\d+)\./.exec(version);
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > 2 || (major === 2 && minor >= 13) || (major === 1 && minor >= 29);
}

/**
 * An AWS CLI for the dev-loop tests, which point it at cfn-local with AWS_ENDPOINT_URL alone (`cloudformation deploy
 * --s3-bucket` gives its S3 upload no other endpoint): Debian's, else the one on PATH, whichever reads the variable.
 */
export async function endpointUrlAwsCli(): Promise<{ cli?: string; availability: Availability }> {
  const found = await run('/bin/sh', ['-c', 'command -v aws']).catch(() => ({ code: 1, stdout: '', stderr: '' }));
  const seen: string[] = [];
  for (const cli of [AWS_CLI, found.stdout.trim()].filter((c, i, all) => c && all.indexOf(c) === i && existsSync(c))) {
    const result = await run(cli, ['--version']).catch((err: Error) => ({ code: -1, stdout: '', stderr: err.message }));
    const version = `${result.stdout}${result.stderr}`.trim();
    if (result.code === 0 && readsEndpointUrl(version)) return { cli, availability: { ok: true, reason: version } };
    seen.push(`${cli}: ${version.split(' ')[0] || 'no version'}`);
  }
  return {
    availability: {
      ok: false,
      reason: `no AWS CLI that reads AWS_ENDPOINT_URL (v2.13+ or v1.29+); found ${seen.join(', ') || 'none'}`,
    },
  };
}

/**
 * An AWS CLI whose `cloudformation` has `command`: Debian's CLI v2 when it does, else the `aws` on PATH. Debian's
 * 2.9.19 predates stack refactors and the IaC generator (2.9.19 has no `create-stack-refactor` nor
 * `start-resource-scan`), which a current pip CLI v1 has. `--generate-cli-skeleton` asks without a request.
 */
export async function awsCliWith(command: string): Promise<{ cli?: string; availability: Availability }> {
  const found = await run('/bin/sh', ['-c', 'command -v aws']).catch(() => ({ code: 1, stdout: '', stderr: '' }));
  const seen: string[] = [];
  for (const cli of [AWS_CLI, found.stdout.trim()].filter((c, i, all) => c && all.indexOf(c) === i && existsSync(c))) {
    const version = await run(cli, ['--version']).catch((err: Error) => ({
      code: -1,
      stdout: '',
      stderr: err.message,
    }));
    const name = `${version.stdout}${version.stderr}`.trim().split(' ')[0] || 'no version';
    const has = await run(cli, ['cloudformation', command, '--generate-cli-skeleton']).catch(() => ({ code: -1 }));
    if (has.code === 0) return { cli, availability: { ok: true, reason: `${cli}: ${name}` } };
    seen.push(`${cli}: ${name}`);
  }
  return {
    availability: {
      ok: false,
      reason: `no AWS CLI has cloudformation ${command} (found ${seen.join(', ') || 'none'}; pip install awscli)`,
    },
  };
}

export async function boto3Available(): Promise<Availability> {
  if (!existsSync(PYTHON)) return { ok: false, reason: `${PYTHON} not found` };
  const result = await run(PYTHON, ['-c', 'import boto3; print(boto3.__version__)']).catch((err: Error) => ({
    code: -1,
    stdout: '',
    stderr: err.message,
  }));
  if (result.code !== 0)
    return {
      ok: false,
      reason: `no python3 on PATH can import boto3 (apt-get install python3-boto3 or pip install boto3)`,
    };
  return { ok: true, reason: `boto3 ${result.stdout.trim()}` };
}

/**
 * Decides whether a suite that needs an external client runs. Missing locally: skip, saying why.
 * Missing under CI (process.env.CI set): fail, because .ci/run installs both clients.
 */
export function gate(what: string, availability: Availability): { skip: boolean; title: string } {
  if (availability.ok) return { skip: false, title: `${what} (${availability.reason})` };
  if (process.env.CI) throw new Error(`${what} is required under CI but ${availability.reason}`);
  console.warn(`[cfn-local e2e] skipping ${what}: ${availability.reason}`);
  return { skip: true, title: `${what} — SKIPPED: ${availability.reason}` };
}
