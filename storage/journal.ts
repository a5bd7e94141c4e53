// The journal (every status change, in order) and the operations table: what is in flight, so a restart can finish it.
import type { Db } from './db.js';

export interface OperationRecord {
  operationId: string;
  stackId: string;
  kind: string;
  state: 'running' | 'done';
  startedAt: string;
  doc: Record<string, unknown>;
}

export class JournalStore {
  private readonly appendStmt;
  private readonly startOpStmt;
  private readonly endOpStmt;
  private readonly runningStmt;

  constructor(db: Db) {
    this.appendStmt = db.prepare(
      `INSERT INTO journal (operation_id, stack_id, logical_id, action, phase, detail, timestamp)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.startOpStmt = db.prepare(
      `INSERT INTO operations (operation_id, stack_id, kind, state, started_at, doc) VALUES (?, ?, ?, 'running', ?, ?)`,
    );
    // an ended operation leaves its journal rows; its row here was only for recovery (migration 4)
    this.endOpStmt = db.prepare('DELETE FROM operations WHERE operation_id = ?');
    this.runningStmt = db.prepare(
      `SELECT operation_id AS operationId, stack_id AS stackId, kind, state, started_at AS startedAt, doc
       FROM operations WHERE state = 'running' ORDER BY started_at`,
    );
  }

  append(entry: {
    operationId: string;
    stackId: string;
    logicalId?: string;
    action: string;
    phase: string;
    detail?: string;
    timestamp: string;
  }): void {
    this.appendStmt.run(
      entry.operationId,
      entry.stackId,
      entry.logicalId ?? null,
      entry.action,
      entry.phase,
      entry.detail ?? null,
      entry.timestamp,
    );
  }

  startOperation(op: Omit<OperationRecord, 'state'>): void {
    this.startOpStmt.run(op.operationId, op.stackId, op.kind, op.startedAt, JSON.stringify(op.doc));
  }

  endOperation(operationId: string): void {
    this.endOpStmt.run(operationId);
  }

  running(): OperationRecord[] {
    return (this.runningStmt.all() as (Omit<OperationRecord, 'doc'> & { doc: string })[]).map((r) => ({
      ...r,
      doc: JSON.parse(r.doc) as Record<string, unknown>,
    }));
  }
}
