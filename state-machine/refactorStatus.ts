// The one door through which a stack refactor's Status and ExecutionStatus change: each change is checked against
// REFACTOR_TRANSITIONS and REFACTOR_EXECUTION_TRANSITIONS (refactorRules.ts), then saved.
import type { ReadonlyStore, StackRefactorRecord, Store } from '../storage/index.js';
import {
  REFACTOR_EXECUTION_TRANSITIONS,
  REFACTOR_TRANSITIONS,
  type StackRefactorExecutionStatus,
  type StackRefactorStatus,
} from './statuses.js';

export interface RefactorChange {
  status?: StackRefactorStatus;
  statusReason?: string;
  executionStatus?: StackRefactorExecutionStatus;
  executionStatusReason?: string;
  /** What the validation found: the moves and the actions ListStackRefactorActions shows. */
  plan?: Pick<StackRefactorRecord, 'moves' | 'actions' | 'stacks'>;
}

/** A new refactor's row: CREATE_IN_PROGRESS / UNAVAILABLE, as CreateStackRefactor answers. */
export function insertRefactor(
  store: Store,
  record: Omit<StackRefactorRecord, 'status' | 'executionStatus'>,
): StackRefactorRecord {
  const r: StackRefactorRecord = { ...record, status: 'CREATE_IN_PROGRESS', executionStatus: 'UNAVAILABLE' };
  store.refactors.save(r);
  return r;
}

/** Saves the refactor with its new statuses; a change outside the tables is a bug and throws. */
export function setRefactorStatus(store: Store, r: StackRefactorRecord, change: RefactorChange): StackRefactorRecord {
  const status = change.status ?? r.status;
  const executionStatus = change.executionStatus ?? r.executionStatus;
  if (status !== r.status && !REFACTOR_TRANSITIONS[r.status].includes(status)) {
    throw new Error(`illegal stack refactor transition ${r.status} → ${status} for ${r.id}`);
  }
  if (
    executionStatus !== r.executionStatus &&
    !REFACTOR_EXECUTION_TRANSITIONS[r.executionStatus].includes(executionStatus)
  ) {
    throw new Error(`illegal refactor execution transition ${r.executionStatus} → ${executionStatus} for ${r.id}`);
  }
  const next: StackRefactorRecord = {
    ...r,
    ...change.plan,
    status,
    executionStatus,
    statusReason: change.statusReason ?? r.statusReason,
    executionStatusReason: change.executionStatusReason ?? r.executionStatusReason,
  };
  store.refactors.save(next);
  return next;
}

/**
 * A valid refactor goes OBSOLETE once a stack it names changed by another way (AWS's OBSOLETE): its template or its
 * last update is no longer what it was when the refactor was created. Read-only, so handlers can show it.
 */
export function isObsolete(store: ReadonlyStore, r: StackRefactorRecord): boolean {
  if (r.executionStatus !== 'AVAILABLE') return false;
  return r.stacks.some((s) => {
    if (s.isNew) return store.stacks.liveByName(r.account, r.region, s.stackName) !== undefined;
    const now = store.stacks.byId(s.stackId);
    return !now || now.status === 'DELETE_COMPLETE' || now.templateId !== s.templateId || now.updatedAt !== s.updatedAt;
  });
}

/** The execution status a caller sees: OBSOLETE as soon as it is, even before an execution records it. */
export function shownExecutionStatus(store: ReadonlyStore, r: StackRefactorRecord): StackRefactorExecutionStatus {
  return isObsolete(store, r) ? 'OBSOLETE' : r.executionStatus;
}
