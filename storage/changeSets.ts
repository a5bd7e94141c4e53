// Change sets: one row per change set id, with the plan and describable fields as a JSON document.
import type { Db } from './db.js';
import type { ChangeSetStatus, ExecutionStatus } from '../domain/statuses.js';
import { columns } from './rows.js';

export interface ChangeSetRecord {
  changeSetId: string;
  account: string;
  region: string;
  stackId: string;
  name: string;
  status: ChangeSetStatus;
  executionStatus: ExecutionStatus;
  createdAt: string;
  deleted: boolean;
  doc: Record<string, unknown>;
}

const CHANGE_SET = columns<ChangeSetRecord>({
  changeSetId: ['change_set_id'],
  account: ['account'],
  region: ['region'],
  stackId: ['stack_id'],
  name: ['name'],
  status: ['status'],
  executionStatus: ['execution_status'],
  createdAt: ['created_at'],
  deleted: ['deleted', 'flag'],
  doc: ['doc', 'json'],
});
const fromRow = (row: unknown) => CHANGE_SET.fromRow(row as Record<string, unknown>);

export class ChangeSetStore {
  private readonly upsertStmt;
  private readonly byIdStmt;
  private readonly byNameStmt;
  private readonly byStackStmt;

  constructor(db: Db) {
    this.upsertStmt = db.prepare(
      `INSERT INTO change_sets (change_set_id, account, region, stack_id, name, status, execution_status, created_at,
         deleted, doc)
       VALUES (@change_set_id, @account, @region, @stack_id, @name, @status, @execution_status, @created_at,
         @deleted, @doc)
       ON CONFLICT (change_set_id) DO UPDATE SET status = excluded.status,
         execution_status = excluded.execution_status, deleted = excluded.deleted, doc = excluded.doc`,
    );
    this.byIdStmt = db.prepare('SELECT * FROM change_sets WHERE change_set_id = ?');
    this.byNameStmt = db.prepare(
      'SELECT * FROM change_sets WHERE stack_id = ? AND name = ? AND deleted = 0 ORDER BY created_at DESC LIMIT 1',
    );
    this.byStackStmt = db.prepare('SELECT * FROM change_sets WHERE stack_id = ? AND deleted = 0 ORDER BY created_at');
  }

  save(c: ChangeSetRecord): void {
    this.upsertStmt.run(CHANGE_SET.toRow(c));
  }

  byId(id: string): ChangeSetRecord | undefined {
    const row = this.byIdStmt.get(id);
    return row ? fromRow(row) : undefined;
  }

  byName(stackId: string, name: string): ChangeSetRecord | undefined {
    const row = this.byNameStmt.get(stackId, name);
    return row ? fromRow(row) : undefined;
  }

  byStack(stackId: string): ChangeSetRecord[] {
    return this.byStackStmt.all(stackId).map(fromRow);
  }
}
