// Prints the top self-time functions of a V8 .cpuprofile (node --cpu-prof), and the top by file with --by-file.
// Usage: node bench/profile-top.mjs <file.cpuprofile> [--by-file] [--limit 30] [--skip-ms 500 (leave out startup)]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'by-file': { type: 'boolean' }, limit: { type: 'string' }, 'skip-ms': { type: 'string' } },
});
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const deltas = profile.timeDeltas;
const skip = Number(values['skip-ms'] ?? 0) * 1000;
let at = 0;
for (let i = 0; i < profile.samples.length; i++) {
  at += deltas[i] ?? 0;
  if (at < skip) continue;
  const node = byId.get(profile.samples[i]);
  const { functionName, url, lineNumber } = node.callFrame;
  const short = url.replace(/^.*\/(node_modules|dist)\//, '$1/');
  const key = values['by-file'] ? short || '(native)' : `${functionName || '(anonymous)'}  ${short}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(values.limit ?? 30));
console.log(`total ${total.toFixed(1)} ms`);
for (const [key, ms] of rows) console.log(`${ms.toFixed(1).padStart(8)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`);
