// An esbuild plugin for scripts/bundle.mjs: stand-ins for built-in modules that load the real one on first use.
/**
 * Built-in modules that dependencies require at load time but cfn-local does not need to start: the bundle gets a
 * stand-in that loads the real module on first use (bench/README.md, findings 17 and 21).
 * - node:http2 and node:https (with node:tls): fastify requires them for servers cfn-local never starts (~9 ms).
 * - node:assert: pino's sonic-boom and fastify's router call `assert(condition, message)` at startup. Loading it
 *   creates process.stderr's stream (its colour check reads stderr.isTTY), ~5-8 ms. An assertion that holds needs
 *   no module: the stand-in only loads the real one when a condition fails, or for any other use of it.
 */
const LAZY_BUILTINS = ['node:http2', 'node:https', 'node:assert', 'assert'];
const STAND_IN = {
  module: 'new Proxy({}, traps)',
  assert:
    'new Proxy(function assert() {}, { ...traps, apply: (_, self, args) => (args[0] ? undefined : Reflect.apply(load(), self, args)) })',
};
export const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    const filter = new RegExp(`^(${LAZY_BUILTINS.join('|')})$`);
    // a stand-in's own require of the real module is left to Node (else it would resolve to the stand-in again)
    build.onResolve({ filter }, (args) =>
      args.namespace === 'lazy-builtin'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'lazy-builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let real;
const load = () => (real ??= require(${JSON.stringify(args.path.startsWith('node:') ? args.path : `node:${args.path}`)}));
const traps = {
  get: (_, key) => load()[key],
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => ({ ...Reflect.getOwnPropertyDescriptor(load(), key), configurable: true }),
};
module.exports = ${/assert$/.test(args.path) ? STAND_IN.assert : STAND_IN.module};`,
      loader: 'js',
    }));
  },
};
