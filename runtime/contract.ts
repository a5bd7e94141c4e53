// What AWS Lambda promises a function's process, as cfn-local keeps it: which runtimes run on what, the environment
// variables AWS sets, and the error payloads the Lambda service itself writes (timeouts, crashes, oversize answers).
// https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime
// https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html

export type RuntimeFamily = 'nodejs' | 'python';

/** A runtime identifier's family: every nodejs* runs on this machine's node, every python3* on the python3 found. */
export function familyOf(runtime: string | undefined): RuntimeFamily | undefined {
  if (runtime === undefined) return undefined;
  if (/^nodejs\d/.test(runtime)) return 'nodejs';
  if (/^python3(\.\d+)?$/.test(runtime)) return 'python';
  return undefined;
}

/** Where AWS puts each layer's content for each family, relative to /opt (what NODE_PATH / sys.path include). */
export const LAYER_PATHS: Record<RuntimeFamily, readonly string[]> = {
  nodejs: [
    'nodejs/node_modules',
    'nodejs/node20/node_modules',
    'nodejs/node22/node_modules',
    'nodejs/node18/node_modules',
  ],
  python: ['python'],
};

/** A Python layer's site-packages folder for the interpreter's version: python/lib/python3.x/site-packages. */
export const pythonSitePackages = (minor: string) => `python/lib/python${minor}/site-packages`;

// Invoke's most a synchronous answer may be (the Lambda quotas page: 6 MB each way).
export const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;
// What AWS allows init (on-demand functions) before it gives up on the environment.
export const INIT_TIMEOUT_MS = 10_000;

/** The payloads Lambda writes itself, with its errorType and errorMessage texts. */
export const SERVICE_ERRORS = {
  timedOut: (requestId: string, seconds: number) => ({
    errorType: 'Sandbox.Timedout',
    errorMessage: `RequestId: ${requestId} Error: Task timed out after ${seconds.toFixed(2)} seconds`,
  }),
  exited: (requestId: string, how: string) => ({
    errorType: 'Runtime.ExitError',
    errorMessage: `RequestId: ${requestId} Error: Runtime exited with error: ${how}`,
  }),
  tooLarge: (size: number) => ({
    errorType: 'Function.ResponseSizeTooLarge',
    errorMessage: `Response payload size (${size} bytes) exceeded maximum allowed payload size (${MAX_RESPONSE_BYTES} bytes).`,
  }),
};

export interface FunctionSpec {
  name: string;
  arn: string;
  version: string;
  runtime: string;
  handler: string;
  timeoutS: number;
  memoryMb: number;
  variables: Record<string, string>;
  account: string;
  region: string;
}

export interface EnvironmentTargets {
  /** Where the function's code is unpacked (LAMBDA_TASK_ROOT). */
  taskRoot: string;
  /** host:port/prefix of the Runtime API for this environment. */
  runtimeApi: string;
  /** cfn-local's own endpoint, for AWS_ENDPOINT_URL. */
  endpoint: string;
  /** NODE_PATH or PYTHONPATH entries: the layers' folders, then cfn-local's own modules (the SDK). */
  searchPath: string[];
  /** cfn-local's HTTPS certificate (NODE_EXTRA_CA_CERTS) and a CA bundle that adds it to the system's. */
  tls?: { cert: string; caBundle: string };
  logStream: string;
}

/**
 * The process environment: the function's own variables, then AWS's reserved ones (which the function cannot set),
 * with credentials whose access key is the account id, so every SDK call lands in the function's own account.
 */
export function processEnvironment(fn: FunctionSpec, t: EnvironmentTargets): Record<string, string> {
  const family = familyOf(fn.runtime);
  const inherited = Object.fromEntries(
    ['PATH', 'HOME', 'SYSTEMROOT', 'TMPDIR'].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])),
  );
  return {
    ...inherited,
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    ...fn.variables,
    ...(family === 'nodejs' ? { NODE_PATH: t.searchPath.join(':') } : { PYTHONPATH: t.searchPath.join(':') }),
    ...(t.tls
      ? {
          NODE_EXTRA_CA_CERTS: t.tls.cert,
          SSL_CERT_FILE: t.tls.caBundle,
          REQUESTS_CA_BUNDLE: t.tls.caBundle,
          AWS_CA_BUNDLE: t.tls.caBundle,
        }
      : {}),
    _HANDLER: fn.handler,
    AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
    AWS_REGION: fn.region,
    AWS_DEFAULT_REGION: fn.region,
    AWS_LAMBDA_FUNCTION_NAME: fn.name,
    AWS_LAMBDA_FUNCTION_VERSION: fn.version,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: t.logStream,
    AWS_LAMBDA_RUNTIME_API: t.runtimeApi,
    AWS_ACCESS_KEY_ID: fn.account,
    AWS_SECRET_ACCESS_KEY: 'cfn-local',
    AWS_SESSION_TOKEN: 'cfn-local',
    AWS_ENDPOINT_URL: t.endpoint,
    LAMBDA_TASK_ROOT: t.taskRoot,
    LAMBDA_RUNTIME_DIR: t.taskRoot,
    AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
  };
}
