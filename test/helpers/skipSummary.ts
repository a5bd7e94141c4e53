// A vitest reporter that ends every run with one line naming what was skipped and why, so "5 skipped" is never
// taken for "all passed"; under CI (CI set, as .ci/run runs), any skipped test fails the run.
// A suite that skips says why in its title: `<what> — SKIPPED: <reason>` (test/e2e/clients.ts gate()).
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';

const MARK = 'SKIPPED';

/** The reason a skipped test gives: the nearest title (its own, then its suites') that says SKIPPED. */
function reasonOf(test: TestCase): string | undefined {
  for (let node: TestCase | TestCase['parent'] = test; node.type !== 'module'; node = node.parent) {
    const at = node.name.indexOf(MARK);
    if (at !== -1) return node.name.replace(/\s*—?\s*SKIPPED:?\s*/, ': ').replace(/: $/, '');
  }
  return undefined;
}

/** Skipped tests grouped by the reason their titles give (or by their file when they give none). */
export function skippedByReason(modules: readonly TestModule[], filtered: boolean): Map<string, number> {
  const groups = new Map<string, number>();
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      if (test.result().state !== 'skipped') continue;
      const reason = reasonOf(test);
      // A name filter (-t) skips every test it leaves out: only skips that say why count then.
      if (!reason && filtered) continue;
      const key = reason ?? `${module.relativeModuleId}: skipped without a reason in its title`;
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
  }
  return groups;
}

export function summaryLine(groups: Map<string, number>): string {
  const total = [...groups.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return '[cfn-local] no test skipped';
  const parts = [...groups].map(([reason, n]) => `${reason} (${n})`);
  return `[cfn-local] ${total} test${total === 1 ? '' : 's'} skipped: ${parts.join('; ')}`;
}

export default class SkipSummary implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const groups = skippedByReason(modules, this.filtered);
    process.stdout.write(`${summaryLine(groups)}\n`);
    if (process.env.CI && groups.size > 0) {
      process.stdout.write('[cfn-local] CI runs every test: a skipped test fails the run\n');
      process.exitCode = 1;
    }
  }
}
