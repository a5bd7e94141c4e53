// Figure 7: create time against stack size, in an empty account and in one already holding thousands of stacks.
// Linear means the per-resource cost at the largest size stays within 1.5× of the smallest's.
import { startServer, scratch } from '../lib/server.mjs';
import { createStack, deleteStack } from '../lib/deploy.mjs';
import { template } from '../lib/templates.mjs';
import { seedAccount } from './api.mjs';
import { figure, median, single } from '../lib/stats.mjs';

const LINEAR_SLACK = 1.5;

async function createTimes(server, n, runs, tag, options) {
  const times = [];
  for (let run = 0; run < runs; run++) {
    const { ms, stackId } = await createStack(
      server.client,
      `scale-${tag}-${n}-${run}`,
      template(n, undefined, 'json', options),
    );
    times.push(ms);
    await deleteStack(server.client, stackId);
  }
  return times;
}

/** Process start → first answer on a database that already holds the account (a restart of a long-used server). */
async function restartTimes(dbFile, restarts) {
  const times = [];
  for (let i = 0; i < restarts; i++) {
    const server = await startServer({ db: dbFile });
    times.push(server.startupMs);
    await server.stop();
  }
  return times;
}

export async function scalingFigures({
  sizes = [100, 200, 500],
  runs = 3,
  accountStacks = 5000,
  seedResources = 10,
  restarts = 3,
} = {}) {
  const dir = scratch();
  const dbFile = dir.file('scaling.db');
  let server = await startServer({ db: dbFile });
  const figures = [];
  try {
    const perResource = {};
    for (const [tag, label] of [
      ['empty', 'empty account'],
      ['full', `${accountStacks}-stack account`],
    ]) {
      if (tag === 'full')
        await seedAccount(server, dbFile, { stacks: accountStacks, resources: seedResources, prefix: 'acct' });
      perResource[tag] = [];
      for (const n of sizes) {
        const times = await createTimes(server, n, runs, tag);
        perResource[tag].push(median(times) / n);
        figures.push(
          figure(`scaling: create ${n} resources, ${label}`, times, 'ms', {
            note: `${(median(times) / n).toFixed(3)} ms/resource`,
          }),
        );
      }
      const [first, last] = [perResource[tag][0], perResource[tag].at(-1)];
      figures.push(
        single(`scaling: per-resource cost ${sizes.at(-1)} vs ${sizes[0]}, ${label}`, last / first, '×', {
          target: `≤ ${LINEAR_SLACK}`,
          note: last / first <= LINEAR_SLACK ? 'linear' : 'NOT linear',
        }),
      );
    }
    const n = sizes.at(-1);
    const flat = await createTimes(server, n, runs, 'flat', { flat: true });
    figures.push(
      figure(`scaling: create ${n} independent resources (one level, no dependencies)`, flat, 'ms', {
        note: `${(median(flat) / n).toFixed(3)} ms/resource; the scheduler's widest case`,
      }),
    );
    const accountRatio = median(perResource.full) / median(perResource.empty);
    figures.push(
      single(`scaling: ${accountStacks}-stack account vs empty`, accountRatio, '×', {
        target: `≤ ${LINEAR_SLACK}`,
        note: accountRatio <= LINEAR_SLACK ? 'flat' : 'grows with the account',
      }),
    );
    await server.stop();
    server = undefined;
    figures.push(
      figure(
        `startup: restart on the ${accountStacks}-stack account → first DescribeStacks`,
        await restartTimes(dbFile, restarts),
        'ms',
        { note: 'its first page lists 100 of the stacks' },
      ),
    );
  } finally {
    await server?.stop();
    dir.remove();
  }
  return figures;
}
