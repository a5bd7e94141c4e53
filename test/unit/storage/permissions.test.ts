// The database (which holds the URL-signing key) and the object bodies are readable by their owner only (#25),
// whatever the umask: 0600 files, a 0700 objects folder; a file an older version left 0644 is narrowed on open.
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Store } from '../../../storage/index.js';

let dir: string;
let umask: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cfn-perm-'));
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

it('creates the database, its WAL and the objects folder for the owner only', async () => {
  const db = join(dir, 'cfn.db');
  const store = Store.open(db);
  try {
    const body = await store.bodies.write(Readable.from([Buffer.from('secret')]));
    expect(modeOf(db)).toBe(0o600);
    expect(modeOf(`${db}-wal`)).toBe(0o600);
    expect(modeOf(`${db}.objects`)).toBe(0o700);
    expect(modeOf(join(`${db}.objects`, body.id))).toBe(0o600);
    expect(readdirSync(`${db}.objects`)).toEqual([body.id]);
  } finally {
    store.close();
  }
});

it('narrows a database an older version created 0644', () => {
  const db = join(dir, 'old.db');
  closeSync(openSync(db, 'w', 0o644));
  expect(modeOf(db)).toBe(0o644);
  Store.open(db).close();
  expect(modeOf(db)).toBe(0o600);
});
