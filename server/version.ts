// cfn-local's version, read from its package.json (beside dist/ when built or bundled, one folder up in the sources).
import { readFileSync } from 'node:fs';

// The sources run from server/, the compiled code from dist/server/, the bundle from dist/.
const CANDIDATES = ['../package.json', '../../package.json'];

let version: string | undefined;

export function packageVersion(): string {
  if (version !== undefined) return version;
  for (const candidate of CANDIDATES) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'cfn-local' && pkg.version) return (version = pkg.version);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return (version = 'unknown');
}
