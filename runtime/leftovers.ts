// The Lambda runtime's working folders left by servers that ended without closing (a SIGKILL, a crash, the machine
// stopping): each folder names its server's process id, and a starting runtime removes those whose process is gone.
// Without this, every kill left its folder (bootstraps, unpacked function code) in the temp directory for good.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RUNTIME_FOLDER_PREFIX = 'cfn-local-lambda-';
const OWNER_FILE = 'owner.pid';

/** Marks `folder` as this process's. */
export function claimFolder(folder: string): void {
  writeFileSync(join(folder, OWNER_FILE), String(process.pid));
}

/** Whether a process with this id runs (EPERM: it does, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the runtime folders in `dir` whose owner process is gone. A folder with no owner file (being created, or
 * made by an older version) is left alone, and so is one whose id a running process holds, even if reused.
 */
export function sweepLeftoverFolders(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(RUNTIME_FOLDER_PREFIX)) continue;
    let pid: number;
    try {
      pid = Number(readFileSync(join(dir, name, OWNER_FILE), 'utf8'));
    } catch {
      continue;
    }
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || running(pid)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}
