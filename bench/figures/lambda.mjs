// Lambda runtime figures: cold and warm Invoke latency of a trivial Node.js and Python function, each beside its
// floor (the same handler run directly with node / python3 in a fresh process), and the RSS of the server and of
// its execution environments with 10 warm environments. See bench/README.md ("Lambda runtime").
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { InvokeCommand, LambdaClient, UpdateFunctionConfigurationCommand } from '@aws-sdk/client-lambda';
import { startServer, scratch, memoryOf } from '../lib/server.mjs';
import { createStack } from '../lib/deploy.mjs';
import { figure, single } from '../lib/stats.mjs';

const NODE = 'exports.handler = async (event) => ({ ok: true, n: event.n });';
const PYTHON = 'def handler(event, context):\n    return {"ok": True, "n": event.get("n")}';
const SLOW = 'exports.handler = () => new Promise((r) => setTimeout(() => r(1), 300));';

const fn = (name, runtime, code) => `
  ${name}:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: ${name}
      Runtime: ${runtime}
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/bench
      Code:
        ZipFile: |
${code
  .split('\n')
  .map((l) => `          ${l}`)
  .join('\n')}`;

const TEMPLATE = `Resources:${fn('node', 'nodejs20.x', NODE)}${fn('python', 'python3.12', PYTHON)}${fn('slow', 'nodejs20.x', SLOW)}\n`;

const timed = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

const run = (file, args) =>
  new Promise((resolve, reject) => execFile(file, args, (err) => (err ? reject(err) : resolve())));

/** The handler run once in a fresh process: what a cold start cannot beat on this machine. */
const FLOORS = {
  node: () => run(process.execPath, ['-e', `${NODE}\nexports.handler({ n: 1 }).then((r) => JSON.stringify(r));`]),
  python: () => run('python3', ['-c', `${PYTHON}\nimport json; json.dumps(handler({"n": 1}, None))`]),
};

/** RSS in MB of the server's direct children (its execution environments). */
function childrenRss(pid) {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.split(') ')[1].split(' ')[1]) === pid) total += memoryOf(Number(entry))?.rss ?? 0;
    } catch {
      /* gone */
    }
  }
  return total;
}

export async function lambdaFigures({ runs = 10 } = {}) {
  const dir = scratch();
  const server = await startServer({ db: dir.file('lambda.db') });
  const lambda = new LambdaClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    maxAttempts: 1,
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
  });
  const invoke = (name) =>
    lambda.send(new InvokeCommand({ FunctionName: name, Payload: Buffer.from('{"n":1}') })).then((out) => {
      if (out.FunctionError) throw new Error(`${name}: ${Buffer.from(out.Payload).toString()}`);
    });
  const figures = [];
  try {
    await createStack(server.client, 'bench', TEMPLATE);
    for (const name of ['node', 'python']) {
      const cold = [];
      const warm = [];
      const floor = [];
      for (let i = 0; i < runs; i++) {
        // A configuration change retires the warm environment: the next invoke starts a new one.
        await lambda.send(
          new UpdateFunctionConfigurationCommand({
            FunctionName: name,
            Environment: { Variables: { RUN: String(i) } },
          }),
        );
        cold.push(await timed(() => invoke(name)));
        for (let j = 0; j < 5; j++) warm.push(await timed(() => invoke(name)));
        floor.push(await timed(FLOORS[name]));
      }
      figures.push(
        figure(`lambda ${name}: cold Invoke`, cold, 'ms'),
        figure(`lambda ${name}: floor, handler in a fresh ${name === 'node' ? 'node' : 'python3'}`, floor, 'ms'),
        figure(`lambda ${name}: warm Invoke`, warm, 'ms', { target: '≤ 10' }),
      );
    }
    const before = server.memory()?.rss;
    await Promise.all(Array.from({ length: 10 }, () => invoke('slow')));
    figures.push(
      single('lambda: server RSS with 10 warm environments', server.memory()?.rss, 'MB', {
        note: `${Math.round(before)} MB before`,
      }),
      single('lambda: RSS of the 10 environments, summed', childrenRss(server.pid), 'MB'),
    );
  } finally {
    lambda.destroy();
    await server.stop();
    dir.remove();
  }
  return figures;
}
