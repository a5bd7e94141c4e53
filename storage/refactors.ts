// Stack refactors: one JSON document per refactor, keyed by its id, listed newest first per account and region.
import type { Db } from './db.js';
import type { StackRefactorExecutionStatus, StackRefactorStatus } from '../domain/statuses.js';
import type { ResourceRecord } from './resources.js';

export interface RefactorLocation {
  StackName: string;
  LogicalResourceId: string;
}

/** One action of ListStackRefactorActions, as AWS shapes it. */
export interface RefactorActionRecord {
  Action: 'MOVE' | 'CREATE';
  Entity: 'RESOURCE' | 'STACK';
  PhysicalResourceId?: string;
  Description?: string;
  Detection?: 'AUTO' | 'MANUAL';
  DetectionReason?: string;
  TagResources?: { Key: string; Value: string }[];
  UntagResources?: string[];
  ResourceMapping?: { Source: RefactorLocation; Destination: RefactorLocation };
}

/** One stack the refactor names: its id (a new stack's is chosen at creation) and its template after the refactor. */
export interface RefactorStackRecord {
  stackName: string;
  stackId: string;
  body: string;
  /** EnableStackCreation made it: it does not exist until the refactor runs. */
  isNew: boolean;
  /** The stack's template and last change when the refactor was created: a later change makes it OBSOLETE. */
  templateId?: number;
  updatedAt?: string;
  /** The export names its new template imports (Fn::ImportValue), for ListImports once it runs. */
  imports: string[];
}

/** One resource the refactor moves or renames. */
export interface RefactorMove {
  from: { stackId: string; logicalId: string };
  to: { stackId: string; logicalId: string };
  /** The resource as it was when the execution began: what its new stack takes over (and a restart still has). */
  resource?: ResourceRecord;
}

export interface StackRefactorRecord {
  id: string;
  account: string;
  region: string;
  createdAt: string;
  description?: string;
  status: StackRefactorStatus;
  statusReason?: string;
  executionStatus: StackRefactorExecutionStatus;
  executionStatusReason?: string;
  enableStackCreation: boolean;
  stacks: RefactorStackRecord[];
  mappings: { Source: RefactorLocation; Destination: RefactorLocation }[];
  moves: RefactorMove[];
  actions: RefactorActionRecord[];
}

export class RefactorStore {
  private readonly putStmt;
  private readonly getStmt;
  private readonly listStmt;
  private readonly inProgressStmt;

  constructor(db: Db) {
    this.putStmt = db.prepare(
      'INSERT OR REPLACE INTO stack_refactors (refactor_id, account, region, created_at, doc) VALUES (?, ?, ?, ?, ?)',
    );
    this.getStmt = db.prepare('SELECT doc FROM stack_refactors WHERE refactor_id = ?').pluck();
    this.listStmt = db
      .prepare('SELECT doc FROM stack_refactors WHERE account = ? AND region = ? ORDER BY created_at DESC, rowid DESC')
      .pluck();
    this.inProgressStmt = db
      .prepare(
        "SELECT doc FROM stack_refactors WHERE json_extract(doc, '$.status') = 'CREATE_IN_PROGRESS' OR json_extract(doc, '$.executionStatus') = 'EXECUTE_IN_PROGRESS'",
      )
      .pluck();
  }

  save(r: StackRefactorRecord): void {
    this.putStmt.run(r.id, r.account, r.region, r.createdAt, JSON.stringify(r));
  }

  byId(id: string): StackRefactorRecord | undefined {
    const doc = this.getStmt.get(id) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as StackRefactorRecord);
  }

  /** Newest first. */
  list(account: string, region: string): StackRefactorRecord[] {
    return (this.listStmt.all(account, region) as string[]).map((d) => JSON.parse(d) as StackRefactorRecord);
  }

  /** Refactors whose validation or execution a restart cut short. */
  unfinished(): StackRefactorRecord[] {
    return (this.inProgressStmt.all() as string[]).map((d) => JSON.parse(d) as StackRefactorRecord);
  }
}
