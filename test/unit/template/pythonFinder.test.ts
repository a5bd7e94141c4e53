// template/transforms/samPython.ts: the Python that has a module is found along PATH, not at one fixed path; the SAM
// translator's Python and the end-to-end tests' boto3 Python are found this way.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPythonWith } from '../../../template/transforms/samPython.js';

const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
});

/** A fake `python3` in its own folder: it imports `module` (prints its own path) or fails as Python would. */
function fakePython(root: string, name: string, module: string | undefined): string {
  const dir = join(root, name);
  mkdirSync(dir);
  const body = module
    ? `case "$2" in *"import sys, ${module};"*) echo "${dir}/python3"; exit 0;; esac\nexit 1\n`
    : 'echo "ModuleNotFoundError" >&2\nexit 1\n';
  writeFileSync(join(dir, 'python3'), `#!/bin/sh\n${body}`);
  chmodSync(join(dir, 'python3'), 0o755);
  return dir;
}

describe('findPythonWith', () => {
  it('passes over a python3 on PATH without the module and takes a later one that has it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cfn-local-pythons-'));
    const without = fakePython(root, 'without', undefined);
    const withBoto3 = fakePython(root, 'with', 'boto3');
    process.env.PATH = [without, withBoto3].join(':');
    expect(await findPythonWith('boto3')).toBe(join(withBoto3, 'python3'));
    expect(await findPythonWith('samtranslator')).toBeUndefined();
  });

  it('runs a configured interpreter as given, and only it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cfn-local-pythons-'));
    const withBoto3 = fakePython(root, 'with', 'boto3');
    process.env.PATH = withBoto3;
    expect(await findPythonWith('boto3', join(root, 'nowhere', 'python3'))).toBeUndefined();
  });
});
