// Numbered migrations (storage/migrations/): a database written by an older cfn-local opens with its data carried over.
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS } from '../../../storage/migrations/index.js';
import { Store } from '../../../storage/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A database file left by a cfn-local whose schema stopped at `version`. */
function databaseAt(version: number, fill: (db: Database.Database) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'cfn-migrate-'));
  dirs.push(dir);
  const file = join(dir, 'cfn.db');
  const db = new Database(file);
  for (const sql of MIGRATIONS.slice(0, version)) db.exec(sql);
  db.pragma(`user_version = ${version}`);
  fill(db);
  db.close();
  return file;
}

const indexNames = (store: Store) =>
  (store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map(
    (r) => r.name,
  );

describe('migration 4: no B-tree that no query reads', () => {
  it('keeps running operations, drops ended ones and the two unread indexes', () => {
    const file = databaseAt(3, (db) => {
      const op = db.prepare(
        "INSERT INTO operations (operation_id, stack_id, kind, state, started_at, doc) VALUES (?, 's', 'CREATE', ?, 't', '{}')",
      );
      op.run('ended', 'done');
      op.run('interrupted', 'running');
      db.prepare(
        "INSERT INTO journal (operation_id, stack_id, action, phase, timestamp) VALUES ('ended', 's', 'stack', 'CREATE_COMPLETE', 't')",
      ).run();
    });
    const store = Store.open(file);
    expect(store.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(store.journal.running().map((op) => op.operationId)).toEqual(['interrupted']);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM journal').get()).toEqual({ n: 1 });
    expect(indexNames(store)).not.toContain('journal_by_operation');
    expect(indexNames(store)).not.toContain('operations_running');
    store.close();
  });

  it('an operation that ends leaves no operations row, and its journal rows stay', () => {
    const store = Store.open(':memory:');
    store.transaction(() => {
      store.journal.startOperation({ operationId: 'op', stackId: 's', kind: 'CREATE', startedAt: 't', doc: {} });
      store.journal.append({
        operationId: 'op',
        stackId: 's',
        action: 'stack',
        phase: 'CREATE_IN_PROGRESS',
        timestamp: 't',
      });
    });
    expect(store.journal.running().map((op) => op.operationId)).toEqual(['op']);
    store.transaction(() => store.journal.endOperation('op'));
    expect(store.journal.running()).toEqual([]);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM operations').get()).toEqual({ n: 0 });
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM journal').get()).toEqual({ n: 1 });
    store.close();
  });
});

describe('migration 5: events keyed by their stack row', () => {
  it("keys an older database's events by their stack, and its pages read the same events", () => {
    const stackId = 'arn:aws:cloudformation:us-east-1:000000000000:stack/old/1';
    const file = databaseAt(4, (db) => {
      db.prepare(
        `INSERT INTO stacks (stack_id, account, region, name, status, created_at, template_id, doc)
        VALUES (?, '000000000000', 'us-east-1', 'old', 'CREATE_COMPLETE', 't', 1, '{}')`,
      ).run(stackId);
      const event =
        db.prepare(`INSERT INTO events (stack_id, account, region, event_id, logical_id, type, status, timestamp)
        VALUES (?, '000000000000', 'us-east-1', ?, 'old', 'AWS::CloudFormation::Stack', ?, 't')`);
      event.run(stackId, 'e1', 'CREATE_IN_PROGRESS');
      event.run(stackId, 'e2', 'CREATE_COMPLETE');
      event.run('arn:aws:cloudformation:us-east-1:000000000000:stack/gone/2', 'e3', 'CREATE_COMPLETE');
    });
    const store = Store.open(file);
    expect(store.events.page(stackId, undefined, 10).map((e) => [e.eventId, e.status, e.stackId, e.region])).toEqual([
      ['e2', 'CREATE_COMPLETE', stackId, 'us-east-1'],
      ['e1', 'CREATE_IN_PROGRESS', stackId, 'us-east-1'],
    ]);
    expect(
      store.events.page(stackId, store.events.page(stackId, undefined, 1)[0].seq, 10).map((e) => e.eventId),
    ).toEqual(['e1']);
    expect(indexNames(store)).toContain('events_by_stack_key');
    expect(indexNames(store)).not.toContain('events_by_stack');
    store.close();
  });

  it('an event whose stack has no row is refused rather than written where no page finds it', () => {
    const store = Store.open(':memory:');
    expect(() =>
      store.transaction(() =>
        store.events.append({
          stackId: 'arn:missing',
          account: 'a',
          region: 'r',
          eventId: 'e',
          logicalId: 'l',
          type: 't',
          status: 's',
          timestamp: 't',
        } as Parameters<Store['events']['append']>[0]),
      ),
    ).toThrow('no stack row for the events of arn:missing');
    store.close();
  });
});

describe('migration 6: the stacks a restart carries on, by a partial index', () => {
  it('inProgress() reads every *_IN_PROGRESS stack, and only those, through the index', () => {
    const store = Store.open(':memory:');
    const statuses = [
      'CREATE_IN_PROGRESS',
      'CREATE_COMPLETE',
      'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
      'DELETE_FAILED',
      'ROLLBACK_IN_PROGRESS',
    ];
    const insert = store.db
      .prepare(`INSERT INTO stacks (stack_id, account, region, name, status, created_at, template_id, doc)
      VALUES (?, 'a', 'r', ?, ?, 't', 1, '{}')`);
    statuses.forEach((status, i) => insert.run(`arn:${i}`, `s${i}`, status));
    expect(
      store.stacks
        .inProgress()
        .map((s) => s.status)
        .sort(),
    ).toEqual(['CREATE_IN_PROGRESS', 'ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS']);
    const plan = store.db
      .prepare(String.raw`EXPLAIN QUERY PLAN SELECT * FROM stacks WHERE status LIKE '%\_IN\_PROGRESS' ESCAPE '\'`)
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join()).toContain('stacks_in_progress');
    store.close();
  });
});

describe('openDb', () => {
  it('a new file and an existing one both end up in WAL mode with synchronous = NORMAL and the whole schema', async () => {
    const { openDb } = await import('../../../storage/db.js');
    const dir = mkdtempSync(join(tmpdir(), 'cfn-open-'));
    dirs.push(dir);
    const file = join(dir, 'nested', 'cfn.db');
    for (let start = 0; start < 2; start++) {
      const db = openDb(file);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      db.close();
    }
  });
});
