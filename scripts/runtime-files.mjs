// Copies what the built server needs at run time, and nothing else, into a folder (the container image's /app):
// the bundle and its launcher, code cache and pino-pretty bundle, the web console (dist/console), generated/, package.json, and the two packages the
// bundle loads from node_modules: better-sqlite3 (its JavaScript entry, found by resolve, and its native addon) and
// yaml (loaded on the first YAML template). Everything else the bundle carries. Usage: node scripts/runtime-files.mjs DIR
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const FILES = [
  'package.json',
  'generated/models',
  'generated/spec.json',
  'dist/cfn-local.cjs',
  'dist/cfn-local.bundle.cjs',
  'dist/cfn-local.bundle.cache',
  'dist/pino-pretty.cjs',
  'dist/backend-sdk.cjs',
  'dist/stepfunctions.cjs',
  'dist/lambda-sdk',
  'dist/cfn-local.bundle.cjs.LEGAL.txt',
  'dist/console',
  'node_modules/better-sqlite3/package.json',
  'node_modules/better-sqlite3/LICENSE',
  'node_modules/better-sqlite3/lib',
  'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
  'node_modules/yaml',
];

const target = process.argv[2];
if (!target) throw new Error('usage: node scripts/runtime-files.mjs DIR');
for (const file of FILES) {
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  mkdirSync(join(target, file, '..'), { recursive: true });
  cpSync(file, join(target, file), { recursive: true, dereference: true });
}
