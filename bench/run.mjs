#!/usr/bin/env node
// The benchmark suite (`npm run bench`): starts the built server, drives it over HTTP with the AWS SDK, prints a
// table, or with --json one JSON object per figure. See bench/README.md for what each figure means.
import { parseArgs } from 'node:util';
import { cpus, loadavg } from 'node:os';
import { deployFigures } from './figures/deploy.mjs';
import { apiFigures } from './figures/api.mjs';
import { startupFigures } from './figures/startup.mjs';
import { concurrencyFigures } from './figures/concurrency.mjs';
import { scalingFigures } from './figures/scaling.mjs';
import { s3Figures } from './figures/s3.mjs';
import { soakFigures } from './figures/soak.mjs';
import { consoleFigures } from './figures/console.mjs';
import { lambdaFigures } from './figures/lambda.mjs';
import { backendFigures } from './figures/backend.mjs';
import { table } from './lib/stats.mjs';

/** BENCH_SOAK_SECONDS runs the soak longer, e.g. 480 for the eight minutes of bench/README.md's long run. */
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS) || undefined;

/** Each group with its full and --quick options. */
export const GROUPS = {
  startup: { run: startupFigures, full: { runs: 10 }, quick: { runs: 3 } },
  deploy: {
    run: deployFigures,
    full: { sizes: [1, 10, 100, 500], runs: 5, floorRuns: 5 },
    quick: { sizes: [1, 10, 100], runs: 3, floorRuns: 3, variantSize: 100 },
  },
  api: {
    run: apiFigures,
    full: { stacks: 1000, resources: 33, calls: 2000 },
    quick: { stacks: 100, resources: 33, calls: 300, warmup: 50 },
  },
  concurrency: { run: concurrencyFigures, full: { clients: 50, resources: 20 }, quick: { clients: 10, resources: 20 } },
  s3: { run: s3Figures, full: { mb: 100, runs: 3 }, quick: { mb: 20, runs: 2 } },
  scaling: {
    run: scalingFigures,
    full: { sizes: [100, 200, 500], runs: 3, accountStacks: 5000 },
    quick: { sizes: [50, 100], runs: 2, accountStacks: 500 },
  },
  console: {
    run: consoleFigures,
    full: { stacks: 1000, events: 10000, runs: 5 },
    quick: { stacks: 1000, events: 10000, runs: 2 },
  },
  lambda: { run: lambdaFigures, full: { runs: 10 }, quick: { runs: 3 } },
  backend: {
    run: backendFigures,
    full: { resources: 50, runs: 3, calls: 300, warmup: 30 },
    quick: { resources: 50, runs: 1, calls: 100, warmup: 10 },
  },
  soak: {
    run: soakFigures,
    full: { seconds: SOAK_SECONDS ?? 90, clients: 8 },
    quick: { seconds: SOAK_SECONDS ?? 20, clients: 4 },
  },
};

export async function runBench({ only, quick = false, onFigure = () => {} } = {}) {
  const figures = [];
  for (const [name, group] of Object.entries(GROUPS)) {
    if (only && !only.includes(name)) continue;
    for (const f of await group.run(quick ? group.quick : group.full)) {
      figures.push({ group: name, ...f });
      onFigure(f);
    }
  }
  return figures;
}

export function machine() {
  return {
    nproc: cpus().length,
    cpu: cpus()[0]?.model,
    node: process.version,
    loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

async function main() {
  // The SDK warns that it will need Node 22 from 2027: true, and noise in a table.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean' },
      quick: { type: 'boolean' },
      only: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`node bench/run.mjs [--json] [--quick] [--only ${Object.keys(GROUPS).join('|')}]...\n`);
    return;
  }
  const only = values.only?.flatMap((o) => o.split(','));
  const unknown = only?.filter((o) => !GROUPS[o]);
  if (unknown?.length) throw new Error(`unknown group(s): ${unknown.join(', ')}`);
  const started = performance.now();
  const onFigure = values.json ? (f) => process.stdout.write(`${JSON.stringify(f)}\n`) : () => {};
  // The machine as a figure-shaped line of its own, so every line parses the same way.
  if (values.json)
    process.stdout.write(
      `${JSON.stringify({ name: 'machine', value: null, unit: '', n: 1, p50: null, p99: null, ...machine() })}\n`,
    );
  const figures = await runBench({ only, quick: values.quick, onFigure });
  if (!values.json) {
    const m = machine();
    process.stdout.write(`cfn-local bench on ${m.nproc} × ${m.cpu}, Node ${m.node}, load ${m.loadavg.join(' ')}\n\n`);
    process.stdout.write(`${table(figures)}\n\n${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
