// The nodejs* bootstrap cfn-local runs in each execution environment: a small client of Lambda's Runtime API (the
// loop AWS's runtime interface client runs: init, then invocation/next → response | error), with AWS's handler
// resolution, context object, console format and error shapes. Written to disk by runtime/code.ts.
// https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html
// https://docs.aws.amazon.com/lambda/latest/dg/nodejs-handler.html, nodejs-context.html, nodejs-exceptions.html

/**
 * Why not AWS's own client (aws-lambda-ric on npm): it builds a native addon at install time (node-gyp, cmake,
 * a C++ toolchain), which a `npm install cfn-local` must not need. This one speaks the same API with node's http.
 */
export const NODE_BOOTSTRAP = String.raw`'use strict';
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const util = require('node:util');
const { pathToFileURL } = require('node:url');

const API = process.env.AWS_LAMBDA_RUNTIME_API;
const ROOT = process.env.LAMBDA_TASK_ROOT;
let requestId = undefined;

function call(method, route, body, headers) {
  return new Promise((resolve, reject) => {
    const slash = API.indexOf('/');
    const [host, port] = API.slice(0, slash).split(':');
    const req = http.request(
      { host, port, method, path: API.slice(slash) + '/2018-06-01/runtime' + route, headers: headers || {}, agent: false },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// The Node.js runtime's console: timestamp, request id and level before each message (text log format).
for (const [name, level] of [['log', 'INFO'], ['info', 'INFO'], ['warn', 'WARN'], ['error', 'ERROR'], ['debug', 'DEBUG'], ['trace', 'TRACE']]) {
  const stream = level === 'ERROR' || level === 'WARN' ? process.stderr : process.stdout;
  console[name] = (...args) => {
    stream.write(new Date().toISOString() + '\t' + (requestId || 'undefined') + '\t' + level + '\t' + util.format(...args) + '\n');
  };
}

function errorOf(err) {
  if (err instanceof Error) {
    return { errorType: err.name || 'Error', errorMessage: err.message, trace: String(err.stack || '').split('\n') };
  }
  return { errorType: typeof err === 'string' ? 'string' : typeof err, errorMessage: String(err), trace: [] };
}

function customError(type, message) {
  const e = new Error(message);
  e.name = type;
  return e;
}

function nearestType(dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    const file = path.join(d, 'package.json');
    if (fs.existsSync(file)) {
      try { return JSON.parse(fs.readFileSync(file, 'utf8')).type; } catch { return undefined; }
    }
    if (d === path.dirname(d) || d === path.dirname(ROOT)) return undefined;
  }
}

// AWS's resolution: "dir/module.fn.nested" → dir/module(.mjs|.cjs|.js), property path fn.nested.
async function loadModule(base) {
  const file = path.resolve(ROOT, base);
  for (const ext of ['.js', '.mjs', '.cjs']) {
    if (!fs.existsSync(file + ext)) continue;
    const esm = ext === '.mjs' || (ext === '.js' && nearestType(path.dirname(file)) === 'module');
    return esm ? import(pathToFileURL(file + ext).href) : require(file + ext);
  }
  try {
    return require(file);
  } catch (err) {
    if (err && err.code === 'MODULE_NOT_FOUND' && String(err.message).includes(file)) {
      throw customError('Runtime.ImportModuleError', "Error: Cannot find module '" + path.basename(base) + "'\nRequire stack:\n- " + __filename);
    }
    throw err;
  }
}

async function loadHandler() {
  const full = process.env._HANDLER || '';
  const name = path.basename(full);
  const dir = full.slice(0, full.length - name.length);
  const match = name.match(/^([^.]*)\.(.*)$/);
  if (!match) throw customError('Runtime.MalformedHandlerName', 'Bad handler');
  let mod;
  try {
    mod = await loadModule(dir + match[1]);
  } catch (err) {
    if (err instanceof SyntaxError) throw customError('Runtime.UserCodeSyntaxError', String(err.stack || err));
    throw err;
  }
  const fn = match[2].split('.').reduce((o, k) => (o == null ? undefined : o[k]), mod);
  if (fn === undefined) throw customError('Runtime.HandlerNotFound', full + ' is undefined or not exported');
  if (typeof fn !== 'function') throw customError('Runtime.HandlerNotFound', full + ' is not a function');
  return fn;
}

function contextOf(headers) {
  const deadline = Number(headers['lambda-runtime-deadline-ms']);
  const parse = (h) => (h ? JSON.parse(h) : undefined);
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: headers['lambda-runtime-invoked-function-arn'],
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: headers['lambda-runtime-aws-request-id'],
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
    identity: parse(headers['lambda-runtime-cognito-identity']),
    clientContext: parse(headers['lambda-runtime-client-context']),
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
}

// A callback-style handler (three parameters) answers through the callback; any other is awaited.
function run(handler, event, context) {
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (err, value) => {
      if (settled) return;
      settled = true;
      err === undefined || err === null ? resolve(value) : reject(err);
    };
    context.done = done;
    context.succeed = (value) => done(null, value);
    context.fail = (err) => done(err === undefined ? new Error('handled') : err);
    try {
      const out = handler(event, context, done);
      if (out && typeof out.then === 'function') out.then((v) => done(null, v), (e) => done(e === undefined || e === null ? new Error(String(e)) : e));
      else if (handler.length < 3) done(null, out);
    } catch (err) {
      done(err);
    }
  });
}

// What the function wrote is read by cfn-local before the answer, so the invocation's log holds all of it.
async function drained() {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.writableLength > 0) await new Promise((resolve) => stream.once('drain', resolve));
  }
}

async function reportError(route, err) {
  const body = JSON.stringify(errorOf(err));
  process.stderr.write(new Date().toISOString() + '\t' + (requestId || 'undefined') + '\tERROR\tInvoke Error \t' + body + '\n');
  await drained();
  await call('POST', route, body, { 'content-type': 'application/json', 'lambda-runtime-function-error-type': errorOf(err).errorType });
}

process.on('unhandledRejection', (reason) => {
  process.stderr.write(new Date().toISOString() + '\t' + (requestId || 'undefined') + '\tERROR\tUnhandled Promise Rejection \t' + JSON.stringify(errorOf(reason)) + '\n');
  process.exit(128);
});

async function main() {
  let handler;
  try {
    handler = await loadHandler();
  } catch (err) {
    await reportError('/init/error', err);
    process.exit(1);
  }
  for (;;) {
    const next = await call('GET', '/invocation/next');
    requestId = next.headers['lambda-runtime-aws-request-id'];
    const context = contextOf(next.headers);
    let event;
    try {
      event = JSON.parse(next.body.toString('utf8') || 'null');
    } catch (err) {
      await reportError('/invocation/' + requestId + '/error', customError('Runtime.UnmarshalError', String(err.message)));
      continue;
    }
    // A handler whose promise never settles runs until its Timeout, as on Lambda, not until node's loop empties.
    const keepAlive = setInterval(() => {}, 1 << 30);
    try {
      const result = await run(handler, event, context);
      const body = result === undefined ? 'null' : JSON.stringify(result);
      await drained();
      await call('POST', '/invocation/' + requestId + '/response', body === undefined ? 'null' : body, { 'content-type': 'application/json' });
    } catch (err) {
      await reportError('/invocation/' + requestId + '/error', err);
    } finally {
      clearInterval(keepAlive);
    }
  }
}

main().catch((err) => {
  process.stderr.write('cfn-local bootstrap: ' + String((err && err.stack) || err) + '\n');
  process.exit(1);
});
`;

/**
 * Preloaded into every nodejs* environment (NODE_OPTIONS=--require) when cfn-local serves HTTPS ResponseURLs: the
 * CDK's custom resource handlers PUT to a ResponseURL with `https.request({ hostname, path })`, dropping its port
 * (AWS's is always 443), so a TLS connection to 127.0.0.1:443 is sent to cfn-local's HTTPS port instead.
 */
export const TLS_PORT_PRELOAD = String.raw`'use strict';
const tls = require('node:tls');
const PORT = Number(process.env.CFN_LOCAL_RESPONSE_URL_PORT);
const connect = tls.connect;
tls.connect = function (...args) {
  const options = args[0] && typeof args[0] === 'object' ? args[0] : undefined;
  if (options && PORT && (options.host === '127.0.0.1' || options.servername === '127.0.0.1') && Number(options.port || 443) === 443) {
    args[0] = { ...options, port: PORT };
  }
  return connect.apply(this, args);
};
`;
