// Change sets: one row per change set id, with the plan and describable fields as a JSON document.
import type { Db } from './db.js';

export interface ChangeSetRecord {
  changeSetId: string;
  account: string;
  region: string;
  stackId: string;
  name: string;
  status: string;
  executionStatus: string;
  createdAt: string;
  deleted: boolean;
  doc: Record<string, unknown>;
}

interface ChangeSetRow {
  change_set_id: string;
  account: string;
  region: string;
  stack_id: string;
  name: string;
  status: string;
  execution_status: string;
  created_at: string;
  deleted: number;
  doc: string;
}

const fromRow = (r: ChangeSetRow): ChangeSetRecord => ({
  changeSetId: r.change_set_id,
  account: r.account,
  region: r.region,
  stackId: r.stack_id,
  name: r.name,
  status: r.status,
  executionStatus: r.execution_status,
  createdAt: r.created_at,
  deleted: r.deleted === 1,
  doc: JSON.parse(r.doc) as Record<string, unknown>,
});

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
    this.upsertStmt.run({
      change_set_id: c.changeSetId,
      account: c.account,
      region: c.region,
      stack_id: c.stackId,
      name: c.name,
      status: c.status,
      execution_status: c.executionStatus,
      created_at: c.createdAt,
      deleted: c.deleted ? 1 : 0,
      doc: JSON.stringify(c.doc),
    });
  }

  byId(id: string): ChangeSetRecord | undefined {
    const row = this.byIdStmt.get(id) as ChangeSetRow | undefined;
    return row && fromRow(row);
  }

  byName(stackId: string, name: string): ChangeSetRecord | undefined {
    const row = this.byNameStmt.get(stackId, name) as ChangeSetRow | undefined;
    return row && fromRow(row);
  }

  byStack(stackId: string): ChangeSetRecord[] {
    return (this.byStackStmt.all(stackId) as ChangeSetRow[]).map(fromRow);
  }
}
