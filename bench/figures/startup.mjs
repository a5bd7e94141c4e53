// Figure 3: process start → first successful DescribeStacks, each run a cold process on a fresh database file;
// beside it the same for a bare node:http server (bench/lib/bareServer.cjs), the floor of this machine's Node.
import { join } from 'node:path';
import { startServer, scratch, ROOT } from '../lib/server.mjs';
import { figure, median, single } from '../lib/stats.mjs';

const BARE = join(ROOT, 'bench', 'lib', 'bareServer.cjs');

export async function startupFigures({ runs = 10 } = {}) {
  const dir = scratch();
  const times = [];
  const floor = [];
  const rss = [];
  const cpu = [];
  try {
    // alternate the two, so a change in the machine's load falls on both alike
    for (let i = 0; i < runs; i++) {
      const server = await startServer({ db: dir.file(`startup-${i}.db`) });
      times.push(server.startupMs);
      rss.push(server.memory()?.rss);
      cpu.push(server.startupCpuMs);
      await server.stop();
      const bare = await startServer({ db: dir.file('unused.db'), main: BARE });
      floor.push(bare.startupMs);
      await bare.stop();
    }
  } finally {
    dir.remove();
  }
  return [
    figure('startup: process start → first DescribeStacks', times, 'ms', { target: '≤ 200' }),
    figure('startup floor: bare node:http server → first answer', floor, 'ms', { note: 'Node alone on this machine' }),
    single('startup above the floor', median(times) - median(floor), 'ms', { note: 'medians' }),
    figure('startup: server CPU until first answer', cpu, 'ms', { note: 'user + system, 10 ms ticks' }),
    figure('memory: RSS at first answer', rss, 'MB', { target: '≤ 80' }),
  ];
}
