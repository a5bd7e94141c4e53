// The fastify instance: the AWS endpoint (server/dispatch.ts: CloudFormation and the other services) and the control API.
// server/main.ts only reads configuration, listens and closes; tests build the app with buildApp().
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { Store } from '../storage/index.js';
import { Engine } from '../state-machine/engine.js';
import { resumeSetOperations, stopSetOperations } from '../state-machine/stackSets/runner.js';
import { systemClock } from '../state-machine/transitions.js';
import { recoverInterruptedOperations } from '../state-machine/recovery.js';
import { recoverRefactors } from '../state-machine/refactors/create.js';
import { recoverRegistrations } from '../state-machine/registry/register.js';
import { loadSpecs } from '../state-machine/registry/specs.js';
import { Faults } from '../resources/faults.js';
import { HookVerdicts } from '../state-machine/hooks/verdicts.js';
import { configuredHooks } from '../state-machine/hooks/source.js';
import { registerControlApi } from './routes/control.js';
import { registerChangeSetImpact } from './routes/changeSetImpact.js';
import { registerSignalRoutes } from './routes/signalRoutes.js';
import { registerRequestLog } from './requestLog.js';
import { SignalHub } from '../resources/signalHub.js';
import { REAL_TIMERS } from '../resources/timers.js';
import { NestedStacks } from '../state-machine/nestedStacks.js';
import { SamTranslator } from '../template/transforms/sam.js';
import type { TransformServices } from '../state-machine/expansions.js';
import { readS3Url } from '../resources/s3Urls.js';
import type { BackendEndpoint, ProviderEnv } from '../resources/provider.js';
import { openBackend } from './backend/index.js';
import { ESM_TYPE, EventSourcePollers } from '../resources/backend/pollers.js';
import { JSON_CONTENT_TYPE } from './protocol/index.js';
import { registerAwsEndpoint } from './dispatch.js';
import { guardControlApi } from './routes/controlAuth.js';
import { registerConsole } from './routes/console.js';
import { SERVER_TIMEOUTS, checkingInterval, clientErrorHandler, idleConnectionCloser } from './connections.js';
import { LambdaRuntime } from '../runtime/index.js';
import { StepFunctionsRunner } from '../runtime/stepFunctions/executions.js';
import { noteControlRoutes, registerControlFallback } from './routes/controlFallback.js';
import type { AppOptions } from './appOptions.js';

export type { AppOptions } from './appOptions.js';

export interface App {
  fastify: FastifyInstance;
  store: Store;
  engine: Engine;
  faults: Faults;
  /** The backend, when --backend is set; `backendStarted` rejects when it cannot start (moto missing). */
  backend?: BackendEndpoint;
  backendStarted: Promise<void>;
  /** The Lambda runtime (runtime/index.ts): what runs function code; undefined with --no-lambda. */
  lambda?: LambdaRuntime;
  close(): Promise<void>;
}

const BODY_LIMIT = 16 * 1024 * 1024;

export { SERVER_TIMEOUTS } from './connections.js';

/**
 * No route declares a JSON schema: the protocol layer decodes and checks every input against the CloudFormation
 * model itself. Stand-in compilers keep fastify from loading ajv and fast-json-stringify for nothing, which was
 * ~10-15 ms of every start (bench/README.md); one that is ever asked for fails loudly.
 */
const noSchemaCompiler = () => () => {
  throw new Error('cfn-local routes declare no JSON schema');
};
const SCHEMALESS = { compilersFactory: { buildValidator: noSchemaCompiler, buildSerializer: noSchemaCompiler } };

