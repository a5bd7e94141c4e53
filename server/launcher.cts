#!/usr/bin/env node
// The bundled server's entry point (dist/cfn-local.cjs; `npm start`, the `cfn-local` bin and the image run it).
// It compiles the bundle (dist/cfn-local.bundle.cjs) with V8's code cache for it, written by `npm run build`
// (scripts/bundle.mjs), so a cold start skips parsing and compiling the code that starting and a first answer run:
// about 70 ms of a start on the benchmark machine (bench/README.md, finding 12). Node 22 has this built in
// (module.enableCompileCache); Node 20 only offers vm.Script's cachedData. A missing, stale or rejected cache
// (another Node version, other V8 flags) only costs that time: the bundle then compiles as usual.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import type * as Start from './start.js';

/** Both files sit beside this one in dist/ (the build puts them there). */
const BUNDLE = join(__dirname, 'cfn-local.bundle.cjs');
const CACHE = join(__dirname, 'cfn-local.bundle.cache');

export interface LoadedBundle {
  exports: typeof Start;
  script: Script;
  /** Whether a cache was found for this very bundle and V8 took it. */
  cacheUsed: boolean;
}

/**
 * The bundle's first line names its build (a comment with a random id, see scripts/bundle.mjs) and the cache file
 * starts with the same line, so a rebuilt bundle never takes a stale cache. (Hashing the bundle cost ~10 ms.)
 */
const headerFor = (source: string) => source.slice(0, source.indexOf('\n') + 1);

function cachedDataFor(header: string): Buffer | undefined {
  try {
    const file = readFileSync(CACHE);
    return file.subarray(0, header.length).toString() === header ? file.subarray(header.length) : undefined;
  } catch {
    return undefined;
  }
}

/** Compiles and runs the bundle the way Node's CommonJS loader would, with the code cache when there is one. */
export function loadBundle(): LoadedBundle {
  // esbuild writes ASCII only (non-ASCII is escaped), and decoding latin1 skips UTF-8 validation of ~0.6 MB
  const source = readFileSync(BUNDLE, 'latin1');
  const header = headerFor(source);
  const cachedData = cachedDataFor(header);
  const script = new Script(wrap(source), { filename: BUNDLE, cachedData });
  const module = { exports: {} as typeof Start };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(BUNDLE),
    module,
    BUNDLE,
    dirname(BUNDLE),
  );
  return { exports: module.exports, script, cacheUsed: cachedData !== undefined && !script.cachedDataRejected };
}

/** Writes the code cache of everything the bundle has compiled so far (the build calls it after a first answer). */
export function writeCodeCache(script: Script): void {
  writeFileSync(
    CACHE,
    Buffer.concat([Buffer.from(headerFor(readFileSync(BUNDLE, 'latin1'))), script.createCachedData()]),
  );
}

if (require.main === module) loadBundle().exports.runFromCommandLine();
