// The command line: every flag with its CFN_LOCAL_* variable and default, in one table that --help prints and
// docs/configuration.md repeats (test/unit/server/options.test.ts keeps the two the same).
import { parseArgs } from 'node:util';

export interface OptionSpec {
  flag: string;
  env: string;
  /** The default as the docs write it; undefined when the setting is simply unset. */
  default?: string;
  help: string;
  /** What a good value looks like, said after the flag's name when a value is not one (undefined: any value). */
  accepts?: (value: string) => string | undefined;
}

const isWhole = (v: string) => /^\d+$/.test(v);
const nonEmpty = (v: string) => (v.trim() === '' ? 'must not be empty' : undefined);
const httpUrl = (v: string) => {
  const url = URL.canParse(v) ? new URL(v) : undefined;
  return url && (url.protocol === 'http:' || url.protocol === 'https:')
    ? undefined
    : 'must be an http:// or https:// URL';
};
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const OPTIONS = [
  {
    flag: 'host',
    env: 'CFN_LOCAL_HOST',
    default: '127.0.0.1',
    help: 'address to listen on (0.0.0.0 in the container)',
    accepts: nonEmpty,
  },
  {
    flag: 'port',
    env: 'CFN_LOCAL_PORT',
    default: '4581',
    help: 'TCP port; 0 picks a free one',
    accepts: (v) => (isWhole(v) && Number(v) <= 65535 ? undefined : 'must be a whole number from 0 to 65535'),
  },
  {
    flag: 'db',
    env: 'CFN_LOCAL_DB',
    default: './.cfn-local/cfn.db',
    help: 'SQLite file; :memory: for a throwaway run',
    accepts: nonEmpty,
  },
  {
    flag: 'account',
    env: 'CFN_LOCAL_ACCOUNT',
    default: '000000000000',
    help: 'account when the access key id is not 12 digits',
    accepts: (v) => (/^\d{12}$/.test(v) ? undefined : 'must be 12 digits'),
  },
  {
    flag: 'region',
    env: 'CFN_LOCAL_REGION',
    default: 'us-east-1',
    help: 'region of requests without a SigV4 credential scope',
    accepts: (v) => (/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/.test(v) ? undefined : 'must be a region name such as us-east-1'),
  },
  {
    flag: 'log-level',
    env: 'CFN_LOCAL_LOG_LEVEL',
    default: 'info',
    help: 'fatal, error, warn, info, debug, trace or silent',
    accepts: (v) => (LOG_LEVELS.includes(v) ? undefined : `must be one of ${LOG_LEVELS.join(', ')}`),
  },
  {
    flag: 'log-format',
    env: 'CFN_LOCAL_LOG_FORMAT',
    default: 'auto',
    help: 'pretty, json, or auto: pretty on a terminal, else json',
    accepts: (v) => (['pretty', 'json', 'auto'].includes(v) ? undefined : 'must be pretty, json or auto'),
  },
  {
    flag: 'endpoint',
    env: 'CFN_LOCAL_ENDPOINT',
    help: 'base URL in wait condition handles and ResponseURLs (default: the listening address)',
    accepts: httpUrl,
  },
  {
    flag: 'custom-resource-timeout',
    env: 'CFN_LOCAL_CUSTOM_RESOURCE_TIMEOUT',
    default: '3600',
    help: 'seconds a custom resource handler may take',
    accepts: (v) => (isWhole(v) && Number(v) > 0 ? undefined : 'must be a whole number of seconds above 0'),
  },
  {
    flag: 'lambda',
    env: 'CFN_LOCAL_LAMBDA',
    default: 'on',
    help: 'on: run nodejs*/python3* function code locally; off (--no-lambda): run none',
    accepts: (v) => (v === 'on' || v === 'off' ? undefined : 'must be on or off'),
  },
  {
    flag: 'lambda-endpoint',
    env: 'CFN_LOCAL_LAMBDA_ENDPOINT',
    help: 'forward Invoke, Lambda ServiceTokens and macros to this Lambda-compatible endpoint instead',
    accepts: httpUrl,
  },
  {
    flag: 'lambda-python',
    env: 'CFN_LOCAL_LAMBDA_PYTHON',
    help: 'the python3 that runs python3* functions (default: the first python3 on PATH)',
    accepts: nonEmpty,
  },
  {
    flag: 'backend',
    env: 'CFN_LOCAL_BACKEND',
    help: "moto (runs moto_server) or an AWS-compatible endpoint's URL: provisions there, proxies other services",
    accepts: (v) =>
      v === 'moto' || httpUrl(v) === undefined ? undefined : 'must be moto or an http:// or https:// URL',
  },
  {
    flag: 'control-token',
    env: 'CFN_LOCAL_CONTROL_TOKEN',
    help: 'when set, /_cfn-local/* needs Authorization: Bearer <token>',
    accepts: nonEmpty,
  },
  {
    flag: 'allow-url-service-tokens',
    env: 'CFN_LOCAL_ALLOW_URL_SERVICE_TOKENS',
    default: 'off',
    help: 'on (--allow-url-service-tokens): POST custom resource requests to http(s) ServiceTokens; off: refuse them as AWS does',
    accepts: (v) => (v === 'on' || v === 'off' ? undefined : 'must be on or off'),
  },
  {
    flag: 'sam-python',
    env: 'CFN_LOCAL_SAM_PYTHON',
    help: 'the python3 that runs the SAM translator (default: the first on PATH that can import samtranslator)',
    accepts: nonEmpty,
  },
] as const satisfies readonly OptionSpec[];

