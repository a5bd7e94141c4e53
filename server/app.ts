// The fastify instance: the AWS endpoint (server/dispatch.ts: CloudFormation and the other services) and the control API.
// server/main.ts only reads configuration, listens and closes; tests build the app with buildApp().
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { Store } from '../storage/index.js';
import { Engine } from '../state-machine/engine.js';
import { systemClock, type Clock } from '../state-machine/transitions.js';
import { recoverInterruptedOperations } from '../state-machine/recovery.js';
import { Faults } from '../resources/faults.js';
import { registerControlApi } from './routes/control.js';
import { registerChangeSetImpact } from './routes/changeSetImpact.js';
import { registerSignalRoutes } from './routes/signalRoutes.js';
import { registerRequestLog } from './requestLog.js';
import { SignalHub } from '../resources/signalHub.js';
import { REAL_TIMERS, type Timers } from '../resources/timers.js';
import { SamTranslator } from '../template/transforms/sam.js';
import type { TransformServices } from '../state-machine/expansions.js';
import { readS3Url } from '../resources/s3Urls.js';
import type { ProviderEnv } from '../resources/provider.js';
import { JSON_CONTENT_TYPE } from './protocol/index.js';
import { registerAwsEndpoint } from './dispatch.js';
import { guardControlApi } from './routes/controlAuth.js';
import { registerConsole } from './routes/console.js';

export interface AppOptions {
  db?: string;
  defaultAccount?: string;
  defaultRegion?: string;
  logger?: Logger | false;
  clock?: Clock;
  /** Multiplies AWS durations such as TimeoutInMinutes (tests shrink time with it). */
  timeScale?: number;
  /** The base URL handed out in wait condition handles and ResponseURLs (default: the address the server listens on). */
  endpoint?: string;
  /** How long a custom resource handler may take to answer (default AWS's one hour). */
  customResourceTimeoutMs?: number;
  /** A Lambda-compatible endpoint for Lambda ServiceTokens (unset: they succeed with empty Data). */
  lambdaEndpoint?: string;
  /** The Python that runs AWS's SAM translator (default: the first python3 on PATH that can import samtranslator). */
  samPython?: string;
  /** How long one SAM translation may take before its worker is killed and restarted (default 60 s). */
  samTimeoutMs?: number;
  /** When set, /_cfn-local/* (but health and signal URLs) needs this token (server/routes/controlAuth.ts). */
  controlToken?: string;
  /** The timers of DelayMs and of every wait's timeout (default the real ones; tests pass ones they move by hand). */
  timers?: Timers;
}

export interface App {
  fastify: FastifyInstance;
  store: Store;
  engine: Engine;
  faults: Faults;
  close(): Promise<void>;
}

const BODY_LIMIT = 16 * 1024 * 1024;

/**
 * A slow or idle sender cannot hold a connection forever (fastify turns Node's request timeout off): the whole
 * request within Node's default 300 s, the headers within 60 s, a socket silent for 120 s closed, an idle
 * keep-alive connection kept 72 s (longer than the 60 s idle timeout of AWS's load balancers, as fastify sets it).
 */
export const SERVER_TIMEOUTS = {
  requestTimeout: 300_000,
  connectionTimeout: 120_000,
  keepAliveTimeout: 72_000,
  headersTimeout: 60_000,
};

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
  const providerEnv: ProviderEnv = {
    listening: new Promise<void>((resolve) => (listened = resolve)),
    endpoint: options.endpoint,
    signals: new SignalHub(timers, store.waits),
    timers,
    lambdaEndpoint: options.lambdaEndpoint,
    log,
    customResourceTimeoutMs: options.customResourceTimeoutMs ?? 3_600_000,
    signingKey: store.secrets.get('signal-urls'),
  };
  const sam = new SamTranslator({ python: options.samPython, timeoutMs: options.samTimeoutMs, log });
  const transforms: TransformServices = {
    sam,
    lambdaEndpoint: options.lambdaEndpoint,
    readS3: (scope, url) => readS3Url(store, scope, url, 'Location'),
  };
  const engine = new Engine({
    store,
    clock: options.clock ?? systemClock,
    faults,
    log,
    providerEnv,
    timeScale: options.timeScale,
    timers,
    transforms,
  });
  recoverInterruptedOperations(engine);
  const { headersTimeout, ...timeouts } = SERVER_TIMEOUTS;
  const fastify = Fastify({
    loggerInstance: quieter(log) as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT,
    ...timeouts,
    logController: new LogController({ disableRequestLogging: true }),
    schemaController: SCHEMALESS,
  });
  registerRequestLog(fastify, log);
  for (const type of ['application/x-www-form-urlencoded', JSON_CONTENT_TYPE, 'application/json', 'text/plain']) {
    fastify.addContentTypeParser(type, { parseAs: 'string' }, (_req, body, done) => done(null, body));
  }
  // Writes are group-committed (storage/db.ts): an answer leaves once they are committed, so nothing acknowledged
  // is lost, and the answers of one event-loop turn share that commit.
  fastify.addHook('onSend', (_req, _reply, payload, done) => {
    store.afterCommit((err) => (err ? done(err) : done(null, payload)));
  });
  const defaults = { account: options.defaultAccount ?? '000000000000', region: options.defaultRegion ?? 'us-east-1' };
  guardControlApi(fastify, options.controlToken);
  registerAwsEndpoint(fastify, { store, engine, faults, options, defaults });
  registerChangeSetImpact(fastify, { store });
  registerControlApi(fastify, { store, engine, faults, defaults });
  registerConsole(fastify, { store, engine, faults, defaults });
  registerSignalRoutes(fastify, { store, signals: providerEnv.signals, signingKey: providerEnv.signingKey! });
  fastify.server.headersTimeout = headersTimeout;
  fastify.addHook('onListen', async () => {
    providerEnv.endpoint ??= listeningUrl(fastify);
    listened();
  });
  return {
    fastify,
    store,
    engine,
    faults,
    async close() {
      listened();
      await fastify.close();
      await engine.idle();
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
