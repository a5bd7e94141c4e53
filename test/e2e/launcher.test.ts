// dist/cfn-local.cjs (server/launcher.cts): the bundle runs with the code cache the build wrote for it, and a cache
// from another build, or a corrupt one, is left aside without breaking the start.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ROOT } from './dockerfile.js';

const DIST = join(ROOT, 'dist');
const scratch = mkdtempSync(join(tmpdir(), 'cfn-local-launcher-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Whether V8 took the cache when the launcher in `dist` loaded its bundle, asked of a fresh process. */
function cacheUsed(dist: string): boolean {
  const code = `process.stdout.write(String(require(${JSON.stringify(join(dist, 'cfn-local.cjs'))}).loadBundle().cacheUsed))`;
  return execFileSync(process.execPath, ['-e', code], { encoding: 'utf8' }) === 'true';
}

/** A copy of the built launcher and bundle beside the real node_modules and generated/, with the given cache file. */
function distWithCache(name: string, cache: Buffer): string {
  const root = join(scratch, name);
  const dist = join(root, 'dist');
  mkdirSync(dist, { recursive: true });
  for (const file of ['cfn-local.cjs', 'cfn-local.bundle.cjs']) copyFileSync(join(DIST, file), join(dist, file));
  writeFileSync(join(dist, 'cfn-local.bundle.cache'), cache);
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  symlinkSync(join(ROOT, 'generated'), join(root, 'generated'));
  return dist;
}

/** Starts the launcher of `dist` on a random port and resolves with its first DescribeStacks answer. */
async function firstAnswer(dist: string): Promise<unknown> {
  const child = spawn(process.execPath, [join(dist, 'cfn-local.cjs'), '--port', '0', '--db', ':memory:'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const address = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const match = /"address":"([^"]+)"/.exec(out);
        if (match) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const client = new CloudFormationClient({
      endpoint: address,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    const { Stacks } = await client.send(new DescribeStacksCommand({}));
    client.destroy();
    return Stacks;
  } finally {
    child.kill('SIGTERM');
  }
}

describe('the bundled server and its code cache', () => {
  const built = readFileSync(join(DIST, 'cfn-local.bundle.cache'));
  const header = built.subarray(0, built.indexOf('\n') + 1);

  it('takes the cache the build wrote for its bundle, whose first line names the build', () => {
    expect(header.toString()).toBe(readFileSync(join(DIST, 'cfn-local.bundle.cjs'), 'latin1').split('\n')[0] + '\n');
    expect(cacheUsed(DIST)).toBe(true);
  });

  it('leaves aside a cache made for another build, and still serves', async () => {
    const other = Buffer.concat([Buffer.from('// cfn-local build another-build\n'), built.subarray(header.length)]);
    const dist = distWithCache('stale', other);
    expect(cacheUsed(dist)).toBe(false);
    expect(await firstAnswer(dist)).toEqual([]);
  });

  it('starts when the cache for this build is corrupt (V8 rejects it)', async () => {
    const dist = distWithCache('corrupt', Buffer.concat([header, Buffer.from('not a code cache')]));
    expect(cacheUsed(dist)).toBe(false);
    expect(await firstAnswer(dist)).toEqual([]);
  });
});