export function buildApp(options: AppOptions = {}): App {
  const log = options.logger === false || options.logger === undefined ? pino({ level: 'silent' }) : options.logger;
  const store = Store.open(options.db ?? ':memory:');
  const faults = new Faults();
  const timers = options.timers ?? REAL_TIMERS;
  let listened = () => {};
  const defaults = { account: options.defaultAccount ?? '000000000000', region: options.defaultRegion ?? 'us-east-1' };
  const { backend, started: backendStarted } = openBackend(options, defaults.account, log);
  const lambda =
    options.lambda === false
      ? undefined
      : new LambdaRuntime(
          {
            store,
            log,
            endpoint: () => providerEnv.endpoint,
            python: options.lambdaPython,
            retryDelaysMs: options.lambdaRetryDelaysMs,
          },
          // Runs only once the server listens, after `fastify` below exists.
          (req, res) => fastify.server.emit('request', req, res),
        );
  const stepFunctions = new StepFunctionsRunner({ invoke: () => lambda && ((req) => lambda.invoke(req)), log });
  // Event source mappings from backend queues are polled into the local functions, as Lambda's pollers do.
  const pollers = backend && new EventSourcePollers(backend, () => lambda, log);
  const providerEnv: ProviderEnv = {
    backend,
    pollers,
    listening: new Promise<void>((resolve) => (listened = resolve)),
    endpoint: options.endpoint,
    signals: new SignalHub(timers, store.waits),
    timers,
    lambdaEndpoint: options.lambdaEndpoint,
    lambda,
    log,
    customResourceTimeoutMs: options.customResourceTimeoutMs ?? 3_600_000,
    allowUrlServiceTokens: options.allowUrlServiceTokens === true,
    signingKey: store.secrets.get('signal-urls'),
  };
  const sam = new SamTranslator({ python: options.samPython, timeoutMs: options.samTimeoutMs, log });
  const transforms: TransformServices = {
    sam,
    lambdaEndpoint: options.lambdaEndpoint,
    lambda,
    readS3: (scope, url) => readS3Url(store, scope, url, 'Location'),
  };
  const engine = new Engine({
    store,
    clock: options.clock ?? systemClock,
    faults,
    hooks: { verdicts: new HookVerdicts(), configured: configuredHooks },
    log,
    providerEnv,
    timeScale: options.timeScale,
    timers,
    transforms,
    nestedStacks: (door) => new NestedStacks(door),
  });
  // registered types' specs first: a resumed operation may deploy them
  loadSpecs(store);
  recoverRegistrations(engine);
  recoverInterruptedOperations(engine);
  resumeSetOperations(engine);
  recoverRefactors(engine);
  let stopping = false;
  // The mappings a restart finds are polled once the server listens: their functions reach it at its endpoint.
  void providerEnv.listening!.then(() => {
    if (!stopping) pollers?.resume(store.world.list({ type: ESM_TYPE }));
  });
  const { headersTimeout, ...timeouts } = { ...SERVER_TIMEOUTS, ...options.timeouts };
  const fastify = Fastify({
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- Fastify's generics need it
    loggerInstance: quieter(log) as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT,
    ...timeouts,
    http: { headersTimeout, connectionsCheckingInterval: checkingInterval({ headersTimeout, ...timeouts }) },
    clientErrorHandler,
    logController: new LogController({ disableRequestLogging: true }),
    schemaController: SCHEMALESS,
  });
  const endIdleConnections = idleConnectionCloser(fastify.server);
  registerRequestLog(fastify, log);
  for (const type of ['application/x-www-form-urlencoded', JSON_CONTENT_TYPE, 'application/json', 'text/plain']) {
    fastify.addContentTypeParser(type, { parseAs: 'string' }, (_req, body, done) => done(null, body));
  }
  // Writes are group-committed (storage/db.ts): an answer leaves once they are committed, so nothing acknowledged
  // is lost, and the answers of one event-loop turn share that commit.
  fastify.addHook('onSend', (_req, _reply, payload, done) => {
    store.afterCommit((err) => (err ? done(err) : done(null, payload)));
  });
  guardControlApi(fastify, options.controlToken);
  const controlRoutes = noteControlRoutes(fastify);
  registerAwsEndpoint(fastify, { store, engine, faults, options, defaults, lambda, backend, stepFunctions });
  registerChangeSetImpact(fastify, { store });
  registerControlApi(fastify, { store, engine, faults, defaults });
  registerConsole(fastify, { store, engine, faults, defaults, backend });
  registerSignalRoutes(fastify, { store, signals: providerEnv.signals, signingKey: providerEnv.signingKey! });
  registerControlFallback(fastify, controlRoutes);
  fastify.addHook('onListen', async () => {
    providerEnv.endpoint ??= listeningUrl(fastify);
    listened();
  });
  return {
    fastify,
    store,
    engine,
    faults,
    backend,
    backendStarted,
    lambda,
    async close() {
      stopping = true;
      listened();
      const closing = fastify.close();
      endIdleConnections();
      await closing;
      await stopSetOperations(engine);
      await engine.idle();
      stepFunctions.close();
      await pollers?.close();
      await backend?.close();
      await lambda?.close();
      sam.close();
      store.close();
    },
  };
}

/**
 * fastify's own info lines ("Server listening at …") repeat the banner and the per-call lines (server/requestLog.ts):
 * it logs from warn up.
 */
const quieter = (log: Logger): Logger => (log.levelVal < 40 ? log.child({}, { level: 'warn' }) : log);

/** `http://host:port` of the listening server; a wildcard host is reached on loopback. */
function listeningUrl(fastify: FastifyInstance): string | undefined {
  const address = fastify.server.address();
  if (!address || typeof address === 'string') return undefined;
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}
