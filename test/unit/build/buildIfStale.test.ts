// scripts/build-if-stale.mjs (npm start's prestart): a build is due when an output is missing or a source is newer
// than the oldest output, and not otherwise.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../scripts/build-if-stale.mjs', import.meta.url));
const SOURCES = [
  'server/start.ts',
  'storage/db.ts',
  'console/src/main.tsx',
  'scripts/bundle.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];
const OUTPUTS = [
  'dist/cfn-local.bundle.cache',
  'dist/cfn-local.cjs',
  'dist/pino-pretty.cjs',
  'dist/console/manifest.json',
  'generated/models/cloudformation.json',
  'generated/spec.json',
];
const DIRS = [
  'domain',
  'server',
  'handlers',
  'state-machine',
  'template',
  'resources',
  'storage',
  'scripts',
  'console',
];

/** A project folder whose sources were written at t=1000 s and outputs at t=2000 s. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'cfn-local-stale-'));
  for (const dir of DIRS) mkdirSync(join(root, dir), { recursive: true });
  for (const [files, at] of [
    [SOURCES, 1000],
    [OUTPUTS, 2000],
  ] as const) {
    for (const file of files) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), '');
      utimesSync(join(root, file), at, at);
    }
  }
  return root;
}

const check = (root: string) => {
  const result = spawnSync(process.execPath, [SCRIPT, '--check'], { cwd: root, encoding: 'utf8' });
  rmSync(root, { recursive: true, force: true });
  return { status: result.status, reason: result.stdout.trim() };
};

describe('build-if-stale', () => {
  it('skips the build when every output is newer than every source', () => {
    expect(check(project())).toEqual({ status: 0, reason: '' });
  });

  it('builds when an output is missing (a fresh clone)', () => {
    const root = project();
    rmSync(join(root, 'dist/cfn-local.bundle.cache'));
    expect(check(root)).toEqual({ status: 1, reason: 'dist/cfn-local.bundle.cache is missing' });
  });

  it.each(['storage/db.ts', 'package-lock.json', 'console/src/main.tsx'])(
    'builds when %s is newer than the build',
    (file) => {
      const root = project();
      utimesSync(join(root, file), 3000, 3000);
      expect(check(root)).toEqual({ status: 1, reason: 'sources changed since the last build' });
    },
  );
});
