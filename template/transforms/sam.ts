// The SAM transform (AWS::Serverless-2016-10-31) through AWS's own translator, in one long-lived Python worker
// started on the first SAM template. A worker that crashes or hangs is killed and the call fails cleanly; the next
// SAM template starts a new one.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/transform-aws-serverless.html
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { validationError } from '../../domain/errors.js';
import { SERVERLESS } from './pending.js';
import { SAM_INSTALL_HINT, WORKER_SOURCE, findSamPython, workerEnv } from './samPython.js';

export interface SamOptions {
  /** The interpreter (--sam-python); by default the first python3 on PATH that can import samtranslator. */
  python?: string;
  /** How long one translation (the worker's start included) may take before the worker is killed. */
  timeoutMs?: number;
  log?: { warn(obj: object, msg?: string): void; info(obj: object, msg?: string): void };
}

/** The translator's answer: the processed template, or AWS's error text without the transform prefix. */
export type SamAnswer = { template: Record<string, unknown> } | { error: string };

interface Waiting {
  resolve: (answer: SamAnswer) => void;
  timer?: NodeJS.Timeout;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** How long Python may take to import the translator before the worker counts as hung. */
const STARTUP_TIMEOUT_MS = 120_000;

export class SamTranslator {
  private worker?: ChildProcess;
  private ready = false;
  private startup?: NodeJS.Timeout;
  private python?: Promise<string | undefined>;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  constructor(private readonly options: SamOptions = {}) {}

  /** Translates one template; refuses with a ValidationError when no interpreter has the translator. */
  async translate(
    template: Record<string, unknown>,
    parameters: Record<string, unknown>,
    region: string,
  ): Promise<SamAnswer> {
    const worker = await this.ensureWorker();
    const id = this.nextId++;
    return new Promise<SamAnswer>((resolve) => {
      const waiting: Waiting = { resolve };
      this.waiting.set(id, waiting);
      if (this.ready) this.startClock(worker, waiting);
      worker.stdin!.write(`${JSON.stringify({ id, template, parameters, region })}\n`);
    });
  }

  /** A translation's time counts from when the worker is ready: Python's start is not the template's fault. */
  private startClock(worker: ChildProcess, waiting: Waiting): void {
    waiting.timer ??= setTimeout(
      () => this.fail(worker, 'did not answer in time'),
      this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
  }

  /** Stops the worker (the server is closing). */
  close(): void {
    if (this.worker) this.fail(this.worker, 'stopped');
  }

  private async ensureWorker(): Promise<ChildProcess> {
    if (this.worker) return this.worker;
    this.python ??= findSamPython(this.options.python);
    const python = await this.python;
    if (!python) {
      this.python = undefined; // look again next time: the user may install it meanwhile
      throw validationError(
        this.options.python
          ? `Transform ${SERVERLESS} failed with: cfn-local's --sam-python ${this.options.python} cannot import samtranslator; install AWS's translator there with \`${SAM_INSTALL_HINT}\`.`
          : `Transform ${SERVERLESS} failed with: cfn-local found no python3 on PATH that can import samtranslator; install AWS's translator with \`${SAM_INSTALL_HINT}\` (or point --sam-python / CFN_LOCAL_SAM_PYTHON at a Python that has it).`,
      );
    }
    // Another call may have started a worker while this one looked for Python.
    return this.current() ?? this.spawn(python);
  }

  private current(): ChildProcess | undefined {
    return this.worker;
  }

  private spawn(python: string): ChildProcess {
    const worker = spawn(python, ['-u', '-c', WORKER_SOURCE], { stdio: ['pipe', 'pipe', 'pipe'], env: workerEnv() });
    this.worker = worker;
    this.ready = false;
    this.startup = setTimeout(() => this.fail(worker, 'did not start in time'), STARTUP_TIMEOUT_MS);
    this.options.log?.info({ python, pid: worker.pid }, 'SAM translator worker started');
    worker.stdin.on('error', () => this.fail(worker, 'closed its input'));
    worker.on('error', (err) => this.fail(worker, `could not start: ${err.message}`));
    worker.on('exit', (code, signal) => this.fail(worker, `exited (${signal ?? `code ${code}`})`));
    let stderr = '';
    worker.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    worker.stderr.on('end', () => {
      if (stderr.trim()) this.options.log?.warn({ stderr: stderr.trim() }, 'SAM translator worker stderr');
    });
    createInterface({ input: worker.stdout }).on('line', (line) => this.answer(worker, line));
    return worker;
  }

  private answer(worker: ChildProcess, line: string): void {
    let reply: { id?: number; template?: Record<string, unknown>; error?: string; ready?: boolean };
    try {
      reply = JSON.parse(line) as typeof reply;
    } catch {
      return this.fail(worker, 'wrote a line that is not JSON');
    }
    if (reply.ready) {
      this.ready = true;
      clearTimeout(this.startup);
      for (const waiting of this.waiting.values()) this.startClock(worker, waiting);
      return;
    }
    const waiting = this.waiting.get(reply.id ?? -1);
    if (!waiting) return;
    this.waiting.delete(reply.id!);
    clearTimeout(waiting.timer);
    waiting.resolve(
      reply.template ? { template: reply.template } : { error: reply.error ?? 'Internal transform failure.' },
    );
  }

  /** Kills a worker that broke and fails every call it held; the next template starts a new one. */
  private fail(worker: ChildProcess, why: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    clearTimeout(this.startup);
    worker.kill('SIGKILL');
    if (why !== 'stopped')
      this.options.log?.warn(
        { pid: worker.pid, why },
        'SAM translator worker failed; it is restarted on the next SAM template',
      );
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.resolve({
        error: `Internal transform failure. (cfn-local: the SAM translator worker ${why}; it is restarted on the next call.)`,
      });
      this.waiting.delete(id);
    }
  }
}
