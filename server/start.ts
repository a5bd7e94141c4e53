// Reads configuration (flags, then CFN_LOCAL_* variables, then defaults), starts the server, closes gracefully.
// server/main.ts runs it unbundled; dist/cfn-local.cjs runs it from the bundle (server/launcher.cts).
import { parseArgs } from 'node:util';
import pino from 'pino';
import { buildApp, type App } from './app.js';

const HELP = `cfn-local [--host 127.0.0.1] [--port 4581] [--db ./.cfn-local/cfn.db | :memory:] [--account 000000000000] [--region us-east-1] [--log-level info]
          [--endpoint http://host:port] [--custom-resource-timeout 3600] [--lambda-endpoint http://host:port]
          [--control-token SECRET] [--sam-python python3]
Each flag also reads CFN_LOCAL_HOST, CFN_LOCAL_PORT, CFN_LOCAL_DB, CFN_LOCAL_ACCOUNT, CFN_LOCAL_REGION, CFN_LOCAL_LOG_LEVEL,
CFN_LOCAL_ENDPOINT, CFN_LOCAL_CUSTOM_RESOURCE_TIMEOUT (seconds), CFN_LOCAL_LAMBDA_ENDPOINT, CFN_LOCAL_CONTROL_TOKEN,
CFN_LOCAL_SAM_PYTHON.
`;

export interface Started {
  app: App;
  /** The address the server listens on, e.g. http://127.0.0.1:4581. */
  address: string;
}

/** Starts the server from command-line arguments; resolves once it listens (undefined after --help). */
export async function start(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Started | undefined> {
  const { values } = parseArgs({
    args,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      db: { type: 'string' },
      account: { type: 'string' },
      region: { type: 'string' },
      'log-level': { type: 'string' },
      endpoint: { type: 'string' },
      'custom-resource-timeout': { type: 'string' },
      'lambda-endpoint': { type: 'string' },
      'control-token': { type: 'string' },
      'sam-python': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return undefined;
  }

  const host = values.host ?? env.CFN_LOCAL_HOST ?? '127.0.0.1';
  const port = Number(values.port ?? env.CFN_LOCAL_PORT ?? 4581);
  const db = values.db ?? env.CFN_LOCAL_DB ?? './.cfn-local/cfn.db';
  const logger = pino({ level: values['log-level'] ?? env.CFN_LOCAL_LOG_LEVEL ?? 'info' });
  const customResourceTimeout = values['custom-resource-timeout'] ?? env.CFN_LOCAL_CUSTOM_RESOURCE_TIMEOUT;

  const app = buildApp({
    db,
    defaultAccount: values.account ?? env.CFN_LOCAL_ACCOUNT,
    defaultRegion: values.region ?? env.CFN_LOCAL_REGION,
    logger,
    endpoint: values.endpoint ?? env.CFN_LOCAL_ENDPOINT,
    customResourceTimeoutMs: customResourceTimeout === undefined ? undefined : Number(customResourceTimeout) * 1000,
    lambdaEndpoint: values['lambda-endpoint'] ?? env.CFN_LOCAL_LAMBDA_ENDPOINT,
    controlToken: values['control-token'] ?? env.CFN_LOCAL_CONTROL_TOKEN,
    samPython: values['sam-python'] ?? env.CFN_LOCAL_SAM_PYTHON,
  });

  const address = await app.fastify.listen({ host, port });
  logger.info({ address, db }, `cfn-local listening on ${address}`);

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      logger.info({ signal }, 'cfn-local stopping');
      app.close().then(() => process.exit(0), () => process.exit(1));
    });
  }
  return { app, address };
}

/** What both entry points run: start from this process's arguments; a start that fails (port taken…) exits 1. */
export function runFromCommandLine(): void {
  start(process.argv.slice(2)).catch((err: Error) => {
    process.stderr.write(`cfn-local: could not start: ${err.message}\n`);
    process.exit(1);
  });
}
