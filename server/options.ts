// The command line: every flag with its CFN_LOCAL_* variable and default, in one table that --help prints and
// docs/configuration.md repeats (test/unit/server/options.test.ts keeps the two the same).
import { parseArgs } from 'node:util';

export interface OptionSpec {
  flag: string;
  env: string;
  /** The default as the docs write it; undefined when the setting is simply unset. */
  default?: string;
  help: string;
}

export const OPTIONS = [
  {
    flag: 'host',
    env: 'CFN_LOCAL_HOST',
    default: '127.0.0.1',
    help: 'address to listen on (0.0.0.0 in the container)',
  },
  { flag: 'port', env: 'CFN_LOCAL_PORT', default: '4581', help: 'TCP port; 0 picks a free one' },
  {
    flag: 'db',
    env: 'CFN_LOCAL_DB',
    default: './.cfn-local/cfn.db',
    help: 'SQLite file; :memory: for a throwaway run',
  },
  {
    flag: 'account',
    env: 'CFN_LOCAL_ACCOUNT',
    default: '000000000000',
    help: 'account when the access key id is not 12 digits',
  },
  {
    flag: 'region',
    env: 'CFN_LOCAL_REGION',
    default: 'us-east-1',
    help: 'region of requests without a SigV4 credential scope',
  },
  {
    flag: 'log-level',
    env: 'CFN_LOCAL_LOG_LEVEL',
    default: 'info',
    help: 'fatal, error, warn, info, debug, trace or silent',
  },
  {
    flag: 'log-format',
    env: 'CFN_LOCAL_LOG_FORMAT',
    default: 'auto',
    help: 'pretty, json, or auto: pretty on a terminal, else json',
  },
  {
    flag: 'endpoint',
    env: 'CFN_LOCAL_ENDPOINT',
    help: 'base URL in wait condition handles and ResponseURLs (default: the listening address)',
  },
  {
    flag: 'custom-resource-timeout',
    env: 'CFN_LOCAL_CUSTOM_RESOURCE_TIMEOUT',
    default: '3600',
    help: 'seconds a custom resource handler may take',
  },
  {
    flag: 'lambda-endpoint',
    env: 'CFN_LOCAL_LAMBDA_ENDPOINT',
    help: 'a Lambda-compatible endpoint for Lambda ServiceTokens',
  },
  {
    flag: 'backend',
    env: 'CFN_LOCAL_BACKEND',
    help: "moto (runs moto_server) or an AWS-compatible endpoint's URL: provisions there, proxies other services",
  },
  {
    flag: 'control-token',
    env: 'CFN_LOCAL_CONTROL_TOKEN',
    help: 'when set, /_cfn-local/* needs Authorization: Bearer <token>',
  },
  {
    flag: 'sam-python',
    env: 'CFN_LOCAL_SAM_PYTHON',
    help: 'the python3 that runs the SAM translator (default: the first on PATH that can import samtranslator)',
  },
] as const satisfies readonly OptionSpec[];

export type OptionName = (typeof OPTIONS)[number]['flag'];
export type Settings = Record<OptionName, string | undefined>;

export type CommandLine = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; settings: Settings };

/** Flags win over their variables, variables over the defaults. Throws on an unknown flag (parseArgs' own text). */
export function parseCommandLine(args: string[], env: NodeJS.ProcessEnv): CommandLine {
  const options = Object.fromEntries(OPTIONS.map((o) => [o.flag, { type: 'string' as const }]));
  const { values } = parseArgs({
    args,
    options: { ...options, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
  });
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const settings = {} as Settings;
  for (const o of OPTIONS as readonly OptionSpec[]) {
    settings[o.flag as OptionName] =
      ((values as Record<string, unknown>)[o.flag] as string | undefined) ?? env[o.env] ?? o.default;
  }
  return { kind: 'run', settings };
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
