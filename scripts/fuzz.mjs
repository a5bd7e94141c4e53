// A bounded wire fuzzer over every served service (issue #25): starts the built server (dist/) on loopback with a
// file database, sends requests built from each service's model (generated/models/*.json) with random values, plus
// malformed bodies and encodings, cut connections and invalid signatures, for --seconds or --requests, then stops.
// It counts 5xx (501 NotImplemented aside: an operation not served), hangs, resets and crashes, writes a
// reproduction of each to --out (default .cfn-local/fuzz/), and exits 1 if any was found.
// Usage: npm run fuzz -- --seconds 600 [--requests N] [--seed S] [--out DIR]
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, scratch, startServer } from '../bench/lib/server.mjs';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    requests: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: String(Date.now() % 100000) },
    out: { type: 'string', default: join(ROOT, '.cfn-local', 'fuzz') },
  },
});
let seed = Number(args.seed);
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = (list) => list[Math.floor(random() * list.length)];
const SERVICES = ['cloudformation', 'ssm', 'sts', 'lambda', 's3', 'cloudcontrol', 'sfn'].flatMap((name) => {
  try {
    return [JSON.parse(readFileSync(join(ROOT, 'generated', 'models', `${name}.json`), 'utf8'))];
  } catch {
    return [];
  }
});
const ODD = ['', 'null', 'a'.repeat(2000), '\u0000', '%', '../../etc', '🙂', '-1', '1e309', '[]', '{}', '\r\n', "'"];

/** A random value for a shape: mostly plausible, sometimes odd. */
function valueOf(model, shapeName, depth = 0) {
  const s = model.shapes[shapeName] ?? { type: 'string' };
  if (random() < 0.08) return pick([null, 5, 'x', [], {}, true]);
  switch (s.type) {
    case 'structure':
      return depth > 4
        ? {}
        : Object.fromEntries(
            (s.members ?? []).filter(() => random() < 0.6).map((m) => [m.name, valueOf(model, m.shape, depth + 1)]),
          );
    case 'list':
      return depth > 4
        ? []
        : Array.from({ length: Math.floor(random() * 3) }, () => valueOf(model, s.member, depth + 1));
    case 'map':
      return depth > 4 ? {} : { [pick(['k', 'a b', ''])]: valueOf(model, s.value, depth + 1) };
    case 'integer':
    case 'long':
    case 'double':
      return pick([0, 1, -1, 3600, 2 ** 40, 1.5]);
    case 'boolean':
      return random() < 0.5;
    case 'timestamp':
      return pick([0, 1700000000, '2026-01-01T00:00:00Z', 'yesterday']);
    default:
      return random() < 0.7 ? pick(['fuzz', 'bkt1', 'stack-1', 'k', 'arn:aws:s3:::bkt1']) : pick(ODD);
  }
}

// The SigV4 signing name where it is not the model's name (Step Functions signs as `states`).
const SIGNING_NAMES = { sfn: 'states' };

const AUTH = (service, broken) =>
  broken
    ? pick([
        'AWS4-HMAC-SHA256',
        'Bearer x',
        'AWS4-HMAC-SHA256 Credential=/',
        `AWS4-HMAC-SHA256 Credential=a/b/c/${service}`,
      ])
    : `AWS4-HMAC-SHA256 Credential=fuzz/20260101/us-east-1/${service}/aws4_request, SignedHeaders=host, Signature=00`;

const flatForm = (prefix, value, out) => {
  if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) flatForm(prefix ? `${prefix}.${k}` : k, v, out);
  else out.push(`${encodeURIComponent(prefix)}=${encodeURIComponent(String(value))}`);
  return out;
};

/** Operations that answered 501 (not served): picked again only now and then, so the budget goes to served ones. */
const notServed = new Set();
const operationOf = (model) => {
  for (let tries = 0; ; tries++) {
    const entry = pick(Object.entries(model.operations));
    if (tries > 40 || !notServed.has(`${model.metadata.service}.${entry[0]}`) || random() < 0.05) return entry;
  }
};

