// `npm start`'s prestart: runs `npm run build` only when a source is newer than what the last build wrote (or the
// build never ran, as on a fresh clone), so starting with nothing changed skips ~10 s of tsc and bundling.
// With --check it only says: exit 1 and the reason when a build is due, 0 when not (test/unit/build/buildIfStale.test.ts).
import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_DIRS = [
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
// node_modules/.package-lock.json changes on every npm install, so a new dependency version rebuilds too.
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'node_modules/.package-lock.json'];
// The bundle's code cache is written last (scripts/bundle.mjs); the generated files come first.
const OUTPUTS = [
  'dist/cfn-local.bundle.cache',
  'dist/cfn-local.cjs',
  'dist/pino-pretty.cjs',
  'dist/console/manifest.json',
  'generated/models/cloudformation.json',
  'generated/spec.json',
];

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};

function newestSource() {
  let newest = 0;
  for (const dir of SOURCE_DIRS) {
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) newest = Math.max(newest, mtime(join(entry.parentPath ?? entry.path, entry.name)) ?? 0);
    }
  }
  for (const file of SOURCE_FILES) newest = Math.max(newest, mtime(file) ?? 0);
  return newest;
}

/** Why a build is needed, or undefined when dist/ and generated/ are up to date. */
function staleReason() {
  const built = OUTPUTS.map((file) => [file, mtime(file)]);
  const missing = built.find(([, time]) => time === undefined);
  if (missing) return `${missing[0]} is missing`;
  const oldest = Math.min(...built.map(([, time]) => time));
  return newestSource() > oldest ? 'sources changed since the last build' : undefined;
}

const reason = staleReason();
if (process.argv.includes('--check')) {
  if (reason) process.stdout.write(`${reason}\n`);
  process.exitCode = reason ? 1 : 0;
} else if (reason) {
  process.stderr.write(`cfn-local: building (${reason})\n`);
  execSync('npm run build', { stdio: 'inherit' });
}
