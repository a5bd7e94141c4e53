// The crash campaign (scripts/crash.mjs) for a short fixed budget against the built server: 50 SIGKILLs during
// mixed stack operations, S3 uploads and Lambda invocations; any violated invariant fails CI, with its reproduction
// written under .cfn-local/crash-ci/. `npm run crash -- --kills 1000` runs long.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

it('50 kills at random moments of mixed work: every invariant holds after each restart', () => {
  const run = spawnSync(
    process.execPath,
    ['scripts/crash.mjs', '--kills', '50', '--seed', '25', '--out', join(ROOT, '.cfn-local', 'crash-ci')],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
  );
  const summary = run.stdout.trim().split('\n').at(-1) ?? '';
  expect(run.status, `${summary}\n${run.stderr.slice(-3000)}`).toBe(0);
  expect(JSON.parse(summary)).toMatchObject({ kills: 50, violations: 0 });
}, 180_000);
