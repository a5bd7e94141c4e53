// Figures 2 and 4 (API part): DescribeStacks, DescribeStackEvents (first page) and ListStacks latency over a seeded
// account, through the SDK (what a test suite sees) and as bare HTTP (the server's own share).
import { DescribeStackEventsCommand, DescribeStacksCommand, ListStacksCommand } from '@aws-sdk/client-cloudformation';
import { startServer, scratch } from '../lib/server.mjs';
import { createStack } from '../lib/deploy.mjs';
import { template } from '../lib/templates.mjs';
import { cloneStack } from '../lib/rows.mjs';
import { rawQuery, closeRawAgent } from '../lib/rawHttp.mjs';
import { figure, single } from '../lib/stats.mjs';

const SOURCE = 'seedsource';

/**
 * Seeds an account through a running server: one real stack of `resources` resources (3 events each, plus 2 for
 * the stack), then `stacks - 1` clones of its rows written straight into the database.
 */
export async function seedAccount(server, dbFile, { stacks, resources, prefix = 'seed' }) {
  const { stackId } = await createStack(server.client, SOURCE, template(resources));
  cloneStack(dbFile, stackId, SOURCE, stacks - 1, prefix);
  return (i) => `${prefix}${String(i).padStart(6, '0')}`;
}

async function sample(calls, fn) {
  const times = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  return times;
}

export async function apiFigures({ stacks = 1000, resources = 33, calls = 2000, warmup = 200 } = {}) {
  const dir = scratch();
  const dbFile = dir.file('api.db');
  const server = await startServer({ db: dbFile });
  const figures = [];
  try {
    const nameOf = await seedAccount(server, dbFile, { stacks, resources });
    const events = stacks * (resources * 3 + 2);
    const pick = (i) => nameOf((i * 7919) % (stacks - 1));
    const cf = server.client;
    const cases = [
      [
        'DescribeStacks',
        (i) => cf.send(new DescribeStacksCommand({ StackName: pick(i) })),
        { Action: 'DescribeStacks' },
        '≤ 1 (p50), ≤ 5 (p99)',
      ],
      [
        'DescribeStackEvents first page',
        (i) => cf.send(new DescribeStackEventsCommand({ StackName: pick(i) })),
        { Action: 'DescribeStackEvents' },
        '≤ 2',
      ],
      ['ListStacks first page', () => cf.send(new ListStacksCommand({})), { Action: 'ListStacks' }, undefined],
    ];
    const note = `${stacks} stacks, ${events} events`;
    for (const [action, viaSdk, params, target] of cases) {
      await sample(warmup, viaSdk);
      figures.push(figure(`api: ${action} (SDK)`, await sample(calls, viaSdk), 'ms', { target, note }));
      const raw = (i) =>
        rawQuery(server.endpoint, action === 'ListStacks first page' ? params : { ...params, StackName: pick(i) });
      await sample(warmup, raw);
      const cpu0 = server.cpuMs();
      const times = await sample(calls, raw);
      const cpuPerCall = (server.cpuMs() - cpu0) / calls;
      figures.push(
        figure(`api: ${action} (bare HTTP)`, times, 'ms', {
          note: `server share; server CPU ${cpuPerCall.toFixed(3)} ms/call`,
        }),
      );
    }
    figures.push(single('memory: peak RSS during API calls', server.memory()?.hwm, 'MB', { note }));
  } finally {
    closeRawAgent();
    await server.stop();
    dir.remove();
  }
  return figures;
}
