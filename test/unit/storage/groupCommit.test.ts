// Group commit (storage/db.ts): units of one event-loop turn share a transaction, each still atomic on its own.
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../storage/index.js';

const dirs: string[] = [];
function openStore() {
  const dir = mkdtempSync(join(tmpdir(), 'cfn-group-'));
  dirs.push(dir);
  const file = join(dir, 'cfn.db');
  return { store: Store.open(file), file };
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const committedJournal = (file: string) => {
  const reader = new Database(file, { readonly: true });
  try {
    return (reader.prepare('SELECT phase FROM journal ORDER BY seq').all() as { phase: string }[]).map((r) => r.phase);
  } finally {
    reader.close();
  }
};

const entry = (phase: string) => ({ operationId: 'op', stackId: 'stack', action: 'resource', phase, timestamp: 't' });
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('units of one turn are visible at once to the same connection and committed on the next turn', async () => {
    const { store, file } = openStore();
    store.transaction(() => store.journal.append(entry('a')));
    store.transaction(() => store.journal.append(entry('b')));
    expect(store.db.inTransaction).toBe(true);
    expect(committedJournal(file)).toEqual([]);
    await nextTurn();
    expect(store.db.inTransaction).toBe(false);
    expect(committedJournal(file)).toEqual(['a', 'b']);
    store.close();
  });

  it('a unit that throws is undone alone; the others of its turn still commit', async () => {
    const { store, file } = openStore();
    store.transaction(() => store.journal.append(entry('kept')));
    expect(() =>
      store.transaction(() => {
        store.journal.append(entry('undone'));
        store.transaction(() => store.journal.append(entry('nested, undone too')));
        throw new Error('provider blew up');
      }),
    ).toThrow('provider blew up');
    store.flush();
    expect(committedJournal(file)).toEqual(['kept']);
    store.close();
  });

  it('flush() and close() commit what is pending', () => {
    const { store, file } = openStore();
    store.transaction(() => store.journal.append(entry('flushed')));
    store.flush();
    expect(committedJournal(file)).toEqual(['flushed']);
    store.transaction(() => store.journal.append(entry('closed')));
    store.close();
    expect(committedJournal(file)).toEqual(['flushed', 'closed']);
  });
});

describe('GroupCommit.afterCommit (answers wait for the commit of what they may report)', () => {
  it('calls back at once when nothing is pending', () => {
    const { store } = openStore();
    let called = false;
    store.afterCommit(() => (called = true));
    expect(called).toBe(true);
    store.close();
  });

  it('holds every callback of a turn until the one commit, which then has the writes', async () => {
    const { store, file } = openStore();
    store.transaction(() => store.journal.append(entry('a')));
    const seen: string[][] = [];
    store.afterCommit(() => seen.push(committedJournal(file)));
    store.transaction(() => store.journal.append(entry('b')));
    store.afterCommit(() => seen.push(committedJournal(file)));
    expect(seen).toEqual([]);
    await nextTurn();
    expect(seen).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    store.close();
  });

  it('close() releases what is still held', () => {
    const { store } = openStore();
    store.transaction(() => store.journal.append(entry('pending')));
    let released = false;
    store.afterCommit((err) => (released = err === undefined));
    store.close();
    expect(released).toBe(true);
  });
});

describe('a group that cannot commit', () => {
  it('is dropped whole, its held answers get the error, and the next unit opens a fresh group', async () => {
    const { store, file } = openStore();
    // a write that only fails at COMMIT time: a deferred foreign key whose parent never comes
    store.db.pragma('foreign_keys = ON');
    store.db.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY)');
    store.db.exec('CREATE TABLE child (p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)');
    store.transaction(() => store.journal.append(entry('lost')));
    const errors: (Error | undefined)[] = [];
    store.afterCommit((err) => errors.push(err));
    store.transaction(() => store.db.prepare('INSERT INTO child VALUES (1)').run());
    expect(() => store.flush()).toThrow(/FOREIGN KEY/);
    expect(errors.map((e) => e?.message)).toEqual([expect.stringMatching(/FOREIGN KEY/)]);
    expect(store.db.inTransaction).toBe(false);
    store.transaction(() => store.journal.append(entry('next')));
    await nextTurn();
    expect(committedJournal(file)).toEqual(['next']);
    store.close();
  });
});
