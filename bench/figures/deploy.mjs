// Figures 1, 4 (deploy part) and 6: create / update (half the resources changed) / delete, timed by the client,
// each compared with the floor (the same rows written straight into SQLite in one transaction).
import { startServer, scratch } from '../lib/server.mjs';
import { createStack, updateStack, deleteStack } from '../lib/deploy.mjs';
import { template, halfChanged } from '../lib/templates.mjs';
import { stackRows, writeFloor, rowCount } from '../lib/rows.mjs';
import { figure, median, single } from '../lib/stats.mjs';

const CREATE_TARGET_MS = 150;
const FLOOR_RATIO_TARGET = 10;

/** Median ms of writing these rows `runs` times into fresh database files. */
export function floorMs(rows, dir, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) times.push(writeFloor(rows, dir.file(`floor-${Date.now()}-${i}.db`)));
  return times;
}

/** One size: `runs` × (create, update, delete) on fresh stacks; server CPU time is recorded beside wall time. */
async function measureSize(server, dir, n, runs, dbFile, format = 'json') {
  const wall = { create: [], update: [], delete: [] };
  const cpu = { create: [], update: [], delete: [] };
  let rows;
  const timedCpu = async (op, fn) => {
    const before = server.cpuMs();
    const result = await fn();
    wall[op].push(result.ms);
    cpu[op].push(server.cpuMs() - before);
    return result;
  };
  for (let run = 0; run < runs; run++) {
    const name = `deploy-${n}-${run}-${Date.now().toString(36)}`;
    const { stackId } = await timedCpu('create', () =>
      createStack(server.client, name, template(n, undefined, format)),
    );
    if (run === 0 && dbFile) rows = stackRows(dbFile, stackId);
    await timedCpu('update', () => updateStack(server.client, stackId, template(n, halfChanged, format)));
    await timedCpu('delete', () => deleteStack(server.client, stackId));
  }
  return { wall, cpu, rows };
}

export async function deployFigures({ sizes = [1, 10, 100, 500], runs = 5, floorRuns = 5, variantSize = 500 } = {}) {
  const dir = scratch();
  const dbFile = dir.file('deploy.db');
  const server = await startServer({ db: dbFile });
  const figures = [single('memory: idle RSS after startup', server.memory()?.rss, 'MB', { target: '≤ 80' })];
  try {
    for (const n of sizes) {
      const { wall, cpu, rows } = await measureSize(server, dir, n, runs, dbFile);
      const floor = floorMs(rows, dir, floorRuns);
      const floorMedian = median(floor);
      figures.push(figure(`floor: ${n} resources (${rowCount(rows.rows)} rows, one transaction)`, floor, 'ms'));
      for (const op of ['create', 'update', 'delete']) {
        const target = op === 'create' && n === 500 ? `≤ ${CREATE_TARGET_MS}` : undefined;
        figures.push(
          figure(`deploy: ${op} ${n} resources`, wall[op], 'ms', { target, note: `server CPU ${median(cpu[op])} ms` }),
        );
        figures.push(
          single(`deploy: ${op} ${n} resources / floor`, median(wall[op]) / floorMedian, '×', {
            target: op === 'create' && n === 500 ? `≤ ${FLOOR_RATIO_TARGET}` : undefined,
            note: op === 'create' ? undefined : 'against the create floor',
          }),
        );
      }
    }
    if (variantSize) figures.push(await variant(server, variantSize, runs, 'yaml', 'the same template in YAML'));
    figures.push(single('memory: peak RSS during deploys', server.memory()?.hwm, 'MB'));
  } finally {
    await server.stop();
  }
  if (variantSize) {
    const memory = await startServer({ db: ':memory:' });
    try {
      figures.push(await variant(memory, variantSize, runs, 'json', '--db :memory:'));
    } finally {
      await memory.stop();
    }
  }
  dir.remove();
  return figures;
}

/** The create figure again under another condition: a YAML body (parsing cost), or `--db :memory:` (disk cost). */
async function variant(server, n, runs, format, label) {
  const { wall, cpu } = await measureSize(server, undefined, n, runs, undefined, format);
  return figure(`deploy: create ${n} resources, ${label}`, wall.create, 'ms', {
    note: `server CPU ${median(cpu.create)} ms`,
  });
}
