// Stack sets' records: each set, its instances, its operations and their results, and the simulated organizations,
// each a JSON document beside the columns it is looked up by. Storage knows no stack set rule: the state machine's
// stackSets/ modules decide every field.
import type { Db } from './db.js';

export interface SetParameter {
  ParameterKey?: string;
  ParameterValue?: string;
  UsePreviousValue?: boolean;
  ResolvedValue?: string;
}

export interface SetTag {
  Key: string;
  Value: string;
}

export interface DriftDetails {
  DriftStatus: string;
  DriftDetectionStatus?: string;
  LastDriftCheckTimestamp?: string;
  TotalStackInstancesCount: number;
  DriftedStackInstancesCount: number;
  InSyncStackInstancesCount: number;
  InProgressStackInstancesCount: number;
  FailedStackInstancesCount: number;
}

export interface StackSetDoc {
  description?: string;
  templateBody: string;
  parameters: SetParameter[];
  capabilities: string[];
  tags: SetTag[];
  administrationRoleARN?: string;
  executionRoleName?: string;
  permissionModel: 'SELF_MANAGED' | 'SERVICE_MANAGED';
  autoDeployment?: { Enabled?: boolean; RetainStacksOnAccountRemoval?: boolean; DependsOn?: string[] };
  managedExecution: { Active: boolean };
  /** The OUs instances were deployed to, each with its regions (service-managed): what automatic deployment follows. */
  deployedUnits: { ou: string; regions: string[] }[];
  drift?: DriftDetails;
  clientRequestToken?: string;
}

export interface StackSetRecord {
  stackSetId: string;
  account: string;
  region: string;
  name: string;
  status: 'ACTIVE' | 'DELETED';
  createdAt: string;
  doc: StackSetDoc;
}

export interface StackInstanceDoc {
  stackId?: string;
  parameterOverrides: SetParameter[];
  status: 'CURRENT' | 'OUTDATED' | 'INOPERABLE';
  detailedStatus: string;
  statusReason?: string;
  organizationalUnitId?: string;
  driftStatus: string;
  lastDriftCheck?: string;
  lastOperationId?: string;
}

export interface StackInstanceRecord {
  stackSetId: string;
  account: string;
  region: string;
  doc: StackInstanceDoc;
}

export interface SetOperationDoc {
  action: 'CREATE' | 'UPDATE' | 'DELETE' | 'DETECT_DRIFT';
  status: 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'STOPPING' | 'STOPPED';
  statusReason?: string;
  preferences: Record<string, unknown>;
  retainStacks?: boolean;
  administrationRoleARN?: string;
  executionRoleName?: string;
  endedAt?: string;
  deploymentTargets?: { Accounts?: string[]; OrganizationalUnitIds?: string[]; AccountFilterType?: string };
  drift?: DriftDetails;
  failedCount?: number;
  /** What the call asked, for OperationId idempotency: a repeat of the same call answers the same operation. */
  request: string;
}

export interface SetOperationRecord {
  stackSetId: string;
  operationId: string;
  createdAt: string;
  doc: SetOperationDoc;
}

export interface OperationResultDoc {
  status: 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  statusReason?: string;
  accountGate?: { Status: string; StatusReason?: string };
  organizationalUnitId?: string;
}

export interface OperationResultRecord {
  stackSetId: string;
  operationId: string;
  account: string;
  region: string;
  doc: OperationResultDoc;
}

export interface OrganizationalUnitDoc {
  id: string;
  name?: string;
  /** The root's id, or another OU's. */
  parentId: string;
  accounts: string[];
}

export interface OrganizationDoc {
  id: string;
  rootId: string;
  units: OrganizationalUnitDoc[];
  /** Accounts directly under the root. */
  rootAccounts: string[];
  delegatedAdministrators: string[];
  /** ActivateOrganizationsAccess's trusted access. */
  access: 'ENABLED' | 'DISABLED';
}

