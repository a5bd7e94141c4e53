// The wire fuzzer (scripts/fuzz.mjs) for a short fixed budget against the built server: any 5xx, hang, reset or
// crash fails CI, with its reproduction written under .cfn-local/fuzz-ci/. `npm run fuzz -- --seconds 600` runs long.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

it('20 s of fuzz over every served service: no 5xx, hang, reset or crash', () => {
  const run = spawnSync(
    process.execPath,
    ['scripts/fuzz.mjs', '--seconds', '20', '--seed', '25', '--out', join(ROOT, '.cfn-local', 'fuzz-ci')],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
  );
  const summary = run.stdout.trim().split('\n').at(-1) ?? '';
  expect(run.status, `${summary}\n${run.stderr.slice(-2000)}`).toBe(0);
  expect(JSON.parse(summary)).toMatchObject({ fivexx: 0, hangs: 0, resets: 0, crashes: 0 });
}, 90_000);
