// Prints the top self-time functions of a V8 .cpuprofile (node --cpu-prof), and the top by file with --by-file.
// Usage: node bench/profile-top.mjs <file.cpuprofile> [--by-file] [--limit 30] [--skip-ms 500 (leave out startup)]
//        [--inclusive]        time with the function anywhere on the stack instead of self time
//        [--callers NAME]     only samples under a function named NAME, grouped by its caller chain (3 frames)
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'by-file': { type: 'boolean' },
    inclusive: { type: 'boolean' },
    callers: { type: 'string' },
    limit: { type: 'string' },
    'skip-ms': { type: 'string' },
  },
});
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);

const frameName = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const short = url.replace(/^.*\/(node_modules|dist)\//, '$1/');
  return values['by-file'] ? short || '(native)' : `${functionName || '(anonymous)'}  ${short}:${lineNumber + 1}`;
};
const stackOf = (node) => {
  const frames = [];
  for (let at = node; at; at = parentOf.get(at.id)) frames.push(at);
  return frames;
};

/** The keys one sample is counted under. */
function keysOf(node) {
  if (values.callers) {
    const frames = stackOf(node);
    const at = frames.findIndex((f) => f.callFrame.functionName === values.callers);
    if (at < 0) return [];
    return [
      frames
        .slice(at + 1, at + 4)
        .map(frameName)
        .join('  <  '),
    ];
  }
  if (values.inclusive) return [...new Set(stackOf(node).map(frameName))];
  return [frameName(node)];
}

const totals = new Map();
const deltas = profile.timeDeltas;
const skip = Number(values['skip-ms'] ?? 0) * 1000;
let at = 0;
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  at += deltas[i] ?? 0;
  if (at < skip) continue;
  const ms = (deltas[i + 1] ?? 0) / 1000;
  total += ms;
  for (const key of keysOf(byId.get(profile.samples[i]))) totals.set(key, (totals.get(key) ?? 0) + ms);
}
const rows = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(values.limit ?? 30));
console.log(`total ${total.toFixed(1)} ms`);
for (const [key, ms] of rows)
  console.log(`${ms.toFixed(1).padStart(8)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`);
