// Memory under sustained mixed load (issue: eight minutes of fuzzing took RSS from 112 MB to 365 MB): clients loop
// through stack lives by change set, event paging, S3 and SSM calls and a fuzzer's bad input (bench/lib/soakLoad.mjs)
// while the server's memory is sampled; the peak RSS is judged against a stated bound. No test asserts it.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { setInterval, clearInterval } from 'node:timers';
import { join } from 'node:path';
import { startServer, scratch, ROOT, nodeArgsFromEnv } from '../lib/server.mjs';
import { soakClient } from '../lib/soakLoad.mjs';
import { single } from '../lib/stats.mjs';

/** The bound a sustained mixed load must stay under (bench/README.md, "Memory under sustained load"). */
export const RSS_BOUND_MB = 200;
const PROBE = join(ROOT, 'bench', 'lib', 'memoryProbe.cjs');

/** The probe's newest line (V8's own figures), or undefined before its first. */
function lastProbe(file) {
  try {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    return JSON.parse(lines.at(-1));
  } catch {
    return undefined;
  }
}

/** Samples the server's RSS (from /proc) and V8's figures (from the probe) every `everyMs` until stopped. */
function sampler(server, probeFile, everyMs, started) {
  const samples = [];
  const take = () => {
    const rss = server.memory()?.rss;
    if (rss !== undefined) samples.push({ s: (performance.now() - started) / 1000, rss, ...lastProbe(probeFile) });
  };
  const timer = setInterval(take, everyMs);
  return { samples, stop: () => (take(), clearInterval(timer)) };
}

const fileMb = (file) => {
  try {
    return statSync(file).size / 2 ** 20;
  } catch {
    return 0;
  }
};

/** RSS at the sample nearest a share of the run. */
const rssAt = (samples, share) => samples[Math.min(samples.length - 1, Math.floor(samples.length * share))]?.rss;

function figures(samples, { seconds, clients, warmupShare, counts, dbMb }) {
  const peak = Math.max(...samples.map((s) => s.rss));
  const end = samples.at(-1) ?? {};
  const warm = rssAt(samples, warmupShare);
  const half = rssAt(samples, 0.5);
  const round1 = (v) => (v === undefined ? '?' : v.toFixed(1));
  const v8 = `V8 heap used ${round1(end.heapUsed)} of ${round1(end.heapTotal)} MB, external ${round1(end.external)} MB`;
  const note = `${clients} clients, ${seconds} s: ${counts.stacks} stacks, ${counts.refused} bad requests; database ${dbMb.toFixed(0)} MB`;
  return [
    single('soak: RSS once warm', warm, 'MB', { note: `after ${Math.round(warmupShare * 100)}% of the run` }),
    single('soak: RSS at the end', end.rss, 'MB', { note }),
    single('soak: RSS growth over the second half', end.rss - half, 'MB', { note: v8 }),
    single('soak: peak RSS under sustained mixed load', peak, 'MB', {
      target: `≤ ${RSS_BOUND_MB}`,
      pass: peak <= RSS_BOUND_MB,
      note: `${samples.length} samples`,
    }),
  ];
}

export async function soakFigures({ seconds = 120, clients = 8, resources = 10, warmupShare = 0.25, sampleMs } = {}) {
  const dir = scratch();
  const db = dir.file('soak.db');
  const probeFile = dir.file('probe.jsonl');
  const everyMs = sampleMs ?? Math.max(100, Math.min(5000, (seconds * 1000) / 60));
  const env = { CFN_BENCH_PROBE: probeFile, CFN_BENCH_PROBE_MS: String(everyMs) };
  const server = await startServer({ db, nodeArgs: [...nodeArgsFromEnv(), '--require', PROBE], env });
  const counts = { stacks: 0, refused: 0 };
  const started = performance.now();
  const sampling = sampler(server, probeFile, everyMs, started);
  try {
    const until = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, (_, i) => soakClient(server.endpoint, i, until, { resources, counts })),
    );
  } finally {
    sampling.stop();
    await server.stop();
  }
  const dbMb = fileMb(db) + fileMb(`${db}-wal`);
  dir.remove();
  // BENCH_SOAK_SAMPLES=<file> keeps every sample (JSON lines) for a plot or a closer look
  const keep = process.env.BENCH_SOAK_SAMPLES;
  if (keep) writeFileSync(keep, sampling.samples.map((s) => JSON.stringify(s)).join('\n') + '\n');
  return figures(sampling.samples, { seconds, clients, warmupShare, counts, dbMb });
}
