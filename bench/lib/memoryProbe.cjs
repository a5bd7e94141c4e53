// Preloaded into the server by the soak group (`node --require bench/lib/memoryProbe.cjs`): appends the process's
// own memory figures (V8 heap, external, array buffers, RSS) as a JSON line to $CFN_BENCH_PROBE every
// $CFN_BENCH_PROBE_MS ms, which /proc cannot tell from outside. Nothing in the server knows it is there.
'use strict';
const { appendFileSync } = require('node:fs');
const { setInterval } = require('node:timers');
const { getHeapSpaceStatistics } = require('node:v8');

const file = process.env.CFN_BENCH_PROBE;
const every = Number(process.env.CFN_BENCH_PROBE_MS) || 1000;
const MB = 1024 * 1024;

/** The committed sizes of V8's young generation, old space and large-object space (strings and arrays > ~128 KB). */
function spaces() {
  const size = (name) => getHeapSpaceStatistics().find((s) => s.space_name === name)?.space_size / MB;
  return { newSpace: size('new_space'), oldSpace: size('old_space'), largeObjects: size('large_object_space') };
}

function sample() {
  const m = process.memoryUsage();
  const line = { t: Date.now(), rss: m.rss / MB, heapTotal: m.heapTotal / MB, heapUsed: m.heapUsed / MB };
  Object.assign(line, { external: m.external / MB, arrayBuffers: m.arrayBuffers / MB }, spaces());
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

if (file) setInterval(sample, every).unref();
