// Stack rows: one per stack id, with the describable fields kept as a JSON document.
import { withLimit, type Db } from './db.js';
import { columns } from './rows.js';
import type { ChangeFeed } from './feed.js';
import type { OperationType, StackStatus } from '../domain/statuses.js';
import type { DeploymentConfig, RollbackConfiguration } from '../generated/cloudformation.js';

export interface StackParameter {
  ParameterKey: string;
  ParameterValue: string;
  ResolvedValue?: string;
}

export interface StackOutput {
  OutputKey: string;
  OutputValue: string;
  Description?: string;
  ExportName?: string;
}

export interface Tag {
  Key: string;
  Value: string;
}

export interface StackDoc {
  description?: string;
  parameters: StackParameter[];
  noEchoKeys: string[];
  outputs: StackOutput[];
  tags: Tag[];
  capabilities?: string[];
  notificationARNs: string[];
  disableRollback: boolean;
  /** The DeploymentConfig of the stack's last operation that took one (DescribeStacks shows it). */
  deploymentConfig?: DeploymentConfig;
  /** CreateStack's OnFailure while the create runs, for a restart that resumes it. */
  onFailure?: 'ROLLBACK' | 'DELETE' | 'DO_NOTHING';
  terminationProtection: boolean;
  timeoutInMinutes?: number;
  roleARN?: string;
  changeSetId?: string;
  /** The stack refactor whose execution the running operation is (state-machine/refactors/execute.ts). */
  refactorId?: string;
  retainExceptOnCreate?: boolean;
  rollbackConfiguration: RollbackConfiguration;
  stackPolicyBody?: string;
  /** StackPolicyDuringUpdateBody of the running update (GetStackPolicy shows it while the update runs). */
  duringUpdatePolicyBody?: string;
  /** ClientRequestTokens already used on this stack, with the action each started. */
  tokens?: Record<string, string>;
  deletionTime?: string;
  /** Whether the stack came from a change set (DescribeStacks then shows LastUpdatedTime at once). */
  viaChangeSet?: boolean;
  /** Set once the stack has been updated or executed through a change set (DescribeStacks shows LastUpdatedTime). */
  lastOperations?: { OperationId: string; OperationType: OperationType }[];
  /** LastOperations as a database written before it was a list holds it. */
  lastOperation?: { OperationId: string; OperationType: OperationType };
  /** A nested stack's parent and the root of its tree (stack ARNs). */
  parentId?: string;
  rootId?: string;
  /** The stack's other name (SetAlias): any action taking a StackName finds the stack by it too. */
  aliasName?: string;
  /** The stable configuration an update rolls back to. */
  previous?: {
    templateId: number;
    parameters: StackParameter[];
    outputs: StackOutput[];
    description?: string;
    operationId: string;
  };
}

export interface StackRecord {
  stackId: string;
  account: string;
  region: string;
  name: string;
  /** Written only by the status door (state-machine/transitions.ts), through writeStatus. */
  readonly status: StackStatus;
  readonly statusReason?: string;
  createdAt: string;
  updatedAt?: string;
  deletedAt?: string;
  templateId: number;
  doc: StackDoc;
}

const STACK = columns<StackRecord>({
  stackId: ['stack_id'],
  account: ['account'],
  region: ['region'],
  name: ['name'],
  status: ['status'],
  statusReason: ['status_reason', 'optional'],
  createdAt: ['created_at'],
  updatedAt: ['updated_at', 'optional'],
  deletedAt: ['deleted_at', 'optional'],
  templateId: ['template_id'],
  doc: ['doc', 'json'],
});
const fromRow = (row: unknown) => STACK.fromRow(row as Record<string, unknown>);

export class StackStore {
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly saveDocStmt;
  private readonly byIdStmt;
  private readonly liveByNameStmt;
  private readonly liveByAliasStmt;
  private readonly pageStmt;
  private readonly inProgressStmt;
  private readonly allStmt;

