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
});
