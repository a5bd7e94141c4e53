// One Invoke, as Lambda answers it: the function and qualifier resolved to a configuration and code, the payload
// checked, then DryRun (204), Event (202, run in the background with Lambda's two retries) or RequestResponse
// (200 with the function's answer, X-Amz-Function-Error, X-Amz-Log-Result, X-Amz-Executed-Version).
// https://docs.aws.amazon.com/lambda/latest/api/API_Invoke.html
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from '../storage/index.js';
import type { WorldResource } from '../storage/world.js';
import { ServiceError } from '../domain/serviceErrors.js';
import { findFunction, type LambdaContext } from '../handlers/lambda/functions.js';
import { qualifiedCode } from '../handlers/lambda/versions.js';
import {
  LAYER_PATHS,
  familyOf,
  processEnvironment,
  pythonSitePackages,
  type FunctionSpec,
  type RuntimeFamily,
} from './contract.js';
import { layerSources, sourceOf, type CodeCache } from './code.js';
import { Environment, type Outcome } from './environment.js';
import { MAX_ENVIRONMENTS, type Pool } from './pool.js';
import type { RuntimeApi } from './runtimeApi.js';
import type { Python } from './python.js';
import type { TlsDoor } from './tls.js';
import { invocationLog, logTail } from './logs.js';
import { canMountOpt, withOpt } from './optMount.js';

export interface InvokeRequest {
  account: string;
  region: string;
  /** A name, a partial ARN or an ARN, with or without `:qualifier`. */
  functionName: string;
  qualifier?: string;
  payload?: Buffer | string;
  invocationType?: 'RequestResponse' | 'Event' | 'DryRun';
  logType?: 'None' | 'Tail';
  /** X-Amz-Client-Context: base64 of a JSON document. */
  clientContext?: string;
}

export interface InvokeResult {
  statusCode: number;
  payload: Buffer;
  /** X-Amz-Function-Error */
  functionError?: string;
  /** X-Amz-Log-Result (LogType=Tail): base64 of the log's last 4 KB. */
  logTail?: string;
  /** X-Amz-Executed-Version */
  executedVersion?: string;
  requestId: string;
}

export interface RuntimeParts {
  store: Store;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  api: RuntimeApi;
  pool: Pool;
  code: CodeCache;
  folder: string;
  endpoint: string;
  python: () => Promise<Python | undefined>;
  tls: () => Promise<TlsDoor | undefined>;
  retryDelaysMs: readonly number[];
  track: (p: Promise<unknown>) => void;
}

interface Prepared {
  row: WorldResource;
  spec: FunctionSpec;
  family: RuntimeFamily;
  code: ReturnType<typeof qualifiedCode>;
  layers: string[];
}

const userError = (code: string, message: string, status: number) =>
  new ServiceError(code, message, status, { Type: 'User' });

export const RUNTIME_REASONS = {
  unsupported: (fn: string, runtime: string) =>
    `cfn-local runs nodejs* and python3* functions itself, and function ${fn} uses ${runtime}: start cfn-local with --lambda-endpoint <url> (CFN_LOCAL_LAMBDA_ENDPOINT) to forward its invocations to a Lambda-compatible runtime such as \`sam local start-lambda\`.`,
  noPython: (fn: string, runtime: string) =>
    `cfn-local found no python3 to run function ${fn} (${runtime}): install python3, or point --lambda-python (CFN_LOCAL_LAMBDA_PYTHON) at one.`,
};

function prepare(parts: RuntimeParts, req: InvokeRequest): Prepared {
  const ctx: LambdaContext = {
    store: parts.store,
    caller: { account: req.account, region: req.region },
    now: new Date(),
  };
  const { row, qualifier } = findFunction(ctx, req.functionName);
  const code = qualifiedCode(ctx, row, req.qualifier ?? qualifier);
  const c = code.configuration;
  const runtime = c.PackageType === 'Image' ? 'a container image' : String(c.Runtime ?? 'no runtime');
  const family = c.PackageType === 'Image' ? undefined : familyOf(String(c.Runtime));
  if (!family)
    throw new ServiceError('InvalidRuntimeException', RUNTIME_REASONS.unsupported(row.physicalId, runtime), 502, {
      Type: 'User',
    });
  const variables = (c.Environment as { Variables?: Record<string, string> } | undefined)?.Variables ?? {};
  const spec: FunctionSpec = {
    name: row.physicalId,
    arn: String(c.FunctionArn),
    version: String(c.Version),
    runtime: String(c.Runtime),
    handler: String(c.Handler ?? 'index.handler'),
    timeoutS: Number(c.Timeout ?? 3),
    memoryMb: Number(c.MemorySize ?? 128),
    variables: Object.fromEntries(Object.entries(variables)),
    account: req.account,
    region: req.region,
  };
  const layers = ((c.Layers as { Arn: string }[] | undefined) ?? []).map((l) => l.Arn);
  return { row, spec, family, code, layers };
}

