// Starts the built server (dist/cfn-local.cjs, what npm start and the image run) as a child process on a free port and hands out SDK clients for it.
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** BENCH_MAIN runs another entry instead, e.g. dist/server/main.js (unbundled, readable names in profiles). */
export const MAIN = process.env.BENCH_MAIN ?? join(ROOT, 'dist', 'cfn-local.cjs');

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** A scratch directory for database files, removed by the returned cleanup. */
export function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'cfn-bench-'));
  return { dir, file: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** No retries: an error must show up as an error, not hide behind a backoff. */
export function client(endpoint) {
  return new CloudFormationClient({
    endpoint,
    region: 'us-east-1',
    maxAttempts: 1,
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
  });
}

/** /proc/<pid>/status fields in MB (VmRSS now, VmHWM the peak so far); undefined off Linux. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) the process has used so far, in ms (10 ms resolution); undefined off Linux. */
export function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** BENCH_NODE_ARGS passes flags to every server the harness starts, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof". */
export const nodeArgsFromEnv = () => (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

/**
 * Spawns the server and resolves once DescribeStacks answers; `startupMs` is process start → first answer.
 * Output is kept so the harness can look for SQLITE_BUSY or unexpected failures. `env` adds to the harness's own.
 */
export async function startServer({
  db,
  main = MAIN,
  extraArgs = [],
  nodeArgs = nodeArgsFromEnv(),
  env = {},
  timeoutMs = 15_000,
} = {}) {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...nodeArgs, main, '--port', String(port), '--db', db, '--log-level', 'warn', ...extraArgs],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const cf = client(endpoint);
  for (;;) {
    if (exited) throw new Error(`server exited before answering:\n${output}`);
    try {
      await cf.send(new DescribeStacksCommand({}));
      break;
    } catch (err) {
      if (performance.now() - started > timeoutMs)
        throw new Error(`server did not answer in ${timeoutMs} ms: ${err}\n${output}`, { cause: err });
      await new Promise((r) => setTimeout(r, 1));
    }
  }
  const startupMs = performance.now() - started;
  const startupCpuMs = cpuMsOf(child.pid);
  return {
    pid: child.pid,
    endpoint,
    client: cf,
    startupMs,
    startupCpuMs,
    output: () => output,
    memory: () => memoryOf(child.pid),
    cpuMs: () => cpuMsOf(child.pid),
    /** Sends SIGKILL (no graceful stop: a crash) and waits for the process to be gone. */
    kill: () =>
      new Promise((resolve) => {
        cf.destroy();
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
    /** Sends SIGTERM and waits for the graceful stop. */
    stop: () =>
      new Promise((resolve) => {
        cf.destroy();
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
