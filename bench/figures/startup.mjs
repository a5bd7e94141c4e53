// Figure 3: process start → first successful DescribeStacks, each run a cold process on a fresh database file.
import { startServer, scratch } from '../lib/server.mjs';
import { figure } from '../lib/stats.mjs';

export async function startupFigures({ runs = 10 } = {}) {
  const dir = scratch();
  const times = [];
  const rss = [];
  const cpu = [];
  try {
    for (let i = 0; i < runs; i++) {
      const server = await startServer({ db: dir.file(`startup-${i}.db`) });
      times.push(server.startupMs);
      rss.push(server.memory()?.rss);
      cpu.push(server.startupCpuMs);
      await server.stop();
    }
  } finally {
    dir.remove();
  }
  return [
    figure('startup: process start → first DescribeStacks', times, 'ms', { target: '≤ 200' }),
    figure('startup: server CPU until first answer', cpu, 'ms', { note: 'user + system, 10 ms ticks' }),
    figure('memory: RSS at first answer', rss, 'MB', { target: '≤ 80' }),
  ];
}
