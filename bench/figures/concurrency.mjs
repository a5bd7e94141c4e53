// Figure 5 (and 4 under load): many clients at once, each creating then deleting its own stack. The first round
// runs on a cold server (V8 still interpreting most of cfn-local: a fresh server spends about twice the CPU per
// stack of a warm one); the measured round follows `warmupRounds` rounds on the same server, as the API figures
// follow their warm-up calls. Both are printed: a test suite's first deploys see the cold one.
import { startServer, scratch, client } from '../lib/server.mjs';
import { createStack, deleteStack } from '../lib/deploy.mjs';
import { template } from '../lib/templates.mjs';
import { figure, single } from '../lib/stats.mjs';

/** One round: every client creates then deletes its own stack, all at once. */
async function round(server, { clients, body, tag, errors }) {
  const perClient = [];
  const t0 = performance.now();
  const cpu0 = server.cpuMs();
  const own0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const cf = client(server.endpoint);
      try {
        const created = await createStack(cf, `concurrent-${tag}-${i}`, body);
        const deleted = await deleteStack(cf, created.stackId);
        perClient.push(created.ms + deleted.ms);
      } catch (err) {
        errors.push(String(err?.message ?? err));
      } finally {
        cf.destroy();
      }
    }),
  );
  const wall = performance.now() - t0;
  const own = process.cpuUsage(own0);
  const cpuNote = `server CPU ${server.cpuMs() - cpu0} ms, clients' CPU ${Math.round((own.user + own.system) / 1000)} ms`;
  return { wall, perClient, cpuNote };
}

export async function concurrencyFigures({ clients = 50, resources = 20, warmupRounds = 2 } = {}) {
  const dir = scratch();
  const server = await startServer({ db: dir.file('concurrency.db') });
  const body = template(resources);
  const errors = [];
  let cold;
  let warm;
  let hwm;
  try {
    cold = await round(server, { clients, body, tag: 'cold', errors });
    for (let i = 1; i < warmupRounds; i++) await round(server, { clients, body, tag: `warmup${i}`, errors });
    warm = await round(server, { clients, body, tag: 'measured', errors });
    hwm = server.memory()?.hwm;
  } finally {
    await server.stop();
    dir.remove();
  }
  const busy = (server.output().match(/SQLITE_BUSY/g) ?? []).length;
  const label = `${clients} clients × ${resources} resources`;
  return [
    single(`concurrency: wall time, ${label}`, warm.wall, 'ms', { note: warm.cpuNote }),
    figure('concurrency: one client create + delete', warm.perClient, 'ms', { note: label }),
    single('concurrency: errors', errors.length, 'count', { target: '0', note: errors[0]?.slice(0, 80) }),
    single('concurrency: SQLITE_BUSY in server output', busy, 'count', { target: '0' }),
    single('concurrency: throughput', clients / (warm.wall / 1000), 'stacks/s', {
      target: '≥ 100',
      note: `create + delete each; after ${warmupRounds} round(s)`,
    }),
    single('concurrency: throughput, cold server (first round)', clients / (cold.wall / 1000), 'stacks/s', {
      note: cold.cpuNote,
    }),
    single('memory: peak RSS under concurrency', hwm, 'MB', { target: '≤ 200' }),
  ];
}
