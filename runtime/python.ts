// The python3 that runs python3* functions: the one configured (--lambda-python), else the first python3 on PATH
// (found as the SAM translator's Python is found), with its minor version for layers' site-packages folders.
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface Python {
  executable: string;
  /** e.g. "3.11" */
  version: string;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function versionOf(python: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { timeout: 30_000 }, (err, out) =>
      resolve(err ? undefined : out.trim()),
    );
  });
}

/** The interpreter, or undefined when there is none (python3* functions then fail with a text naming the flag). */
export async function findLambdaPython(configured?: string): Promise<Python | undefined> {
  const candidates = configured
    ? [configured]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, 'python3'))
        .filter(executable);
  for (const candidate of candidates) {
    const version = await versionOf(candidate);
    if (version) return { executable: candidate, version };
  }
  return undefined;
}
