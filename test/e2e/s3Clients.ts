// The S3 end-to-end tests' clients: the AWS CLI and a python3 with boto3, wherever this machine has them (Debian's
// /usr/bin first, as clients.ts, then a pyenv install), so S3 is exercised by whichever real client is present.
import { existsSync } from 'node:fs';
import { AWS_CLI, PYTHON, run, type Availability } from './clients.js';

const CLI_CANDIDATES = [AWS_CLI, '/root/.pyenv/shims/aws'];
const PYTHON_CANDIDATES = [PYTHON, '/root/.pyenv/shims/python3'];

async function firstWorking(candidates: string[], args: string[]): Promise<{ path?: string; reason: string }> {
  const tried: string[] = [];
  for (const path of candidates) {
    if (!existsSync(path)) {
      tried.push(`${path}: not found`);
      continue;
    }
    const result = await run(path, args).catch((err: Error) => ({ code: -1, stdout: '', stderr: err.message }));
    if (result.code === 0) return { path, reason: `${path}: ${`${result.stdout}${result.stderr}`.trim()}` };
    tried.push(`${path}: ${result.stderr.trim().split('\n').at(-1)}`);
  }
  return { reason: tried.join('; ') };
}

export async function anyAwsCli(): Promise<Availability & { path?: string }> {
  const found = await firstWorking(CLI_CANDIDATES, ['--version']);
  return { ok: found.path !== undefined, reason: found.reason, path: found.path };
}

export async function anyBoto3(): Promise<Availability & { path?: string }> {
  const found = await firstWorking(PYTHON_CANDIDATES, ['-c', 'import boto3; print("boto3", boto3.__version__)']);
  return { ok: found.path !== undefined, reason: found.reason, path: found.path };
}