type Row = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the stored shape
const parse = <T>(row: unknown): T | undefined => {
  if (!row) return undefined;
  const r = row as Row;
  const out: Row = { doc: JSON.parse(r.doc as string) };
  for (const [k, v] of Object.entries(r)) {
    if (k !== 'doc') out[k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())] = v;
  }
  return out as T;
};

export class StackSetStore {
  private readonly s;

  constructor(private readonly db: Db) {
    this.s = {
      putSet: db.prepare(
        `INSERT OR REPLACE INTO stack_sets (stack_set_id, account, region, name, status, created_at, doc)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      set: db.prepare('SELECT * FROM stack_sets WHERE stack_set_id = ?'),
      activeByName: db.prepare(
        `SELECT * FROM stack_sets WHERE account = ? AND region = ? AND name = ? AND status = 'ACTIVE'`,
      ),
      sets: db.prepare('SELECT * FROM stack_sets WHERE account = ? AND region = ? ORDER BY created_at, rowid'),
      allSets: db.prepare(`SELECT * FROM stack_sets WHERE status = 'ACTIVE' ORDER BY created_at, rowid`),
      everySet: db.prepare('SELECT * FROM stack_sets ORDER BY created_at DESC, rowid DESC LIMIT ?'),
      putInstance: db.prepare(
        'INSERT OR REPLACE INTO stack_instances (stack_set_id, account, region, doc) VALUES (?, ?, ?, ?)',
      ),
      instance: db.prepare('SELECT * FROM stack_instances WHERE stack_set_id = ? AND account = ? AND region = ?'),
      instances: db.prepare('SELECT * FROM stack_instances WHERE stack_set_id = ? ORDER BY rowid'),
      removeInstance: db.prepare('DELETE FROM stack_instances WHERE stack_set_id = ? AND account = ? AND region = ?'),
      putOperation: db.prepare(
        'INSERT OR REPLACE INTO stack_set_operations (stack_set_id, operation_id, created_at, doc) VALUES (?, ?, ?, ?)',
      ),
      operation: db.prepare('SELECT * FROM stack_set_operations WHERE stack_set_id = ? AND operation_id = ?'),
      operations: db.prepare(
        'SELECT * FROM stack_set_operations WHERE stack_set_id = ? ORDER BY created_at DESC, rowid DESC',
      ),
      unfinished: db.prepare(
        `SELECT * FROM stack_set_operations WHERE json_extract(doc, '$.status') IN ('QUEUED', 'RUNNING', 'STOPPING')
         ORDER BY created_at, rowid`,
      ),
      putResult: db.prepare(
        `INSERT OR REPLACE INTO stack_set_results (stack_set_id, operation_id, account, region, doc)
         VALUES (?, ?, ?, ?, ?)`,
      ),
      results: db.prepare('SELECT * FROM stack_set_results WHERE stack_set_id = ? AND operation_id = ? ORDER BY rowid'),
      putOrganization: db.prepare('INSERT OR REPLACE INTO organizations (account, doc) VALUES (?, ?)'),
      organization: db.prepare('SELECT doc FROM organizations WHERE account = ?').pluck(),
      removeOrganization: db.prepare('DELETE FROM organizations WHERE account = ?'),
    };
  }

  putSet(r: StackSetRecord): void {
    this.s.putSet.run(r.stackSetId, r.account, r.region, r.name, r.status, r.createdAt, JSON.stringify(r.doc));
  }

  set(stackSetId: string): StackSetRecord | undefined {
    return parse(this.s.set.get(stackSetId));
  }

  activeByName(account: string, region: string, name: string): StackSetRecord | undefined {
    return parse(this.s.activeByName.get(account, region, name));
  }

  /** The sets of an administrator account and region, ACTIVE and DELETED, oldest first. */
  sets(account: string, region: string): StackSetRecord[] {
    return this.s.sets.all(account, region).map((r) => parse<StackSetRecord>(r)!);
  }

  /** Every ACTIVE set of every account (automatic deployment looks for the sets an OU change concerns). */
  allActive(): StackSetRecord[] {
    return this.s.allSets.all().map((r) => parse<StackSetRecord>(r)!);
  }

  /** The newest sets of every account, ACTIVE and DELETED (the console's list). */
  every(limit: number): StackSetRecord[] {
    return this.s.everySet.all(limit).map((r) => parse<StackSetRecord>(r)!);
  }

  putInstance(r: StackInstanceRecord): void {
    this.s.putInstance.run(r.stackSetId, r.account, r.region, JSON.stringify(r.doc));
  }

  instance(stackSetId: string, account: string, region: string): StackInstanceRecord | undefined {
    return parse(this.s.instance.get(stackSetId, account, region));
  }

  instances(stackSetId: string): StackInstanceRecord[] {
    return this.s.instances.all(stackSetId).map((r) => parse<StackInstanceRecord>(r)!);
  }

  removeInstance(stackSetId: string, account: string, region: string): void {
    this.s.removeInstance.run(stackSetId, account, region);
  }

  putOperation(r: SetOperationRecord): void {
    this.s.putOperation.run(r.stackSetId, r.operationId, r.createdAt, JSON.stringify(r.doc));
  }

  operation(stackSetId: string, operationId: string): SetOperationRecord | undefined {
    return parse(this.s.operation.get(stackSetId, operationId));
  }

  /** Newest first. */
  operations(stackSetId: string): SetOperationRecord[] {
    return this.s.operations.all(stackSetId).map((r) => parse<SetOperationRecord>(r)!);
  }

  /** Operations a stop of the process left queued, running or stopping, oldest first. */
  unfinished(): SetOperationRecord[] {
    return this.s.unfinished.all().map((r) => parse<SetOperationRecord>(r)!);
  }

  putResult(r: OperationResultRecord): void {
    this.s.putResult.run(r.stackSetId, r.operationId, r.account, r.region, JSON.stringify(r.doc));
  }

  results(stackSetId: string, operationId: string): OperationResultRecord[] {
    return this.s.results.all(stackSetId, operationId).map((r) => parse<OperationResultRecord>(r)!);
  }

  organization(managementAccount: string): OrganizationDoc | undefined {
    const doc = this.s.organization.get(managementAccount) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as OrganizationDoc);
  }

  /** The organization `account` belongs to (as its management account, or a member), with its management account. */
  organizationOf(account: string): { management: string; org: OrganizationDoc } | undefined {
    const rows = this.db.prepare('SELECT account, doc FROM organizations').all() as { account: string; doc: string }[];
    for (const row of rows) {
      const org = JSON.parse(row.doc) as OrganizationDoc;
      const members = [...org.rootAccounts, ...org.units.flatMap((u) => u.accounts)];
      if (row.account === account || members.includes(account)) return { management: row.account, org };
    }
    return undefined;
  }

  putOrganization(managementAccount: string, org: OrganizationDoc): void {
    this.s.putOrganization.run(managementAccount, JSON.stringify(org));
  }

  removeOrganization(managementAccount: string): void {
    this.s.removeOrganization.run(managementAccount);
  }

  /** The control API's scoped reset: the account's sets (with their instances and operations) and organization. */
  resetAccount(account: string, region?: string): void {
    const where = region === undefined ? 'account = ?' : 'account = ? AND region = ?';
    const args = region === undefined ? [account] : [account, region];
    for (const table of ['stack_instances', 'stack_set_operations', 'stack_set_results']) {
      this.db
        .prepare(`DELETE FROM ${table} WHERE stack_set_id IN (SELECT stack_set_id FROM stack_sets WHERE ${where})`)
        .run(...args);
    }
    this.db.prepare(`DELETE FROM stack_sets WHERE ${where}`).run(...args);
    if (region === undefined) this.removeOrganization(account);
  }
}
