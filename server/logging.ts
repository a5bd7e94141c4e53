// The process's logger: readable lines on a terminal (pino-pretty), JSON lines for machines, and the start banner.
import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { PrettyOptions } from 'pino-pretty';

export type LogFormat = 'pretty' | 'json';

/** Keys that readable lines leave out: the message already says what they hold (JSON lines keep them). */
const SAID_IN_THE_MESSAGE = [
  'pid',
  'hostname',
  'call',
  'operation',
  'address',
  'db',
  'version',
  'signal',
  'exportLine',
];

/** `auto` is pretty when stdout is a terminal, JSON otherwise (a pipe, a file, a container's log). */
export function logFormatOf(setting: string | undefined, stdoutIsTty: boolean): LogFormat {
  if (setting === 'pretty' || setting === 'json') return setting;
  if (setting === undefined || setting === 'auto') return stdoutIsTty ? 'pretty' : 'json';
  throw new Error(`--log-format must be pretty, json or auto, not ${JSON.stringify(setting)}`);
}

type PrettyFactory = (options: PrettyOptions) => DestinationStream;

/**
 * pino-pretty, loaded only for a terminal. The build bundles it into dist/pino-pretty.cjs (scripts/bundle.mjs) so
 * the image needs no copy of its dependencies; unbundled runs take it from node_modules.
 */
function loadPretty(): PrettyFactory {
  const require = createRequire(import.meta.url);
  for (const candidate of ['./pino-pretty.cjs', 'pino-pretty']) {
    try {
      const loaded = require(candidate) as PrettyFactory | { default: PrettyFactory };
      return typeof loaded === 'function' ? loaded : loaded.default;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    }
  }
  throw new Error('pino-pretty is missing: use --log-format json');
}

/** A logger writing to stdout in the given format; colours unless NO_COLOR is set to anything but '' (no-color.org). */
export function createLogger(level: string, format: LogFormat, env: NodeJS.ProcessEnv = process.env): Logger {
  if (format === 'json') return pino({ level });
  const pretty = loadPretty()({
    colorize: !env.NO_COLOR,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: SAID_IN_THE_MESSAGE.join(','),
    singleLine: true,
    sync: true,
    destination: 1,
  });
  return pino({ level }, pretty);
}

export interface BannerFacts {
  version: string;
  address: string;
  db: string;
  region: string;
}

/** The URL a client on this machine uses: a wildcard listening address is reached on loopback. */
export function clientUrl(address: string): string {
  return address.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//127.0.0.1:');
}

/** The start banner: one info line, the rest of it shown only on a terminal (JSON lines carry it as fields). */
export function logBanner(log: Logger, format: LogFormat, facts: BannerFacts): void {
  const exportLine = `export AWS_ENDPOINT_URL=${clientUrl(facts.address)} AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=${facts.region} AWS_DEFAULT_REGION=${facts.region}`;
  const first = `cfn-local ${facts.version} listening on ${facts.address}`;
  const fields = { version: facts.version, address: facts.address, db: facts.db, exportLine };
  if (format === 'json') return log.info(fields, first);
  log.info(
    fields,
    [first, `  database: ${facts.db}`, `  point clients at it (any dummy credentials work):`, `    ${exportLine}`].join(
      '\n',
    ),
  );
}
