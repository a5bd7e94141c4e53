// The moto_server child that `--backend moto` runs: started with the server on a private loopback port, waited for
// when a request or a provider first needs it, restarted after a crash, stopped with the server.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { BackendEndpoint } from '../../resources/provider.js';

export const MOTO_MISSING =
  "--backend moto needs moto_server on PATH, which was not found: install it with `pip install 'moto[server]'` " +
  '(or point --backend at a running endpoint, e.g. --backend http://localhost:5000)';

/** How long moto may take to answer its first request (a cold Python start is ~2 s here). */
const READY_TIMEOUT_MS = 30_000;
/** A crash restarts moto after this pause; one that keeps crashing waits longer each time, up to the last entry. */
const RESTART_DELAYS_MS = [100, 500, 2_000, 5_000];

interface Log {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface MotoOptions {
  /** The command (default `moto_server`); tests point it elsewhere to see the missing-moto error. */
  command?: string;
  /** moto's account for requests whose access key it does not know (MOTO_ACCOUNT_ID): cfn-local's default account. */
  account: string;
  log: Log;
}

/**
 * moto runs under a small shell that ends it when cfn-local goes, however it goes: the shell's stdin is a pipe from
 * cfn-local, and a watcher that reads it kills moto at end-of-file (a SIGKILLed cfn-local closes the pipe too). A
 * SIGTERM to the shell (cfn-local's close) is passed on. The shell exits with moto, so a crash is seen as its exit.
 */
const GUARD = [
  'exec 3<&0',
  '"$0" "$@" </dev/null &',
  'm=$!',
  "trap 'kill $m 2>/dev/null; wait $m; exit 143' TERM INT",
  '(read _ <&3; kill $m 2>/dev/null) &',
  'wait $m',
].join('\n');

/** Whether `command` names an executable: a path, or a file on PATH. */
function found(command: string): boolean {
  const candidates = command.includes('/')
    ? [command]
    : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir || '.', command));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** A free loopback port, as the kernel picks one (moto takes it a moment later). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/moto-api/`, { signal: AbortSignal.timeout(1_000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

export class MotoBackend implements BackendEndpoint {
  readonly kind = 'moto' as const;
  private child?: ChildProcess;
  private ready?: Promise<string>;
  private stopped = false;
  private crashes = 0;
  /** How long the last start took until moto answered (bench/ and the log line report it). */
  startupMs?: number;

  constructor(private readonly options: MotoOptions) {}

  /** Starts moto; resolves once the process is spawned (a missing command rejects with MOTO_MISSING). */
  async start(): Promise<void> {
    try {
      await this.spawnMoto();
    } catch (err) {
      this.ready = Promise.reject(err instanceof Error ? err : new Error(String(err)));
      this.ready.catch(() => {});
      throw err;
    }
  }

  private async spawnMoto(): Promise<void> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const started = Date.now();
    const command = this.options.command ?? 'moto_server';
    if (!found(command)) throw new Error(MOTO_MISSING);
    const child = spawn('/bin/sh', ['-c', GUARD, command, '-H', '127.0.0.1', '-p', String(port)], {
      stdio: ['pipe', 'ignore', 'pipe'],
      // AWS's managed policies (AdministratorAccess, AWSLambdaBasicExecutionRole…) exist in every account, and CDK
      // bootstrap and most apps attach them: moto loads them only when asked.
      env: { MOTO_IAM_LOAD_MANAGED_POLICIES: 'true', ...process.env, MOTO_ACCOUNT_ID: this.options.account },
    });
    this.child = child;
    child.stderr.resume();
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (err: NodeJS.ErrnoException) =>
        reject(err.code === 'ENOENT' ? new Error(MOTO_MISSING) : err),
      );
    });
    child.once('exit', (code, signal) => this.exited(child, code, signal));
    this.ready = this.waitReady(url, child, started);
    this.ready.catch(() => {});
  }

  private async waitReady(url: string, child: ChildProcess, started: number): Promise<string> {
    const end = Date.now() + READY_TIMEOUT_MS;
    while (!(await answers(url))) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error('moto_server exited before it answered');
      if (Date.now() > end) throw new Error(`moto_server did not answer within ${READY_TIMEOUT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    this.startupMs = Date.now() - started;
    this.crashes = 0;
    this.options.log.info({ backend: url, startupMs: this.startupMs }, 'moto_server is ready');
    return url;
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    // the watcher of the pipe ends with it
    child.stdin?.destroy();
    if (this.stopped || child !== this.child) return;
    const delay = RESTART_DELAYS_MS[Math.min(this.crashes, RESTART_DELAYS_MS.length - 1)];
    this.crashes += 1;
    this.options.log.warn(
      { code, signal, restartInMs: delay },
      'moto_server exited: restarting it (its state is lost)',
    );
    this.ready = new Promise<void>((r) => setTimeout(r, delay)).then(async () => {
      if (this.stopped) throw new Error('cfn-local is stopping');
      await this.start();
      return this.ready!;
    });
    this.ready.catch(() => {});
  }

  /** moto's base URL, once it answers. */
  url(): Promise<string> {
    if (!this.ready) return Promise.reject(new Error('moto_server was not started'));
    return this.ready;
  }

  /** The running child's pid (tests kill it to see the restart). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async close(): Promise<void> {
    this.stopped = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
    await gone;
    clearTimeout(timer);
  }
}

/** An endpoint that is already running (moto in a container, MiniStack, LocalStack, AWS itself). */
export class UrlBackend implements BackendEndpoint {
  readonly kind = 'url' as const;
  constructor(private readonly base: string) {}
  url(): Promise<string> {
    return Promise.resolve(this.base.replace(/\/+$/, ''));
  }
  async close(): Promise<void> {}
}
