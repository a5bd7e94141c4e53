// Hook invocations: one JSON document per invocation, keyed by its id (the HookInvocationId of its events), listed
// oldest first per account and region, by target or all. Storage knows no hook rule: state-machine/hooks/ decides.
import type { Db } from './db.js';

export type HookTargetType = 'CHANGE_SET' | 'STACK' | 'RESOURCE' | 'CLOUD_CONTROL';
export type HookResultStatus = 'HOOK_IN_PROGRESS' | 'HOOK_COMPLETE_SUCCEEDED' | 'HOOK_COMPLETE_FAILED' | 'HOOK_FAILED';

export interface HookResultRecord {
  id: string;
  account: string;
  region: string;
  typeName: string;
  typeArn: string;
  typeVersionId?: string;
  typeConfigurationVersionId?: string;
  failureMode: 'FAIL' | 'WARN';
  status: HookResultStatus;
  statusReason: string;
  invokedAt: string;
  targetType: HookTargetType;
  /** AWS's TargetId: a resource's logical id, a stack's name, a change set's ARN, a Cloud Control request token. */
  targetId: string;
  /** HookExecutionTarget: the stack's ARN, or the Cloud Control request token. */
  executionTarget: string;
  /** What the hook looked at: a resource type (RESOURCE, CLOUD_CONTROL), else the target type's name. */
  targetTypeName: string;
  /** The logical id of a RESOURCE target. */
  logicalId?: string;
  action: 'CREATE' | 'UPDATE' | 'DELETE';
}

export interface HookResultFilter {
  targetType?: HookTargetType;
  targetId?: string;
  typeArn?: string;
  status?: string;
}

export class HookResultStore {
  private readonly putStmt;
  private readonly getStmt;
  private readonly listStmt;

  constructor(db: Db) {
    this.putStmt = db.prepare(
      'INSERT OR REPLACE INTO hook_results (hook_result_id, account, region, target_type, target_id, type_arn, invoked_at, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.getStmt = db
      .prepare('SELECT doc FROM hook_results WHERE hook_result_id = ? AND account = ? AND region = ?')
      .pluck();
    this.listStmt = db
      .prepare('SELECT doc FROM hook_results WHERE account = ? AND region = ? ORDER BY invoked_at, rowid')
      .pluck();
  }

  save(r: HookResultRecord): void {
    this.putStmt.run(r.id, r.account, r.region, r.targetType, r.targetId, r.typeArn, r.invokedAt, JSON.stringify(r));
  }

  byId(account: string, region: string, id: string): HookResultRecord | undefined {
    const doc = this.getStmt.get(id, account, region) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as HookResultRecord);
  }

  /** The account and region's invocations, oldest first, narrowed by the filter's members that are set. */
  list(account: string, region: string, filter: HookResultFilter = {}): HookResultRecord[] {
    return (this.listStmt.all(account, region) as string[])
      .map((d) => JSON.parse(d) as HookResultRecord)
      .filter(
        (r) =>
          (filter.targetType === undefined || r.targetType === filter.targetType) &&
          (filter.targetId === undefined || r.targetId === filter.targetId) &&
          (filter.typeArn === undefined || r.typeArn === filter.typeArn) &&
          (filter.status === undefined || r.status === filter.status),
      );
  }
}
