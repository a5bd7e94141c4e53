// What buildApp (server/app.ts) is given: the options of one cfn-local app, as server/main.ts reads them from flags
// and variables and tests pass them.
import type { Logger } from 'pino';
import type { Clock } from '../state-machine/transitions.js';
import type { Timers } from '../resources/timers.js';
import type { ServerTimeouts } from './connections.js';

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
  /** A Lambda-compatible endpoint that Invoke, Lambda ServiceTokens and macros are forwarded to (wins over the runtime). */
  lambdaEndpoint?: string;
  /** false: run no function code (--no-lambda); Invoke is refused and Lambda-backed custom resources fail. */
  lambda?: boolean;
  /** The python3 for python3* functions (default: the first python3 on PATH). */
  lambdaPython?: string;
  /** Event invocations' retry delays (default AWS's one and two minutes; tests shorten them). */
  lambdaRetryDelaysMs?: readonly number[];
  /** The Python that runs AWS's SAM translator (default: the first python3 on PATH that can import samtranslator). */
  samPython?: string;
  /** How long one SAM translation may take before its worker is killed and restarted (default 60 s). */
  samTimeoutMs?: number;
  /** When set, /_cfn-local/* (but health and signal URLs) needs this token (server/routes/controlAuth.ts). */
  controlToken?: string;
  /** Whether an http(s) ServiceToken gets the custom resource request POSTed to it (AWS takes only ARNs). */
  allowUrlServiceTokens?: boolean;
  /** The connection timeouts (default SERVER_TIMEOUTS, server/connections.ts; tests shorten them). */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * The AWS-compatible data plane (docs/backend.md): `moto` runs moto_server as a child, a URL uses a running
   * endpoint; unset, every resource is simulated and other services get UnknownService.
   */
  backend?: string;
  /** The command `backend: 'moto'` runs (default moto_server). */
  motoCommand?: string;
  /** The timers of DelayMs and of every wait's timeout (default the real ones; tests pass ones they move by hand). */
  timers?: Timers;
}
