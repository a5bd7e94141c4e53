// The Lambda runtime: the one way function code runs in cfn-local. Invoke (server/services/lambda.ts), custom
// resources (resources/customResources.ts), macros (template/transforms/macros.ts) and event source mappings all
// call LambdaRuntime.invoke; it finds the function, unpacks its code (runtime/code.ts), takes a warm environment or
// starts one (runtime/pool.ts, runtime/environment.ts) and answers as Lambda's Invoke does. docs/lambda-runtime.md
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store } from '../storage/index.js';
import { CodeCache } from './code.js';
import { NODE_BOOTSTRAP, TLS_PORT_PRELOAD } from './bootstrapNode.js';
import { PYTHON_BOOTSTRAP } from './bootstrapPython.js';
import { findLambdaPython, type Python } from './python.js';
import { RuntimeApi } from './runtimeApi.js';
import { Pool } from './pool.js';
import { openTlsDoor, type TlsDoor } from './tls.js';
import { runInvocation, type InvokeRequest, type InvokeResult, type RuntimeParts } from './invoke.js';
import { claimFolder, RUNTIME_FOLDER_PREFIX, sweepLeftoverFolders } from './leftovers.js';

export type { InvokeRequest, InvokeResult } from './invoke.js';

export interface RuntimeOptions {
  store: Store;
  log: RuntimeParts['log'];
  /** cfn-local's own URL (AWS_ENDPOINT_URL of every function), known once the server listens. */
  endpoint: () => string | undefined;
  /** --lambda-python: the interpreter for python3* functions (default: the first python3 on PATH). */
  python?: string;
  /** Event invocations' retry delays after a function error (AWS: one minute, then two). */
  retryDelaysMs?: readonly number[];
  /** How long an idle environment is kept. */
  idleMs?: number;
}

export class LambdaRuntime {
  private readonly folder = mkdtempSync(join(tmpdir(), RUNTIME_FOLDER_PREFIX));
  private readonly api = new RuntimeApi();
  private readonly pool: Pool;
  private readonly code: CodeCache;
  private python?: Promise<Python | undefined>;
  private tls?: Promise<TlsDoor | undefined>;
  private closed = false;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly options: RuntimeOptions,
    /** cfn-local's request handler, served again over HTTPS for ResponseURLs (set by server/app.ts). */
    private readonly handler?: (req: IncomingMessage, res: ServerResponse) => void,
  ) {
    claimFolder(this.folder);
    sweepLeftoverFolders(tmpdir());
    this.pool = new Pool(options.idleMs);
    this.code = new CodeCache(join(this.folder, 'code'), options.store);
    writeFileSync(join(this.folder, 'bootstrap.cjs'), NODE_BOOTSTRAP);
    writeFileSync(join(this.folder, 'bootstrap.py'), PYTHON_BOOTSTRAP);
    writeFileSync(join(this.folder, 'tls-port.cjs'), TLS_PORT_PRELOAD);
  }

  /** Runs the function as Lambda's Invoke does: RequestResponse (200), Event (202, run later, retried), DryRun (204). */
  async invoke(req: InvokeRequest): Promise<InvokeResult> {
    if (this.closed) throw new Error('the Lambda runtime is closed');
    await this.api.start();
    const parts: RuntimeParts = {
      store: this.options.store,
      log: this.options.log,
      api: this.api,
      pool: this.pool,
      code: this.code,
      folder: this.folder,
      endpoint: this.options.endpoint() ?? 'http://127.0.0.1:4581',
      python: () => (this.python ??= findLambdaPython(this.options.python)),
      tls: () => this.httpsDoor(),
      retryDelaysMs: this.options.retryDelaysMs ?? [60_000, 120_000],
      track: (p) => {
        this.pending.add(p);
        void p.finally(() => this.pending.delete(p));
      },
    };
    return runInvocation(parts, req);
  }

  /** https://127.0.0.1:<port>, serving cfn-local's routes (undefined without openssl or a handler). */
  async httpsBase(): Promise<string | undefined> {
    return (await this.httpsDoor())?.base;
  }

  /** How many environments are alive (bench/, tests). */
  get environments(): number {
    return this.pool.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pool.closeAll();
    await this.api.close();
    const door = await this.tls;
    if (door) {
      door.server.closeAllConnections();
      await new Promise<void>((resolve) => door.server.close(() => resolve()));
    }
    rmSync(this.folder, { recursive: true, force: true });
  }

  private httpsDoor(): Promise<TlsDoor | undefined> {
    const handler = this.handler;
    if (!handler) return Promise.resolve(undefined);
    this.tls ??= openTlsDoor(this.folder, handler).then((door) => {
      if (!door) this.options.log.warn({}, 'lambda: openssl not found; custom resource ResponseURLs stay http');
      return door;
    });
    return this.tls;
  }
}
