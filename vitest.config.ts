import { readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { TEST_ENDPOINT, localOnlyReason } from './test/helpers/endpoint.js';

/**
 * CFN_LOCAL_TEST_ENDPOINT set (CONTRIBUTING.md, "Running the tests against real AWS"): only the API and
 * conformance tests run, against that endpoint, less the files that need cfn-local itself, each named with why.
 */
function againstEndpoint(endpoint: string): string[] {
  const files = ['test/api', 'test/conformance'].flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `${dir}/${f}`),
  );
  const kept = files.filter((file) => {
    const reason = localOnlyReason(file);
    if (reason) process.stdout.write(`[cfn-local] left out against ${endpoint}: ${file}: ${reason}\n`);
    return reason === undefined;
  });
  return kept;
}

export default defineConfig({
  test: {
    include: TEST_ENDPOINT ? againstEndpoint(TEST_ENDPOINT) : ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // ends each run with one line of what was skipped and why; under CI a skip fails the run
    reporters: ['default', './test/helpers/skipSummary.ts'],
    // the SDK warns once per process that its 2027 releases need Node 22; CI runs on Node 20 by design
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
