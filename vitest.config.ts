import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // ends each run with one line of what was skipped and why; under CI a skip fails the run
    reporters: ['default', './test/helpers/skipSummary.ts'],
    // the SDK warns once per process that its 2027 releases need Node 22; CI runs on Node 20 by design
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
