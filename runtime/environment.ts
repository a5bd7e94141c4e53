// One execution environment: a child process (its own process group) running a bootstrap against the Runtime API,
// given one invocation at a time. It enforces the function's Timeout, kills the whole group on timeout or close,
// and keeps each invocation's log lines. A child that crashes or hangs only ever ends its own invocation.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { INIT_TIMEOUT_MS, SERVICE_ERRORS } from './contract.js';
import type { RuntimeApi, RuntimeApiClient } from './runtimeApi.js';

export interface Invocation {
  requestId: string;
  payload: Buffer;
  invokedArn: string;
  clientContext?: string;
}

export interface Outcome {
  /** The function's answer, or the error document (the runtime's or Lambda's own). */
  payload: Buffer;
  error?: string;
  /** The invocation's log: what the function printed (START/END/REPORT are added by runtime/logs.ts). */
  log: string;
  durationMs: number;
  initDurationMs?: number;
  maxMemoryMb?: number;
}

// What one invocation's log keeps (the tail is what LogType=Tail shows; the server log gets each line as it comes).
const LOG_KEEP = 64 * 1024;
const LOG_LINES = 1000;

export interface EnvironmentOptions {
  command: string;
  args: string[];
  env: (runtimeApi: string) => Record<string, string>;
  cwd: string;
  timeoutMs: number;
  api: RuntimeApi;
  onLine: (line: string) => void;
}

export class Environment implements RuntimeApiClient {
  readonly id = randomUUID();
  lastUsed = Date.now();
  private child?: ChildProcess;
  private parked?: ServerResponse;
  private current?: { inv: Invocation; resolve: (o: Outcome) => void; started?: number; timer?: NodeJS.Timeout };
  private log = '';
  private dead = false;
  private initError?: { body: Buffer; type?: string };
  private readonly spawnedAt = Date.now();
  private initDurationMs?: number;
  private partial = '';

  constructor(private readonly options: EnvironmentOptions) {}

  get alive(): boolean {
    return !this.dead;
  }

