// package.json's `engines` is true: every Node version it admits is one every locked package admits, so `npm install`
// on a supported Node prints no EBADENGINE warning (cookie@2 once asked for Node 22 under fastify's light-my-request),
// but for the packages listed in SUPPLIED, whose newer-Node need cfn-local fills itself.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// semver is npm's own range logic, already installed beside the tools that need it
const semver = require('semver') as { subset(a: string, b: string): boolean; satisfies(v: string, r: string): boolean };
const read = (file: string) => JSON.parse(readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8'));
const ENGINES: string = read('package.json').engines.node;
const LOCKED = Object.entries(read('package-lock.json').packages as Record<string, { engines?: { node?: string } }>);

/**
 * Locked packages that ask for a newer Node than `engines` admits, each with what cfn-local supplies in its place on
 * the older Node. Any other such package fails the test, and so does one listed here that no longer asks.
 */
const SUPPLIED: Record<string, string> = {
  // its one Node 22 API; runtime/stepFunctions/promiseResolvers.ts defines it where missing
  'node_modules/aws-local-stepfunctions': 'Promise.withResolvers',
};

describe('engines', () => {
  it('admits only Node versions every locked package admits, but for what cfn-local supplies', () => {
    const narrower = LOCKED.filter(([path, p]) => path && p.engines?.node && !semver.subset(ENGINES, p.engines.node));
    expect(narrower.map(([path]) => path).sort()).toEqual(Object.keys(SUPPLIED).sort());
  });

  it('admits the Node running the tests', () => {
    expect(semver.satisfies(process.versions.node, ENGINES)).toBe(true);
  });
});