/** Flags given bare, as their on/off value (parseArgs in Node 20 has no negated or optional-value flags). */
const BARE_FLAGS: Record<string, string> = {
  '--no-lambda': '--lambda=off',
  '--allow-url-service-tokens': '--allow-url-service-tokens=on',
};

export type OptionName = (typeof OPTIONS)[number]['flag'];
export type Settings = Record<OptionName, string | undefined>;

export type CommandLine = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; settings: Settings };

/**
 * Flags win over their variables, variables over the defaults. Throws on an unknown flag (parseArgs' own text) and
 * on a bad value, with a message naming the flag or variable.
 */
export function parseCommandLine(args: string[], env: NodeJS.ProcessEnv): CommandLine {
  const options = Object.fromEntries(OPTIONS.map((o) => [o.flag, { type: 'string' as const }]));
  const { values } = parseArgs({
    args: args.map((a) => BARE_FLAGS[a] ?? a),
    options: { ...options, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
  });
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const settings = {} as Settings;
  for (const o of OPTIONS as readonly OptionSpec[]) {
    settings[o.flag as OptionName] =
      ((values as Record<string, unknown>)[o.flag] as string | undefined) ?? (env[o.env] || undefined) ?? o.default;
  }
  checkValues(settings, values);
  return { kind: 'run', settings };
}

/** Throws on the first bad value, naming where it came from: `--port` or `CFN_LOCAL_PORT`. */
function checkValues(settings: Settings, flags: Record<string, unknown>): void {
  for (const o of OPTIONS as readonly OptionSpec[]) {
    const value = settings[o.flag as OptionName];
    const problem = value === undefined ? undefined : o.accepts?.(value);
    if (value === undefined || !problem) continue;
    const source = flags[o.flag] === undefined ? o.env : `--${o.flag}`;
    throw new Error(`${source} ${problem} (got ${JSON.stringify(value.slice(0, 100))})`);
  }
}

/** The --help text: usage, then one row per flag with its variable and default. */
export function helpText(version: string): string {
  const rows: string[][] = [
    ['flag', 'environment variable', 'default', ''],
    ...(OPTIONS as readonly OptionSpec[]).map((o) => [`--${o.flag}`, o.env, o.default ?? '(unset)', o.help]),
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  const table = rows.map((r) =>
    r
      .map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell))
      .join('  ')
      .trimEnd(),
  );
  return [
    `cfn-local ${version}: a local AWS CloudFormation`,
    '',
    'Usage: cfn-local [flags]',
    '',
    'A flag wins over its environment variable, the variable over the default.',
    '',
    ...table.map((line) => `  ${line}`),
    `  ${'-h, --help'.padEnd(widths[0])}  print this help and exit`,
    `  ${'-v, --version'.padEnd(widths[0])}  print the version and exit`,
    '',
    'More: docs/configuration.md',
    '',
  ].join('\n');
}