  constructor(
    db: Db,
    private readonly feed?: ChangeFeed,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO stacks (stack_id, account, region, name, status, status_reason, created_at, updated_at, deleted_at,
         template_id, doc)
       VALUES (@stack_id, @account, @region, @name, @status, @status_reason, @created_at, @updated_at, @deleted_at,
         @template_id, @doc)`,
    );
    this.updateStmt = db.prepare(
      `UPDATE stacks SET status = @status, status_reason = @status_reason, updated_at = @updated_at,
         deleted_at = @deleted_at, template_id = @template_id, doc = @doc WHERE stack_id = @stack_id`,
    );
    this.saveDocStmt = db.prepare('UPDATE stacks SET doc = @doc WHERE stack_id = @stack_id');
    this.byIdStmt = db.prepare('SELECT * FROM stacks WHERE stack_id = ?');
    this.liveByNameStmt = db.prepare(
      'SELECT * FROM stacks WHERE account = ? AND region = ? AND name = ? AND deleted_at IS NULL',
    );
    // The same expression as the partial index of migration 15, so the lookup reads that index.
    this.liveByAliasStmt = db.prepare(
      `SELECT * FROM stacks WHERE account = ? AND region = ? AND json_extract(doc, '$.aliasName') = ?
         AND deleted_at IS NULL`,
    );
    this.pageStmt = withLimit(
      db,
      `SELECT rowid AS cursor, * FROM stacks WHERE account = @account AND region = @region
         AND (@live = 0 OR deleted_at IS NULL) AND rowid < @before ORDER BY rowid DESC`,
    );
    this.allStmt = db.prepare('SELECT * FROM stacks ORDER BY rowid DESC LIMIT ?');
    // Only the stacks a restart must carry on, through their partial index (migration 6): the same WHERE, verbatim.
    this.inProgressStmt = db.prepare(String.raw`SELECT * FROM stacks WHERE status LIKE '%\_IN\_PROGRESS' ESCAPE '\'`);
  }

  /** A new stack's first row: only the status door calls it (insertStack in state-machine/transitions.ts). */
  insert(stack: StackRecord): void {
    this.insertStmt.run(STACK.toRow(stack));
    if (this.feed?.active) this.feed.publish({ kind: 'stack', stack });
  }

  /** The whole row, status included: only the status door calls it (setStackStatus in state-machine/transitions.ts). */
  writeStatus(stack: StackRecord): void {
    this.updateStmt.run(STACK.toRow(stack));
    if (this.feed?.active) this.feed.publish({ kind: 'stack', stack });
  }

  /** The stack's document only (settings, outputs, tokens …): its status and times change only through the door. */
  saveDoc(stack: StackRecord): void {
    this.saveDocStmt.run({ stack_id: stack.stackId, doc: JSON.stringify(stack.doc) });
  }

  byId(stackId: string): StackRecord | undefined {
    const row = this.byIdStmt.get(stackId);
    return row ? fromRow(row) : undefined;
  }

  /**
   * The live stack a StackName names: the stack of that name, else the stack holding it as its alias (SetAlias).
   * Every lookup of a stack by name comes here, so an alias works wherever a StackName is accepted.
   */
  liveByName(account: string, region: string, name: string): StackRecord | undefined {
    const row = this.liveByNameStmt.get(account, region, name) ?? this.liveByAliasStmt.get(account, region, name);
    return row ? fromRow(row) : undefined;
  }

  /** Newest first; `before` is the rowid cursor of the previous page. */
  page(account: string, region: string, opts: { live: boolean; before?: number; limit: number }) {
    const rows = this.pageStmt(opts.limit).all({
      account,
      region,
      live: opts.live ? 1 : 0,
      before: opts.before ?? Number.MAX_SAFE_INTEGER,
    }) as { cursor: number }[];
    return { stacks: rows.map(fromRow), cursor: rows.length ? rows[rows.length - 1].cursor : undefined };
  }

  /** Every account's and region's stacks, newest first, at most `limit` (the console's list). */
  all(limit: number): StackRecord[] {
    return this.allStmt.all(limit).map(fromRow);
  }

  /** Stacks whose status ends in _IN_PROGRESS (what recovery resumes after a restart). */
  inProgress(): StackRecord[] {
    return this.inProgressStmt.all().map(fromRow);
  }
}