function checkPayload(req: InvokeRequest): Buffer {
  const payload = req.payload === undefined ? Buffer.alloc(0) : Buffer.from(req.payload);
  if (payload.length > 6 * 1024 * 1024)
    throw userError(
      'RequestTooLargeException',
      'Request must be smaller than 6291456 bytes for the InvokeFunction operation',
      413,
    );
  if (payload.length === 0) return Buffer.from('{}');
  try {
    JSON.parse(payload.toString('utf8'));
  } catch (err) {
    throw userError(
      'InvalidRequestContentException',
      `Could not parse request body into json: ${(err as Error).message}`,
      400,
    );
  }
  return payload;
}

export async function runInvocation(parts: RuntimeParts, req: InvokeRequest): Promise<InvokeResult> {
  const prepared = prepare(parts, req);
  const payload = checkPayload(req);
  const requestId = randomUUID();
  const type = req.invocationType ?? 'RequestResponse';
  if (type === 'DryRun') return { statusCode: 204, payload: Buffer.alloc(0), requestId };
  if (type === 'Event') {
    parts.track(runAsync(parts, prepared, payload, requestId));
    return { statusCode: 202, payload: Buffer.alloc(0), requestId };
  }
  const clientContext = req.clientContext ? Buffer.from(req.clientContext, 'base64').toString('utf8') : undefined;
  const { outcome, log } = await execute(parts, prepared, payload, requestId, clientContext);
  return {
    statusCode: 200,
    payload: outcome.payload,
    functionError: outcome.error,
    logTail: req.logType === 'Tail' ? logTail(log) : undefined,
    executedVersion: prepared.spec.version,
    requestId,
  };
}

// Lambda's asynchronous invocation: a function error is retried twice, after one and then two minutes.
async function runAsync(parts: RuntimeParts, prepared: Prepared, payload: Buffer, requestId: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { outcome } = await execute(parts, prepared, payload, requestId);
      if (!outcome.error || attempt >= parts.retryDelaysMs.length) return;
    } catch (err) {
      parts.log.warn(
        { function: prepared.spec.name, requestId, err: (err as Error).message },
        'lambda: asynchronous invocation failed',
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, parts.retryDelaysMs[attempt]).unref());
  }
}

async function execute(
  parts: RuntimeParts,
  p: Prepared,
  payload: Buffer,
  requestId: string,
  clientContext?: string,
): Promise<{ outcome: Outcome; log: string }> {
  const { spec } = p;
  const python = p.family === 'python' ? await parts.python() : undefined;
  if (p.family === 'python' && !python)
    throw new ServiceError('InvalidRuntimeException', RUNTIME_REASONS.noPython(spec.name, spec.runtime), 502, {
      Type: 'User',
    });
  const [taskRoot, opt, tls, mountOpt] = await Promise.all([
    parts.code.folder(spec.account, p.family, sourceOf(p.code.code, p.code.zip)),
    parts.code.layers(spec.account, layerSources(parts.store, p.row, p.layers)),
    parts.tls(),
    p.layers.length > 0 ? canMountOpt() : false,
  ]);
  const prefix = `${spec.arn}:${spec.version}`;
  const key = `${prefix}|${taskRoot}|${opt ?? ''}|${createHash('sha256').update(JSON.stringify(spec)).digest('hex')}`;
  let env = parts.pool.take(prefix, key);
  if (!env) {
    if (parts.pool.size >= MAX_ENVIRONMENTS)
      throw new ServiceError('TooManyRequestsException', 'Rate Exceeded.', 429, {
        Type: 'User',
        Reason: 'ConcurrentInvocationLimitExceeded',
      });
    env = startEnvironment(parts, p, { taskRoot, opt, tls, python, mountOpt });
    parts.pool.add(env);
  }
  const outcome = await env.invoke({ requestId, payload, invokedArn: spec.arn, clientContext });
  parts.pool.release(key, env);
  const log = invocationLog(requestId, spec.version, spec.memoryMb, outcome);
  parts.log.info(
    {
      function: spec.name,
      version: spec.version,
      requestId,
      durationMs: Math.round(outcome.durationMs),
      functionError: outcome.error,
    },
    `lambda ${spec.name} ${outcome.error ? `failed (${errorTypeOf(outcome.payload)})` : 'answered'} in ${outcome.durationMs.toFixed(0)} ms`,
  );
  return { outcome, log };
}

