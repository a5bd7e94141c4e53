// scripts/lazyBuiltins.mjs: the bundle's stand-ins for built-in modules behave as the modules, loading them only
// when really used. Each case is bundled with the plugin and run in a fresh Node process.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
// @ts-expect-error plain ESM JavaScript (scripts/ is outside the TypeScript project)
import { lazyBuiltins } from '../../../scripts/lazyBuiltins.mjs';

/** Bundles `source` as the build does and runs it; resolves with what it prints. */
async function run(source: string): Promise<string> {
  const { outputFiles } = await build({
    stdin: { contents: source, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    plugins: [lazyBuiltins],
    logLevel: 'silent',
  });
  return execFileSync(process.execPath, ['-e', outputFiles[0].text], { encoding: 'utf8' }).trim();
}

const loaded = (name: string) => `process.moduleLoadList.includes('NativeModule ${name}')`;

describe('lazy built-in stand-ins', () => {
  it("an assertion that holds loads nothing; one that fails throws node:assert's own error", async () => {
    const out = await run(`
      const assert = require('node:assert');
      assert(true, 'holds');
      const before = ${loaded('assert')};
      try { assert(0, 'the message'); } catch (err) { console.log(before, err.name, err.code, err.message, ${loaded('assert')}); }
    `);
    expect(out).toBe('false AssertionError ERR_ASSERTION the message true');
  });

  it("the rest of assert's API works, through the real module", async () => {
    const out = await run(`
      const assert = require('assert');
      assert.strictEqual(1, 1);
      try { assert.deepStrictEqual({ a: 1 }, { a: 2 }); } catch (err) { console.log(err.code, typeof assert.AssertionError); }
    `);
    expect(out).toBe('ERR_ASSERTION function');
  });

  it('node:http2 and node:https load on first use and then are the modules themselves', async () => {
    const out = await run(`
      const http2 = require('node:http2');
      const https = require('node:https');
      const before = ${loaded('http2')} || ${loaded('https')};
      console.log(before, typeof http2.createServer, http2.constants.HTTP2_HEADER_STATUS, 'request' in https, ${loaded('http2')});
    `);
    expect(out).toBe('false function :status true true');
  });
});
