// aws-local-stepfunctions, the ASL interpreter, loaded on the first execution only: the build bundles it into
// dist/stepfunctions.cjs (scripts/bundle.mjs), so the server bundle and its start stay as small as without it and
// the image needs no node_modules; unbundled runs (tests, dist/server) take it from node_modules.
import { createRequire } from 'node:module';
import './promiseResolvers.js';

export type Interpreter = typeof import('aws-local-stepfunctions');

// A name in a variable: the server bundle must not carry the package (it is dist/stepfunctions.cjs's).
const PACKAGE = 'aws-local-stepfunctions';
let loaded: Interpreter | undefined;

export function aslInterpreter(): Interpreter {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  try {
    loaded = require('./stepfunctions.cjs') as Interpreter;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    loaded = require(PACKAGE) as Interpreter;
  }
  return loaded;
}
