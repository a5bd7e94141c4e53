// ResourceStore holds a resource's row for the open group and writes it once, as the record then stands, just
// before the group commits (storage/resources.ts): reads see it at once, other connections only after the commit.
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store, type ResourceRecord } from '../../../storage/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openStore() {
  const dir = mkdtempSync(join(tmpdir(), 'cfn-held-'));
  dirs.push(dir);
  const file = join(dir, 'cfn.db');
  return { store: Store.open(file), file };
}

/** What another connection sees: only committed rows. */
function committedStatuses(file: string): string[] {
  const reader = new Database(file, { readonly: true });
  try {
    return (
      reader.prepare('SELECT logical_id, status FROM stack_resources ORDER BY logical_id').all() as {
        logical_id: string;
        status: string;
      }[]
    ).map((r) => `${r.logical_id}:${r.status}`);
  } finally {
    reader.close();
  }
}

const record = (logicalId: string, status: ResourceRecord['status']): ResourceRecord => ({
  stackId: 'arn:stack',
  logicalId,
  account: '000000000000',
  region: 'us-east-1',
  type: 'AWS::SSM::Parameter',
  status,
  updatedAt: 't',
  ord: 0,
  doc: { properties: { Value: logicalId } },
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('resource rows held for the open group', () => {
  it('writes a row once per group, as its record stands at the commit', async () => {
    const { store, file } = openStore();
    const r = record('A', 'CREATE_IN_PROGRESS');
    store.transaction(() => store.resources.save(r));
    r.status = 'CREATE_COMPLETE';
    store.transaction(() => store.resources.save(r));
    expect(committedStatuses(file)).toEqual([]);
    await nextTurn();
    expect(committedStatuses(file)).toEqual(['A:CREATE_COMPLETE']);
    store.close();
  });

  it('reads of the same store see held rows at once', () => {
    const { store } = openStore();
    store.transaction(() => store.resources.save(record('A', 'CREATE_IN_PROGRESS')));
    expect(store.resources.byStack('arn:stack').map((r) => r.status)).toEqual(['CREATE_IN_PROGRESS']);
    expect(store.resources.one('arn:stack', 'A')?.doc.properties).toEqual({ Value: 'A' });
    store.close();
  });

  it('a removed row is not written back at the commit', async () => {
    const { store, file } = openStore();
    store.transaction(() => store.resources.save(record('A', 'DELETE_IN_PROGRESS')));
    store.transaction(() => store.resources.remove('arn:stack', 'A'));
    await nextTurn();
    expect(committedStatuses(file)).toEqual([]);
    store.close();
  });

  it('a save with no group open is written at once', () => {
    const { store, file } = openStore();
    store.resources.save(record('A', 'UPDATE_COMPLETE'));
    expect(committedStatuses(file)).toEqual(['A:UPDATE_COMPLETE']);
    store.close();
  });

  it('the control API reset forgets held rows; close() writes them', () => {
    const { store, file } = openStore();
    store.transaction(() => store.resources.save(record('A', 'CREATE_COMPLETE')));
    store.reset();
    store.flush();
    expect(committedStatuses(file)).toEqual([]);
    store.transaction(() => store.resources.save(record('B', 'CREATE_COMPLETE')));
    store.close();
    expect(committedStatuses(file)).toEqual(['B:CREATE_COMPLETE']);
  });
});
