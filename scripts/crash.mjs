// A bounded crash campaign (issue #25): starts the built server (dist/) on loopback with a file database, runs rounds
// of mixed work (scripts/crash/workload.mjs: creates, updates, rollbacks, deletes, nested trees, S3 uploads, Lambda
// invocations), SIGKILLs the server at a random moment of each, sometimes again while it recovers, restarts it on
// the same database and checks every invariant: the files (scripts/crash/fileChecks.mjs) and, once settled, every
// stack touched (scripts/crash/stackChecks.mjs) and every object written. Stops after --kills kills; writes each
// violation's reproduction to --out (default .cfn-local/crash/) and exits 1 if there was any.
// Usage: npm run crash -- --kills 1000 [--seed S] [--max-delay-ms 250] [--out DIR]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ListStacksCommand } from '@aws-sdk/client-cloudformation';
import { ROOT, scratch, startServer } from '../bench/lib/server.mjs';
import { Workload } from './crash/workload.mjs';
import { checkDatabase, checkNoEnvironmentsLeft, checkSwept, checkTempSwept } from './crash/fileChecks.mjs';
import { checkWorld } from './crash/worldChecks.mjs';

const { values: args } = parseArgs({
  options: {
    kills: { type: 'string', default: '100' },
    seed: { type: 'string', default: String(Date.now() % 100000) },
    'max-delay-ms': { type: 'string', default: '250' },
    'settle-ms': { type: 'string', default: '30000' },
    out: { type: 'string', default: join(ROOT, '.cfn-local', 'crash') },
  },
});
let seed = Number(args.seed);
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const IN_PROGRESS = [
  'CREATE_IN_PROGRESS',
  'ROLLBACK_IN_PROGRESS',
  'DELETE_IN_PROGRESS',
  'UPDATE_IN_PROGRESS',
  'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
  'UPDATE_ROLLBACK_IN_PROGRESS',
  'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
];

/** Waits until no stack of the account is *_IN_PROGRESS; the time it took, or the stacks still running. */
async function settle(cf, timeoutMs) {
  const started = Date.now();
  for (;;) {
    const { StackSummaries } = await cf.send(new ListStacksCommand({ StackStatusFilter: IN_PROGRESS }));
    if (!StackSummaries.length) return { ms: Date.now() - started };
    if (Date.now() - started > timeoutMs)
      return { stuck: StackSummaries.map((s) => `${s.StackName} ${s.StackStatus}`) };
    await sleep(20);
  }
}

async function main() {
  const space = scratch();
  const db = space.file('crash.db');
  const tmp = space.file('tmp');
  mkdirSync(tmp);
  const launch = () => startServer({ db, env: { TMPDIR: tmp } });
  const workload = new Workload(random);
  let server = await launch();
  workload.connect(server.endpoint);
  await workload.setUp();
  const started = Date.now();
  const stats = { kills: 0, midOperation: 0, duringRecovery: 0, rounds: 0, slowestSettleMs: 0 };
  const violations = [];
  let round = 0;
  const kill = async () => {
    await server.kill();
    workload.disconnect();
    stats.kills++;
    checkDatabase(db, violation);
    await checkNoEnvironmentsLeft(tmp, 5000, violation);
  };
  const violation = (text) => violations.push({ round, text });
  while (stats.kills < Number(args.kills)) {
    round = ++stats.rounds;
    const before = violations.length;
    const work = workload.round(round);
    await sleep(random() * Number(args['max-delay-ms']));
    if (work.inFlight() > 0) stats.midOperation++;
    await kill();
    await work.done;
    server = await launch();
    if (random() < 0.2 && stats.kills < Number(args.kills)) {
      // the restart's own recovery, killed too
      await sleep(random() * 150);
      stats.duringRecovery++;
      await kill();
      server = await launch();
    }
    workload.connect(server.endpoint);
    checkSwept(db, violation);
    checkTempSwept(tmp, violation);
    const settled = await settle(workload.cf, Number(args['settle-ms']));
    if (settled.stuck) violation(`still in progress ${args['settle-ms']} ms after the restart: ${settled.stuck}`);
    else stats.slowestSettleMs = Math.max(stats.slowestSettleMs, settled.ms);
    await checkWorld(workload, server.endpoint, violation);
    if (violations.length > before) report(round, workload, server, violations.slice(before));
  }
  await server.stop();
  space.remove();
  const seconds = Math.round((Date.now() - started) / 1000);
  const summary = { seed: Number(args.seed), ...stats, seconds, violations: violations.length };
  console.log(
    JSON.stringify({ ...summary, operations: workload.counts, reproductions: violations.length ? args.out : null }),
  );
  process.exit(violations.length ? 1 : 0);
}

/** One file per round with a violation: the seed, what the round started, what broke, the server's last output. */
function report(round, workload, server, found) {
  mkdirSync(args.out, { recursive: true });
  const file = join(args.out, `round-${round}.json`);
  const rounds = workload.log.slice(-3);
  const text = { seed: Number(args.seed), round, violations: found, rounds, output: server.output().slice(-4000) };
  writeFileSync(file, JSON.stringify(text, null, 2));
  for (const v of found) console.error(`round ${round}: ${v.text}`);
}

await main();
