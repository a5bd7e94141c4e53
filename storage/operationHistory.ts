// The operations each stack has run, kept after they end: what DescribeEvents shows of an event's operation
// (OperationType, OperationStatus, StartTime, EndTime) and how it finds a change set's or an operation's events.
import type { Db } from './db.js';
import { columns } from './rows.js';

export type OperationStatus = 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED';

export interface StackOperationRecord {
  operationId: string;
  stackId: string;
  kind: string;
  status: OperationStatus;
  startedAt: string;
  endedAt?: string;
  /** The change set the operation created (CREATE_CHANGESET) or executed. */
  changeSetId?: string;
  /** An automatic rollback: the operation it rolls back. */
  follows?: string;
}

const OPERATION = columns<StackOperationRecord>({
  operationId: ['operation_id'],
  stackId: ['stack_id'],
  kind: ['kind'],
  status: ['status'],
  startedAt: ['started_at'],
  endedAt: ['ended_at', 'optional'],
  changeSetId: ['change_set_id', 'optional'],
  follows: ['follows', 'optional'],
});

export class OperationHistoryStore {
  private readonly upsertStmt;
  private readonly byIdStmt;
  private readonly endStmt;
  private readonly byChangeSetStmt;
  private readonly followingStmt;
  private readonly linkStmt;
  private readonly latestStmt;

  constructor(db: Db) {
    this.upsertStmt = db.prepare(
      `INSERT OR REPLACE INTO stack_operations (${OPERATION.names.join(', ')}) VALUES (${OPERATION.placeholders})`,
    );
    this.byIdStmt = db.prepare('SELECT * FROM stack_operations WHERE operation_id = ?');
    this.endStmt = db.prepare(
      `UPDATE stack_operations SET status = ?, ended_at = ? WHERE operation_id = ? AND status = 'IN_PROGRESS'`,
    );
    this.byChangeSetStmt = db.prepare('SELECT * FROM stack_operations WHERE change_set_id = ? ORDER BY started_at');
    this.followingStmt = db.prepare('SELECT * FROM stack_operations WHERE follows = ?');
    this.latestStmt = db.prepare(
      'SELECT * FROM stack_operations WHERE stack_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1',
    );
    this.linkStmt = db.prepare('UPDATE stack_operations SET change_set_id = ? WHERE operation_id = ?');
  }

  /** Records an operation as it starts (a restart that resumes one records it again, unchanged). */
  begin(op: StackOperationRecord): void {
    this.upsertStmt.run(OPERATION.values(op));
  }

  /** Settles a running operation; one already settled keeps its outcome. */
  end(operationId: string, status: Exclude<OperationStatus, 'IN_PROGRESS'>, endedAt: string): void {
    this.endStmt.run(status, endedAt, operationId);
  }

  /** The change set an operation executes. */
  linkChangeSet(operationId: string, changeSetId: string): void {
    this.linkStmt.run(changeSetId, operationId);
  }

  byId(operationId: string): StackOperationRecord | undefined {
    const row = this.byIdStmt.get(operationId) as Record<string, unknown> | undefined;
    return row ? OPERATION.fromRow(row) : undefined;
  }

  /** The stack's newest operation. */
  latestOf(stackId: string): StackOperationRecord | undefined {
    const row = this.latestStmt.get(stackId) as Record<string, unknown> | undefined;
    return row ? OPERATION.fromRow(row) : undefined;
  }

  /** The operations that created or executed a change set, oldest first, with the rollbacks that followed them. */
  ofChangeSet(changeSetId: string): StackOperationRecord[] {
    const ops = (this.byChangeSetStmt.all(changeSetId) as Record<string, unknown>[]).map((r) => OPERATION.fromRow(r));
    const following = ops.flatMap((op) =>
      (this.followingStmt.all(op.operationId) as Record<string, unknown>[]).map((r) => OPERATION.fromRow(r)),
    );
    return [...ops, ...following];
  }
}