  start(): void {
    const { api } = this.options;
    api.register(this.id, this);
    const child = spawn(this.options.command, this.options.args, {
      cwd: this.options.cwd,
      env: this.options.env(api.address(this.id)),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    child.stdout.on('data', (c: Buffer) => this.output(c));
    child.stderr.on('data', (c: Buffer) => this.output(c));
    child.on('error', (err) => this.died(`spawn ${this.options.command}: ${err.message}`));
    child.on('exit', (code, signal) =>
      this.died(signal ? `signal: ${signal === 'SIGKILL' ? 'killed' : signal}` : `exit status ${code}`),
    );
  }

  /** Runs one invocation; the environment must be idle (runtime/pool.ts hands out one invocation at a time). */
  invoke(inv: Invocation): Promise<Outcome> {
    this.lastUsed = Date.now();
    return new Promise((resolve) => {
      this.current = { inv, resolve };
      if (this.dead) return this.finish(this.deathPayload(inv, 'exit status 1'));
      // Init and the invocation share one guard: AWS's init allowance, then the function's Timeout.
      const guard = this.parked ? this.options.timeoutMs : INIT_TIMEOUT_MS + this.options.timeoutMs;
      this.current.timer = setTimeout(() => this.timedOut(), guard);
      if (this.parked) this.deliver();
    });
  }

  /** Kills the process group: the bootstrap and anything the function started. */
  kill(): void {
    this.dead = true;
    this.options.api.unregister(this.id);
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }

  next(res: ServerResponse): void {
    this.initDurationMs ??= Date.now() - this.spawnedAt;
    this.parked = res;
    if (this.current && this.current.started === undefined) this.deliver();
  }

  respond(requestId: string, body: Buffer, tooLarge?: number): void {
    if (this.current?.inv.requestId !== requestId) return;
    if (tooLarge !== undefined) return this.finish(json(SERVICE_ERRORS.tooLarge(tooLarge)), 'Unhandled');
    this.finish(body);
  }

  fail(requestId: string, body: Buffer): void {
    if (this.current?.inv.requestId === requestId) this.finish(body, 'Unhandled');
  }

  initFailed(body: Buffer, type: string | undefined): void {
    this.initError = { body, type };
  }

  private deliver(): void {
    const res = this.parked!;
    const { inv } = this.current!;
    this.parked = undefined;
    this.current!.started = Date.now();
    clearTimeout(this.current!.timer);
    this.current!.timer = setTimeout(() => this.timedOut(), this.options.timeoutMs);
    res.writeHead(200, {
      'content-type': 'application/json',
      'lambda-runtime-aws-request-id': inv.requestId,
      'lambda-runtime-deadline-ms': String(Date.now() + this.options.timeoutMs),
      'lambda-runtime-invoked-function-arn': inv.invokedArn,
      'lambda-runtime-trace-id': `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)};Sampled=0`,
      ...(inv.clientContext ? { 'lambda-runtime-client-context': inv.clientContext } : {}),
    });
    res.end(inv.payload);
  }

  private timedOut(): void {
    const cur = this.current;
    if (!cur) return;
    this.kill();
    const payload = json(SERVICE_ERRORS.timedOut(cur.inv.requestId, this.options.timeoutMs / 1000));
    this.finish(payload, 'Unhandled');
  }

  private died(how: string): void {
    const wasDead = this.dead;
    this.dead = true;
    this.options.api.unregister(this.id);
    this.parked?.destroy();
    this.parked = undefined;
    if (!wasDead && this.current) this.finish(this.deathPayload(this.current.inv, how), 'Unhandled');
  }

  private deathPayload(inv: Invocation, how: string): Buffer {
    return this.initError?.body.length ? this.initError.body : json(SERVICE_ERRORS.exited(inv.requestId, how));
  }

  // A function that floods its output costs the server one bounded append per chunk, and at most LOG_LINES lines
  // of the server's log per invocation (then one line saying how many were left out).
  private output(chunk: Buffer): void {
    const text = (this.partial + chunk.toString('utf8')).slice(-LOG_KEEP);
    const end = text.lastIndexOf('\n');
    this.partial = text.slice(end + 1);
    if (end < 0) return;
    const complete = text.slice(0, end + 1);
    this.log = (this.log + complete).slice(-LOG_KEEP);
    for (const line of complete.slice(0, -1).split('\n')) {
      if (this.logged++ < LOG_LINES) this.options.onLine(line);
    }
  }

  private logged = 0;

  private finish(payload: Buffer, error?: string): void {
    const cur = this.current;
    if (!cur) return;
    this.current = undefined;
    clearTimeout(cur.timer);
    const memory = this.maxMemoryMb();
    // Output the function wrote just before answering may still be in the pipe: read it first.
    setImmediate(() => {
      const log = this.log;
      if (this.logged > LOG_LINES) this.options.onLine(`(${this.logged - LOG_LINES} more lines of output not logged)`);
      this.log = '';
      this.logged = 0;
      cur.resolve({
        payload,
        error,
        log,
        durationMs: cur.started === undefined ? 0 : Date.now() - cur.started,
        initDurationMs: this.takeInitDuration(),
        maxMemoryMb: memory,
      });
    });
  }

  private reportedInit = false;
  private takeInitDuration(): number | undefined {
    if (this.reportedInit) return undefined;
    this.reportedInit = true;
    return this.initDurationMs;
  }

  /** The peak resident size of the bootstrap process (Linux's VmHWM), as REPORT's Max Memory Used. */
  private maxMemoryMb(): number | undefined {
    try {
      const status = readFileSync(`/proc/${this.child?.pid}/status`, 'utf8');
      const kb = /VmHWM:\s+(\d+)/.exec(status)?.[1];
      return kb ? Math.ceil(Number(kb) / 1024) : undefined;
    } catch {
      return undefined;
    }
  }
}

const json = (value: object) => Buffer.from(JSON.stringify(value));
