// Bundles the compiled server (dist/) into what `npm start`, the bin and the image run, then writes V8's code cache
// for the bundle (see server/launcher.cts):
//   dist/cfn-local.bundle.cjs  the server in one CommonJS file (better-sqlite3's native addon stays in node_modules)
//   dist/cfn-local.cjs         the launcher that runs it
//   dist/cfn-local.bundle.cache  compiled code for starting and a first answer, from a start on a throwaway port
//   dist/pino-pretty.cjs       pino-pretty and its dependencies, loaded only when logs go to a terminal (server/logging.ts)
//   dist/console/              the web console (scripts/build-console.mjs), served at /_cfn-local/console
//   dist/backend-sdk.cjs       the AWS SDK clients of the backend providers, loaded only with --backend
//   dist/lambda-sdk/           the AWS SDK clients functions find on NODE_PATH (runtime/invoke.ts)
//   dist/stepfunctions.cjs     aws-local-stepfunctions, loaded on the first Step Functions execution only
import { build } from 'esbuild';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { lazyBuiltins } from './lazyBuiltins.mjs';
import { buildConsole } from './build-console.mjs';

const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' };

await build({
  ...common,
  entryPoints: ['dist/server/start.js'],
  outfile: 'dist/cfn-local.bundle.cjs',
  minify: true,
  // better-sqlite3's JavaScript is bundled; its native addon is loaded from node_modules by path (storage/db.ts),
  // so `bindings`, its default way of finding it, is never needed here. The others are fastify's, required only when
  // used, and cfn-local never uses them (server/app.ts: no JSON schemas; inject() is for tests): left out, the
  // bundle and its code cache are a third smaller and a start reads and deserializes that much less. Should one be
  // required, it loads from node_modules, where fastify's own dependencies put it.
  external: ['bindings', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'light-my-request'],
  plugins: [lazyBuiltins],
  // The sources are ES modules that find generated/*.json from import.meta.url: in CommonJS, the bundle's own URL.
  define: { 'import.meta.url': '__bundleUrl' },
  // The first line names this build: the code cache is only taken by the bundle it was made from.
  banner: {
    js: `// cfn-local build ${randomUUID()}\nvar __bundleUrl = require('node:url').pathToFileURL(__filename).href;`,
  },
  charset: 'ascii',
  legalComments: 'external',
});
await build({ ...common, entryPoints: ['dist/server/launcher.cjs'], outfile: 'dist/cfn-local.cjs' });
// The AWS SDK clients of the backend providers (resources/backend/sdk.ts), loaded only with --backend: the server
// bundle and its code cache stay as small, and as quick to start, as without them.
await build({
  ...common,
  entryPoints: ['scripts/backend-sdk.cjs'],
  outfile: 'dist/backend-sdk.cjs',
  minify: true,
  legalComments: 'external',
});
// The ASL interpreter of Step Functions executions (runtime/stepFunctions/interpreter.ts), loaded on the first one.
await build({
  ...common,
  stdin: { contents: "module.exports = require('aws-local-stepfunctions');", resolveDir: process.cwd(), loader: 'js' },
  outfile: 'dist/stepfunctions.cjs',
  minify: true,
  legalComments: 'external',
});
// The AWS SDK clients Lambda's Node.js runtimes provide and the CDK's own handlers load (runtime/invoke.ts puts
// dist/lambda-sdk on the functions' NODE_PATH): one bundle per client, where `require('@aws-sdk/client-s3')` finds it.
for (const client of ['client-lambda', 'client-s3', 'client-sfn', 'client-ssm']) {
  await build({
    ...common,
    // Through a one-line entry: the package as an entry point would lose its exports (esbuild's ESM-to-CJS view).
    stdin: { contents: `module.exports = require('@aws-sdk/${client}');`, resolveDir: process.cwd(), loader: 'js' },
    outfile: `dist/lambda-sdk/@aws-sdk/${client}/index.js`,
    minify: true,
    legalComments: 'external',
  });
}
// cfn-local's package.json says "type": "module": these bundles are CommonJS.
writeFileSync('dist/lambda-sdk/package.json', '{ "type": "commonjs" }\n');
await build({
  ...common,
  entryPoints: ['pino-pretty'],
  outfile: 'dist/pino-pretty.cjs',
  minify: true,
  legalComments: 'external',
});

await buildConsole();

const launcher = createRequire(import.meta.url)('../dist/cfn-local.cjs');
const { exports: server, script } = launcher.loadBundle();
const started = await server.start(
  ['--host', '127.0.0.1', '--port', '0', '--db', ':memory:', '--log-level', 'silent'],
  {},
);
const answer = await fetch(`${started.address}/`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: 'Action=DescribeStacks&Version=2010-05-15',
});
if (!answer.ok) throw new Error(`the bundled server answered ${answer.status}: ${await answer.text()}`);
await started.app.close();
launcher.writeCodeCache(script);
process.exit(0);
