// Memory under sustained mixed load (issue: eight minutes of fuzzing took RSS from 112 MB to 365 MB): clients loop
// through stack lives by change set, event paging, S3 and SSM calls and a fuzzer's bad input (bench/lib/soakLoad.mjs)
// while the server's memory is sampled; the peak RSS is judged against a stated bound. No test asserts it.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { setInterval, clearInterval } from 'node:timers';
import { join } from 'node:path';
import { startServer, scratch, ROOT, nodeArgsFromEnv } from '../lib/server.mjs';
import { soakClient } from '../lib/soakLoad.mjs';
import { single, median } from '../lib/stats.mjs';

/** The bound a sustained mixed load must stay under (bench/README.md, "Memory under sustained load"). */
export const RSS_BOUND_MB = 256;
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
    if (rss !== undefined) samples.push({ s: (performance.now() - started) / 1000, rss, v8: lastProbe(probeFile) });
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

/** The samples of one quarter of the run (0-3). */
const quarter = (samples, q) =>
  samples.slice(Math.floor((samples.length * q) / 4), Math.floor((samples.length * (q + 1)) / 4));
const rssOf = (samples) => samples.map((s) => s.rss);
const heapUsedOf = (samples) => samples.map((s) => s.v8?.heapUsed).filter((v) => typeof v === 'number');
const mb = (v) => (Number.isFinite(v) ? v.toFixed(0) : '?');

/** Where the probe's line nearest the peak found the RSS: V8's heap (its young generation), external, native. */
function breakdown(v8) {
  if (!v8) return 'no probe line yet';
  const native = v8.rss - v8.heapTotal - v8.external;
  return `near the peak: V8 heap ${mb(v8.heapTotal)} MB (young generation ${mb(v8.newSpace)}), external ${mb(v8.external)}, native (SQLite, code, malloc) ${mb(native)}`;
}

/**
 * The figures: RSS once warm and at the end (medians of the second and last quarters), the peak against the bound,
 * and the plateau of what V8 keeps (its lowest heapUsed per quarter, roughly what survived the collections: in a
 * short run it still holds the warm-up, JIT code and caches filling, and a major collection may not have run).
 */
function figures(samples, { seconds, clients, counts, dbMb }) {
  const peak = samples.reduce((a, b) => (b.rss > a.rss ? b : a), samples[0] ?? { rss: NaN });
  const [second, last] = [quarter(samples, 1), quarter(samples, 3)];
  const kept = (q) => Math.min(...heapUsedOf(q));
  const growth = kept(last) - kept(second);
  const note = `${clients} clients, ${seconds} s: ${counts.stacks} stacks, ${counts.refused} bad requests; database ${dbMb.toFixed(0)} MB`;
  return [
    single('soak: RSS once warm', median(rssOf(second)), 'MB', { note: 'median of the second quarter' }),
    single('soak: RSS at the end', median(rssOf(last)), 'MB', { note: `median of the last quarter; ${note}` }),
    single('soak: peak RSS under sustained mixed load', peak.rss, 'MB', {
      target: `≤ ${RSS_BOUND_MB}`,
      pass: peak.rss <= RSS_BOUND_MB,
      note: `${samples.length} samples; ${breakdown(peak.v8)}`,
    }),
    single('soak: heap kept, last quarter − second quarter', Number.isFinite(growth) ? growth : null, 'MB', {
      note: `lowest heapUsed: ${mb(kept(second))} → ${mb(kept(last))} MB; ~0 once warm-up is over (a long run)`,
    }),
  ];
}

export async function soakFigures({ seconds = 120, clients = 8, resources = 10, sampleMs } = {}) {
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
  return figures(sampling.samples, { seconds, clients, counts, dbMb });
}
