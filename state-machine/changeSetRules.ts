// The change sets' status tables (Status, ExecutionStatus) and AWS's refusals by them: part of statuses.ts, which
// re-exports them.
import { awsError } from '../domain/errors.js';
import type { ChangeSetStatus, ExecutionStatus } from '../domain/statuses.js';

/**
 * A change set's Status: CreateChangeSet answers with CREATE_PENDING, which settles through CREATE_IN_PROGRESS to
 * CREATE_COMPLETE or FAILED after the call returns (a restart settles a pending one directly when next read).
 */
export const CHANGE_SET_TRANSITIONS: Record<ChangeSetStatus, readonly ChangeSetStatus[]> = {
  CREATE_PENDING: ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE', 'FAILED'],
  CREATE_IN_PROGRESS: ['CREATE_COMPLETE', 'FAILED'],
  CREATE_COMPLETE: [],
  FAILED: [],
  // DeleteChangeSet removes a change set at once: these AWS statuses are never shown
  DELETE_PENDING: [],
  DELETE_IN_PROGRESS: [],
  DELETE_COMPLETE: [],
  DELETE_FAILED: [],
};

/**
 * Its ExecutionStatus: AVAILABLE once created, EXECUTE_IN_PROGRESS → EXECUTE_COMPLETE | EXECUTE_FAILED when run
 * (back to AVAILABLE when the stack refuses the start), OBSOLETE once the stack changed by another way.
 */
export const EXECUTION_TRANSITIONS: Record<ExecutionStatus, readonly ExecutionStatus[]> = {
  UNAVAILABLE: ['AVAILABLE', 'OBSOLETE'],
  AVAILABLE: ['EXECUTE_IN_PROGRESS', 'OBSOLETE'],
  EXECUTE_IN_PROGRESS: ['EXECUTE_COMPLETE', 'EXECUTE_FAILED', 'AVAILABLE'],
  EXECUTE_COMPLETE: [],
  EXECUTE_FAILED: [],
  OBSOLETE: [],
};

const CHANGE_SET_BUSY =
  'An operation on this ChangeSet is currently in progress.  Please attempt this operation again later.';

/** AWS's refusals (InvalidChangeSetStatus) of ExecuteChangeSet and DeleteChangeSet by the change set's statuses. */
export const CHANGE_SET_REFUSALS = {
  busy: () => awsError('InvalidChangeSetStatus', CHANGE_SET_BUSY),
  status: (id: string, status: string) =>
    awsError('InvalidChangeSetStatus', `ChangeSet [${id}] cannot be executed in its current status of [${status}]`),
  execution: (id: string, status: string) =>
    awsError(
      'InvalidChangeSetStatus',
      `ChangeSet [${id}] cannot be executed in its current execution status of [${status}]`,
    ),
};

/** ExecuteChangeSet may start only from CREATE_COMPLETE / AVAILABLE. */
export function checkExecutable(cs: {
  changeSetId: string;
  status: ChangeSetStatus;
  executionStatus: ExecutionStatus;
}): void {
  if (cs.status === 'CREATE_PENDING' || cs.status === 'CREATE_IN_PROGRESS') throw CHANGE_SET_REFUSALS.busy();
  if (cs.status !== 'CREATE_COMPLETE') throw CHANGE_SET_REFUSALS.status(cs.changeSetId, cs.status);
  if (cs.executionStatus !== 'AVAILABLE') throw CHANGE_SET_REFUSALS.execution(cs.changeSetId, cs.executionStatus);
}

/** DeleteChangeSet is refused while the change set is being created or executed. */
export function checkDeletable(cs: { status: ChangeSetStatus; executionStatus: ExecutionStatus }): void {
  if (
    cs.status === 'CREATE_PENDING' ||
    cs.status === 'CREATE_IN_PROGRESS' ||
    cs.executionStatus === 'EXECUTE_IN_PROGRESS'
  ) {
    throw CHANGE_SET_REFUSALS.busy();
  }
}