/** One request as raw bytes: method, path, headers and body, for the wire and the reproduction file. */
function requestFor(model) {
  const meta = model.metadata;
  const [name, op] = operationOf(model);
  const input = op.input ? valueOf(model, op.input) : {};
  const broken = random() < 0.1;
  const headers = { host: '127.0.0.1', authorization: AUTH(SIGNING_NAMES[meta.service] ?? meta.service, broken) };
  let method = 'POST';
  let path = '/';
  let body;
  if (meta.protocol.startsWith('awsJson')) {
    headers['x-amz-target'] = `${meta.targetPrefix}.${name}`;
    headers['content-type'] = `application/x-amz-json-${meta.protocol.endsWith('1_1') ? '1.1' : '1.0'}`;
    body = JSON.stringify(input);
  } else if (meta.protocol === 'awsQuery') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = [`Action=${name}`, 'Version=2010-05-15', ...flatForm('', input, [])].join('&');
  } else {
    method = op.http?.method ?? 'GET';
    path = (op.http?.uri ?? '/').replace(/\{(\w+)\+?\}/g, () => encodeURIComponent(pick(['bkt1', 'k', 'fuzz', 'a/b'])));
    if (meta.protocol === 'restXml') path = `/bkt1${path === '/' ? '' : path}`;
    body = meta.protocol === 'restJson1' ? JSON.stringify(input) : random() < 0.3 ? '<a>' : '';
    headers['content-type'] = meta.protocol === 'restJson1' ? 'application/json' : 'application/xml';
  }
  const mangle = random();
  if (mangle < 0.05) body = body.slice(0, Math.floor(body.length / 2));
  else if (mangle < 0.08) body = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  else if (mangle < 0.1)
    path += `?${pick(['a=%zz', 'x=%0d%0a', 'tagKeys=a&tagKeys=b', 'response-content-type=%0d%0aX:1'])}`;
  headers['content-length'] = String(Buffer.byteLength(body));
  const head = [`${method} ${path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  return { label: `${meta.service}.${name}`, bytes: `${head}\r\n\r\n${body}`, cut: random() < 0.05 };
}

/** Sends one request on its own connection; the first status line, 'reset', 'hang' or 'cut'. */
function send(port, request) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = (outcome) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done('hang'), 10_000);
    socket.on('error', () => done(text ? text.split('\r\n')[0] : 'reset'));
    socket.on('data', (d) => {
      text += d;
      if (/^HTTP\/1\.1 \d{3}/.test(text)) done(text.split('\r\n')[0]);
    });
    socket.on('close', () => done(text ? text.split('\r\n')[0] : 'reset'));
    socket.on('connect', () => {
      if (!request.cut) return void socket.write(request.bytes);
      socket.write(request.bytes.slice(0, Math.floor(request.bytes.length * random())));
      setTimeout(() => done('cut'), 2);
    });
  });
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function main() {
  const space = scratch();
  let server = await startServer({ db: space.file('fuzz.db') });
  await fetch(`${server.endpoint}/bkt1`, { method: 'PUT' });
  const port = () => Number(new URL(server.endpoint).port);
  const counts = { requests: 0, fivexx: 0, hangs: 0, resets: 0, crashes: 0 };
  /** Per service: requests sent and the answers by status class, so a run shows what it reached. */
  const byService = {};
  const findings = [];
  const end = Date.now() + Number(args.seconds) * 1000;
  while (Date.now() < end && counts.requests < Number(args.requests)) {
    const batch = Array.from({ length: 8 }, () => requestFor(pick(SERVICES)));
    const outcomes = await Promise.all(batch.map((r) => send(port(), r)));
    counts.requests += batch.length;
    for (const [i, outcome] of outcomes.entries()) {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(outcome)?.[1] ?? 0);
      const service = (byService[batch[i].label.split('.')[0]] ??= { requests: 0 });
      const answer = status === 501 ? '501 NotImplemented' : status ? `${String(status)[0]}xx` : outcome;
      service.requests++;
      if (status === 501) notServed.add(batch[i].label);
      service[answer] = (service[answer] ?? 0) + 1;
      const kind =
        status >= 500 && status !== 501 ? 'fivexx' : outcome === 'hang' ? 'hangs' : outcome === 'reset' ? 'resets' : '';
      if (!kind) continue;
      findings.push({ kind, outcome, ...batch[i] });
      counts[kind]++;
    }
    if (!alive(server.pid)) {
      counts.crashes++;
      findings.push({ kind: 'crash', outcome: server.output().slice(-2000), batch });
      server = await startServer({ db: space.file('fuzz.db') });
    }
  }
  await server.stop();
  space.remove();
  mkdirSync(args.out, { recursive: true });
  findings
    .slice(0, 200)
    .forEach((f, i) => writeFileSync(join(args.out, `${f.kind}-${i}.json`), JSON.stringify(f, null, 2)));
  const summary = { seed: Number(args.seed), ...counts, reproductions: findings.length ? args.out : null };
  console.log(JSON.stringify({ ...summary, byService }));
  process.exit(findings.length ? 1 : 0);
}

await main();
