// The one door through which a change set's Status and ExecutionStatus change: each change is checked against
// CHANGE_SET_TRANSITIONS and EXECUTION_TRANSITIONS in statuses.ts, then saved.
import type { ChangeSetRecord, ReadonlyStore, Store } from '../storage/index.js';
import {
  CHANGE_SET_TRANSITIONS,
  EXECUTION_TRANSITIONS,
  type ChangeSetStatus,
  type ExecutionStatus,
  type StackStatus,
} from './statuses.js';

export interface ChangeSetChange {
  status?: ChangeSetStatus;
  executionStatus?: ExecutionStatus;
  doc?: Record<string, unknown>;
}

/** A new change set's row: CREATE_PENDING / UNAVAILABLE, as CreateChangeSet answers. */
export function insertChangeSet(
  store: Store,
  record: Omit<ChangeSetRecord, 'status' | 'executionStatus'>,
): ChangeSetRecord {
  const cs: ChangeSetRecord = { ...record, status: 'CREATE_PENDING', executionStatus: 'UNAVAILABLE' };
  store.changeSets.save(cs);
  return cs;
}

/** The outcome CREATE_IN_PROGRESS settles to: FAILED / UNAVAILABLE with the reason, else CREATE_COMPLETE / AVAILABLE. */
export function outcomeOf(failure: string | undefined): {
  status: ChangeSetStatus;
  executionStatus: ExecutionStatus;
  statusReason?: string;
} {
  return failure
    ? { status: 'FAILED', executionStatus: 'UNAVAILABLE', statusReason: failure }
    : { status: 'CREATE_COMPLETE', executionStatus: 'AVAILABLE' };
}

/** Saves the change set with its new statuses; a change outside the tables is a bug and throws. */
export function setChangeSetStatus(store: Store, cs: ChangeSetRecord, change: ChangeSetChange): ChangeSetRecord {
  const status = change.status ?? cs.status;
  const executionStatus = change.executionStatus ?? cs.executionStatus;
  if (status !== cs.status && !CHANGE_SET_TRANSITIONS[cs.status].includes(status)) {
    throw new Error(`illegal change set transition ${cs.status} → ${status} for ${cs.changeSetId}`);
  }
  if (executionStatus !== cs.executionStatus && !EXECUTION_TRANSITIONS[cs.executionStatus].includes(executionStatus)) {
    throw new Error(
      `illegal execution status transition ${cs.executionStatus} → ${executionStatus} for ${cs.changeSetId}`,
    );
  }
  const next = { ...cs, status, executionStatus, doc: change.doc ?? cs.doc };
  store.changeSets.save(next);
  return next;
}

/** Pending change sets of a stack become OBSOLETE once the stack changes by another way. */
export function markObsolete(store: Store, stackId: string): void {
  for (const cs of store.changeSets.byStack(stackId)) {
    if (cs.executionStatus === 'AVAILABLE') setChangeSetStatus(store, cs, { executionStatus: 'OBSOLETE' });
  }
}

/**
 * Once one change set runs, AWS deletes the stack's other change sets ("When you execute a change set,
 * CloudFormation deletes all other change sets associated with the stack because they aren't valid for the updated
 * stack", ExecuteChangeSet's API reference): they are found by neither name nor ARN afterwards.
 */
export function deleteOthers(store: Store, executed: ChangeSetRecord): void {
  for (const other of store.changeSets.byStack(executed.stackId)) {
    if (other.changeSetId !== executed.changeSetId) store.changeSets.save({ ...other, deleted: true });
  }
}

/**
 * An executed change set (its execution begun) no longer answers to its name: DescribeChangeSet by name is
 * ChangeSetNotFound, ListChangeSets leaves it out, and a new change set may take the name; its ARN still finds it
 * (guardian/riff-raff#672 quotes both answers from AWS).
 */
export const executed = (cs: ChangeSetRecord): boolean => cs.executionStatus.startsWith('EXECUTE');

/** The stack's change set that answers to a name: the newest not deleted and not executed. */
export function byLiveName(
  store: Pick<ReadonlyStore, 'changeSets'>,
  stackId: string,
  name: string,
): ChangeSetRecord | undefined {
  return store.changeSets
    .byStack(stackId)
    .filter((cs) => cs.name === name && !executed(cs))
    .at(-1);
}

const SUCCEEDED = new Set<StackStatus>(['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'IMPORT_COMPLETE']);

/** The end of an execution: EXECUTE_COMPLETE when the stack reached its operation's complete status. */
export function endExecution(store: Store, cs: ChangeSetRecord, stackStatus: StackStatus): void {
  setChangeSetStatus(store, cs, {
    executionStatus: SUCCEEDED.has(stackStatus) ? 'EXECUTE_COMPLETE' : 'EXECUTE_FAILED',
  });
}
