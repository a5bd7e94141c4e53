// Figure 5 (and 4 under load): many clients at once, each creating then deleting its own stack.
import { startServer, scratch, client } from '../lib/server.mjs';
import { createStack, deleteStack } from '../lib/deploy.mjs';
import { template } from '../lib/templates.mjs';
import { figure, single } from '../lib/stats.mjs';

export async function concurrencyFigures({ clients = 50, resources = 20 } = {}) {
  const dir = scratch();
  const server = await startServer({ db: dir.file('concurrency.db') });
  const body = template(resources);
  const errors = [];
  const perClient = [];
  let wall;
  let hwm;
  let cpuNote;
  try {
    const t0 = performance.now();
    const cpu0 = server.cpuMs();
    const own0 = process.cpuUsage();
    await Promise.all(Array.from({ length: clients }, async (_, i) => {
      const cf = client(server.endpoint);
      try {
        const created = await createStack(cf, `concurrent-${i}`, body);
        const deleted = await deleteStack(cf, created.stackId);
        perClient.push(created.ms + deleted.ms);
      } catch (err) {
        errors.push(String(err?.message ?? err));
      } finally {
        cf.destroy();
      }
    }));
    wall = performance.now() - t0;
    const own = process.cpuUsage(own0);
    cpuNote = `server CPU ${server.cpuMs() - cpu0} ms, clients' CPU ${Math.round((own.user + own.system) / 1000)} ms`;
    hwm = server.memory()?.hwm;
  } finally {
    await server.stop();
    dir.remove();
  }
  const busy = (server.output().match(/SQLITE_BUSY/g) ?? []).length;
  const label = `${clients} clients × ${resources} resources`;
  return [
    single(`concurrency: wall time, ${label}`, wall, 'ms', { note: cpuNote }),
    figure('concurrency: one client create + delete', perClient, 'ms', { note: label }),
    single('concurrency: errors', errors.length, 'count', { target: '0', note: errors[0]?.slice(0, 80) }),
    single('concurrency: SQLITE_BUSY in server output', busy, 'count', { target: '0' }),
    single('concurrency: throughput', clients / (wall / 1000), 'stacks/s', { target: '≥ 100', note: 'create + delete each' }),
    single('memory: peak RSS under concurrency', hwm, 'MB', { target: '≤ 200' }),
  ];
}