const errorTypeOf = (payload: Buffer) => {
  try {
    return (JSON.parse(payload.toString('utf8')) as { errorType?: string }).errorType ?? 'error';
  } catch {
    return 'error';
  }
};

/**
 * Where functions find the AWS SDK for JavaScript v3, as Lambda's Node.js runtimes include it: cfn-local's own
 * node_modules (an npm install, the sources), else the clients bundled beside the server (dist/lambda-sdk, the image).
 */
function ownNodeModules(): string[] {
  return ['../node_modules', '../../node_modules', './lambda-sdk', '../lambda-sdk']
    .map((rel) => fileURLToPath(new URL(rel, import.meta.url)))
    .filter((dir) => existsSync(join(dir, '@aws-sdk')));
}

function startEnvironment(
  parts: RuntimeParts,
  p: Prepared,
  where: { taskRoot: string; opt?: string; tls?: TlsDoor; python?: Python; mountOpt: boolean },
): Environment {
  const { spec } = p;
  const opt = where.opt;
  const layerDirs = (paths: readonly string[]) => (opt ? paths.map((rel) => join(opt, rel)) : []);
  const searchPath =
    p.family === 'nodejs'
      ? [
          ...layerDirs([`nodejs/node${process.versions.node.split('.')[0]}/node_modules`, ...LAYER_PATHS.nodejs]),
          ...ownNodeModules(),
        ]
      : layerDirs([pythonSitePackages(where.python!.version), ...LAYER_PATHS.python]);
  const direct =
    p.family === 'nodejs'
      ? { command: process.execPath, args: [join(parts.folder, 'bootstrap.cjs')] }
      : { command: where.python!.executable, args: ['-u', join(parts.folder, 'bootstrap.py')] };
  const { command, args } = opt && where.mountOpt ? withOpt(direct.command, direct.args) : direct;
  const env = new Environment({
    command,
    args,
    cwd: where.taskRoot,
    timeoutMs: spec.timeoutS * 1000,
    api: parts.api,
    env: (runtimeApi) => ({
      ...processEnvironment(spec, {
        taskRoot: where.taskRoot,
        runtimeApi,
        endpoint: parts.endpoint,
        searchPath: [...new Set(searchPath)],
        tls: where.tls,
        logStream: `${new Date().toISOString().slice(0, 10).replace(/-/g, '/')}/[${spec.version}]${randomUUID().replace(/-/g, '')}`,
      }),
      PYTHONUNBUFFERED: '1',
      ...(p.family === 'nodejs' && where.tls ? tlsPreload(parts.folder, where.tls, spec.variables.NODE_OPTIONS) : {}),
      ...(opt ? { CFN_LOCAL_LAMBDA_OPT: opt } : {}),
    }),
    onLine: (line) => parts.log.info({ function: spec.name }, line),
  });
  env.start();
  return env;
}

/** NODE_OPTIONS that preload the ResponseURL port fix (runtime/bootstrapNode.ts TLS_PORT_PRELOAD). */
function tlsPreload(folder: string, tls: TlsDoor, own: string | undefined): Record<string, string> {
  const preload = `--require ${join(folder, 'tls-port.cjs')}`;
  return {
    NODE_OPTIONS: own ? `${preload} ${own}` : preload,
    CFN_LOCAL_RESPONSE_URL_PORT: new URL(tls.base).port,
  };
}
