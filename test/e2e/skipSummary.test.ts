// npm test's last line says what was skipped and why (test/helpers/skipSummary.ts), and under CI a skip fails the
// run: a real vitest run over a fixture suite that skips.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT } from './dockerfile.js';
import { run } from './clients.js';

const VITEST = join(ROOT, 'node_modules', '.bin', 'vitest');
const CONFIG = join(ROOT, 'test', 'fixtures', 'skips', 'vitest.config.ts');
const LINE = '[cfn-local] 2 tests skipped: boto3 things: no python3 on PATH can import boto3 (2)';

const vitest = (ci: boolean) => {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.CI;
  delete env.VITEST;
  return run(VITEST, ['run', '--config', CONFIG], { cwd: ROOT, env: ci ? { ...env, CI: 'true' } : env });
};

describe('the skip summary', () => {
  it('ends a run with one line naming the skipped suites and why; the run passes off CI', async () => {
    const result = await vitest(false);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(LINE);
  });

  it('fails the run under CI when a test was skipped', async () => {
    const result = await vitest(true);
    expect(result.stdout).toContain(LINE);
    expect(result.stdout).toContain('[cfn-local] CI runs every test: a skipped test fails the run');
    expect(result.code).toBe(1);
  });
});
