// server/options.ts: the flags table that --help prints is the one docs/configuration.md shows, and flags win
// over variables, variables over defaults.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { OPTIONS, helpText, parseCommandLine } from '../../../server/options.js';

const DOC = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');

/** The docs table's rows for long flags: [flag, variable, default]. */
function documented(): string[][] {
  const unquote = (cell: string) => cell.trim().replace(/^`|`$/g, '');
  return DOC.split('\n')
    .filter((line) => line.startsWith('| `--') && !line.includes('`--help`') && !line.includes('`--version`'))
    .map((line) => line.split('|').slice(1, 4).map(unquote));
}

describe('the flags', () => {
  it('docs/configuration.md lists every flag with the variable and default --help prints', () => {
    expect(documented()).toEqual(OPTIONS.map((o) => [`--${o.flag}`, o.env, 'default' in o ? o.default : '(unset)']));
  });

  it('--help has one row per flag', () => {
    const help = helpText('1.2.3');
    for (const o of OPTIONS) expect(help).toContain(`--${o.flag}`);
    expect(help).toContain('--version');
  });

  it('a flag wins over its variable, a variable over the default', () => {
    const parsed = parseCommandLine(['--port', '1'], { CFN_LOCAL_PORT: '2', CFN_LOCAL_DB: 'x.db' });
    expect(parsed).toMatchObject({
      kind: 'run',
      settings: { port: '1', db: 'x.db', host: '127.0.0.1', 'log-format': 'auto' },
    });
  });

  it('refuses an unknown flag', () => {
    expect(() => parseCommandLine(['--nope'], {})).toThrow("Unknown option '--nope'");
  });

  it.each([
    ['port', 'abc', 'must be a whole number from 0 to 65535'],
    ['port', '65536', 'must be a whole number from 0 to 65535'],
    ['host', ' ', 'must not be empty'],
    ['db', '', 'must not be empty'],
    ['account', '12345', 'must be 12 digits'],
    ['region', 'Mars', 'must be a region name such as us-east-1'],
    ['log-level', 'loud', 'must be one of fatal, error, warn, info, debug, trace, silent'],
    ['log-format', 'xml', 'must be pretty, json or auto'],
    ['endpoint', 'localhost:4581', 'must be an http:// or https:// URL'],
    ['custom-resource-timeout', '1h', 'must be a whole number of seconds above 0'],
    ['lambda-endpoint', 'ftp://x', 'must be an http:// or https:// URL'],
    ['control-token', '', 'must not be empty'],
    ['sam-python', '', 'must not be empty'],
  ])('--%s %j is refused with a message naming the flag', (flag, value, problem) => {
    expect(() => parseCommandLine([`--${flag}`, value], {})).toThrow(
      `--${flag} ${problem} (got ${JSON.stringify(value)})`,
    );
  });

  it('a bad variable is named as the variable; an empty one counts as unset', () => {
    expect(() => parseCommandLine([], { CFN_LOCAL_PORT: 'abc' })).toThrow('CFN_LOCAL_PORT must be a whole number');
    expect(parseCommandLine([], { CFN_LOCAL_PORT: '' })).toMatchObject({ settings: { port: '4581' } });
  });

  it('every option checks its value', () => {
    for (const o of OPTIONS) expect(typeof o.accepts).toBe('function');
  });
});
