import { afterEach, beforeEach, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimFolder, sweepLeftoverFolders } from '../../../runtime/leftovers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cfn-local-leftovers-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A runtime folder in `dir` whose owner file names `pid` (none when undefined). */
function folder(name: string, pid?: number) {
  mkdirSync(join(dir, name, 'code'), { recursive: true });
  if (pid !== undefined) writeFileSync(join(dir, name, 'owner.pid'), String(pid));
}

it('removes the folders of servers that are gone and keeps those of running ones', () => {
  const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
  folder('cfn-local-lambda-gone', gone);
  folder('cfn-local-lambda-alive', process.ppid);
  folder('cfn-local-lambda-unclaimed');
  folder('cfn-local-other', gone);
  mkdirSync(join(dir, 'cfn-local-lambda-mine'));
  claimFolder(join(dir, 'cfn-local-lambda-mine'));
  sweepLeftoverFolders(dir);
  expect(readdirSync(dir).sort()).toEqual([
    'cfn-local-lambda-alive',
    'cfn-local-lambda-mine',
    'cfn-local-lambda-unclaimed',
    'cfn-local-other',
  ]);
});

it('does nothing for a folder that does not exist', () => {
  sweepLeftoverFolders(join(dir, 'missing'));
  expect(existsSync(join(dir, 'missing'))).toBe(false);
});
