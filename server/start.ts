// Reads configuration (flags, then CFN_LOCAL_* variables, then defaults: server/options.ts), starts the server,
// prints the banner, closes gracefully. server/main.ts runs it unbundled; dist/cfn-local.cjs from the bundle.
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildApp, type App } from './app.js';
import { helpText, parseCommandLine, type Settings } from './options.js';
import { createLogger, logBanner, logFormatOf } from './logging.js';
import { packageVersion } from './version.js';
import { messageOf } from '../domain/values.js';

export interface Started {
  app: App;
  /** The address the server listens on, e.g. http://127.0.0.1:4581. */
  address: string;
}

/** Starts the server from command-line arguments; resolves once it listens (undefined after --help or --version). */
export async function start(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Started | undefined> {
  const command = parseCommandLine(args, env);
  if (command.kind === 'help') return void process.stdout.write(helpText(packageVersion()));
  if (command.kind === 'version') return void process.stdout.write(`${packageVersion()}\n`);
  return listen(command.settings, env);
}

async function listen(settings: Settings, env: NodeJS.ProcessEnv): Promise<Started> {
  const format = logFormatOf(settings['log-format'], process.stdout.isTTY);
  const logger = createLogger(settings['log-level'] ?? 'info', format, env);
  const db = settings.db!;
  checkWritable(db);
  const customResourceTimeout = settings['custom-resource-timeout'];
  const app = buildApp({
    db,
    defaultAccount: settings.account,
    defaultRegion: settings.region,
    logger,
    endpoint: settings.endpoint,
    customResourceTimeoutMs: customResourceTimeout === undefined ? undefined : Number(customResourceTimeout) * 1000,
    lambdaEndpoint: settings['lambda-endpoint'],
    controlToken: settings['control-token'],
    allowUrlServiceTokens: settings['allow-url-service-tokens'] === 'on',
    samPython: settings['sam-python'],
    backend: settings.backend,
    lambda: settings.lambda !== 'off',
    lambdaPython: settings['lambda-python'],
  });
  try {
    await app.backendStarted;
  } catch (err) {
    await app.close();
    throw err;
  }

  const address = await app.fastify.listen({ host: settings.host, port: Number(settings.port) });
  logBanner(logger, format, { version: packageVersion(), address, db, region: settings.region! });

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      logger.info({ signal }, `cfn-local stopping (${signal})`);
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  return { app, address };
}

/**
 * SQLite only says "unable to open database file": a folder the user cannot write (a bind mount owned by another
 * uid, most often) gets a message that names it, the uid and the way out.
 */
function checkWritable(db: string): void {
  if (db === ':memory:') return;
  const folder = dirname(resolve(db));
  try {
    mkdirSync(folder, { recursive: true });
    accessSync(folder, constants.W_OK);
    if (existsSync(db)) accessSync(db, constants.R_OK | constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new Error(
      `cannot write the database ${db}: ${folder} is not writable by uid ${process.getuid?.()} (${code}); ` +
        'make it writable by that user, or run as its owner (in Docker: --user, see docs/container.md)',
      { cause: err },
    );
  }
}

/** What both entry points run: start from this process's arguments; a start that fails (port taken…) exits 1. */
export function runFromCommandLine(): void {
  start(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`cfn-local: could not start: ${messageOf(err)}\n`);
    process.exit(1);
  });
}
