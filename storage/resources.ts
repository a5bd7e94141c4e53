// Stack resource rows: the logical resources of one stack, with their physical ids and resolved state.
import type { Db, GroupCommit } from './db.js';
import { columns } from './rows.js';
import type { ResourceStatus } from '../domain/statuses.js';

export interface ResourceDoc {
  properties?: Record<string, unknown>;
  attributes?: Record<string, unknown>;
  ref?: string;
  metadata?: unknown;
  deletionPolicy?: string;
  updateReplacePolicy?: string;
  /** The operation that imported this physical resource through ImportExistingResources (its rollback releases it). */
  adoptedBy?: string;
  /** The operation that created this physical resource (for RetainExceptOnCreate and update rollback). */
  createdBy?: string;
  /** The physical resource this one replaced, kept until cleanup or used by a rollback. */
  replaced?: {
    physicalId: string;
    properties?: Record<string, unknown>;
    attributes?: Record<string, unknown>;
    ref?: string;
  };
  /** Present while an update is running: the state before it, for the rollback. */
  before?: {
    physicalId?: string;
    properties?: Record<string, unknown>;
    attributes?: Record<string, unknown>;
    ref?: string;
    status: ResourceStatus;
  };
  description?: string;
  /** During an update rollback: the new copy of a replacement, deleted in the rollback's cleanup. */
  newCopy?: { physicalId: string; properties?: Record<string, unknown> };
  /** The logical ids this resource depended on when it was last applied (delete order). */
  dependsOn?: string[];
}

export interface ResourceRecord {
  stackId: string;
  logicalId: string;
  account: string;
  region: string;
  type: string;
  physicalId?: string;
  status: ResourceStatus;
  statusReason?: string;
  updatedAt: string;
  ord: number;
  doc: ResourceDoc;
}

const RESOURCE = columns<ResourceRecord>({
  stackId: ['stack_id'],
  logicalId: ['logical_id'],
  account: ['account'],
  region: ['region'],
  type: ['type'],
  physicalId: ['physical_id', 'optional'],
  status: ['status'],
  statusReason: ['status_reason', 'optional'],
  updatedAt: ['updated_at'],
  ord: ['ord'],
  doc: ['doc', 'json'],
});
const fromRow = (row: unknown) => RESOURCE.fromRow(row as Record<string, unknown>);

export class ResourceStore {
  private readonly upsertStmt;
  private readonly byStackStmt;
  private readonly oneStmt;
  private readonly removeStmt;
  private readonly byPhysicalStmt;

  /** Rows to write before the open group commits, by stack id, then logical id (see save). */
  private readonly held = new Map<string, Map<string, ResourceRecord>>();

  constructor(
    db: Db,
    private readonly group: GroupCommit,
  ) {
    group.beforeCommit(() => this.writeHeld());
    this.upsertStmt = db.prepare(
      `INSERT INTO stack_resources (${RESOURCE.names.join(', ')}) VALUES (${RESOURCE.placeholders})
       ON CONFLICT (stack_id, logical_id) DO UPDATE SET type = excluded.type, physical_id = excluded.physical_id,
         status = excluded.status, status_reason = excluded.status_reason, updated_at = excluded.updated_at,
         ord = excluded.ord, doc = excluded.doc`,
    );
    this.byStackStmt = db.prepare('SELECT * FROM stack_resources WHERE stack_id = ? ORDER BY ord');
    this.oneStmt = db.prepare('SELECT * FROM stack_resources WHERE stack_id = ? AND logical_id = ?');
    this.removeStmt = db.prepare('DELETE FROM stack_resources WHERE stack_id = ? AND logical_id = ?');
    this.byPhysicalStmt = db.prepare(
      'SELECT * FROM stack_resources WHERE account = ? AND region = ? AND physical_id = ? LIMIT 1',
    );
  }

  /**
   * Inside an open group the row is written once, as the record stands, just before the group commits (with the
   * events of the same status changes): a resource's create changes its status three times in one turn, and five
   * upserts of ~1 KB rows per create + delete were the costliest statements after the events (bench/README.md).
   * Reads and removals write the rows they cover first, so nothing reads a row older than its record. A unit that
   * throws undoes its events but not a held row: the row then carries its record as it stands at the commit, which
   * is what the failure handling that follows saves anyway.
   */
  save(r: ResourceRecord): void {
    if (!this.group.pending) {
      this.upsertStmt.run(RESOURCE.values(r));
      return;
    }
    let stack = this.held.get(r.stackId);
    if (!stack) this.held.set(r.stackId, (stack = new Map<string, ResourceRecord>()));
    stack.set(r.logicalId, r);
  }

  /** Writes the rows held for the open group: one stack's (before reading it), or all (GroupCommit, before COMMIT). */
  writeHeld(stackId?: string): void {
    const stacks = stackId === undefined ? [...this.held.keys()] : [stackId];
    for (const id of stacks) {
      const stack = this.held.get(id);
      if (!stack) continue;
      for (const r of stack.values()) this.upsertStmt.run(RESOURCE.values(r));
      this.held.delete(id);
    }
  }

  /** Drops the rows held for the open group (the control API's reset empties the table anyway). */
  forgetHeld(): void {
    this.held.clear();
  }

  byStack(stackId: string): ResourceRecord[] {
    this.writeHeld(stackId);
    return this.byStackStmt.all(stackId).map(fromRow);
  }

  one(stackId: string, logicalId: string): ResourceRecord | undefined {
    this.writeHeld(stackId);
    const row = this.oneStmt.get(stackId, logicalId);
    return row ? fromRow(row) : undefined;
  }

  byPhysicalId(account: string, region: string, physicalId: string): ResourceRecord | undefined {
    this.writeHeld();
    const row = this.byPhysicalStmt.get(account, region, physicalId);
    return row ? fromRow(row) : undefined;
  }

  remove(stackId: string, logicalId: string): void {
    this.held.get(stackId)?.delete(logicalId);
    this.removeStmt.run(stackId, logicalId);
  }
}
