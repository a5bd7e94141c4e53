// The stack refactors' status tables (Status, ExecutionStatus) and AWS's refusal of ExecuteStackRefactor by them:
// part of statuses.ts, which re-exports them. The door that changes them is refactorStatus.ts.
import { validationError } from '../domain/errors.js';
import type { StackRefactorExecutionStatus, StackRefactorStatus } from '../domain/statuses.js';

/**
 * A refactor's Status: CreateStackRefactor answers while it is CREATE_IN_PROGRESS; its validation settles it to
 * CREATE_COMPLETE or CREATE_FAILED after the call returns. cfn-local never deletes a refactor (AWS has no
 * DeleteStackRefactor either): the DELETE_* statuses are never shown.
 */
export const REFACTOR_TRANSITIONS: Record<StackRefactorStatus, readonly StackRefactorStatus[]> = {
  CREATE_IN_PROGRESS: ['CREATE_COMPLETE', 'CREATE_FAILED'],
  CREATE_COMPLETE: [],
  CREATE_FAILED: [],
  DELETE_IN_PROGRESS: [],
  DELETE_COMPLETE: [],
  DELETE_FAILED: [],
};

/**
 * Its ExecutionStatus: UNAVAILABLE while created (and for good when the validation failed), AVAILABLE once valid,
 * EXECUTE_IN_PROGRESS → EXECUTE_COMPLETE | EXECUTE_FAILED when run, OBSOLETE once a stack it names changed by
 * another way. cfn-local's execution commits as one unit, so it never needs the ROLLBACK_* statuses.
 */
export const REFACTOR_EXECUTION_TRANSITIONS: Record<
  StackRefactorExecutionStatus,
  readonly StackRefactorExecutionStatus[]
> = {
  UNAVAILABLE: ['AVAILABLE'],
  AVAILABLE: ['EXECUTE_IN_PROGRESS', 'OBSOLETE'],
  EXECUTE_IN_PROGRESS: ['EXECUTE_COMPLETE', 'EXECUTE_FAILED'],
  EXECUTE_COMPLETE: [],
  EXECUTE_FAILED: [],
  OBSOLETE: [],
  ROLLBACK_IN_PROGRESS: [],
  ROLLBACK_COMPLETE: [],
  ROLLBACK_FAILED: [],
};

/** ExecuteStackRefactor may start only from CREATE_COMPLETE / AVAILABLE. */
export function checkRefactorExecutable(r: {
  id: string;
  status: StackRefactorStatus;
  executionStatus: StackRefactorExecutionStatus;
}): void {
  if (r.status !== 'CREATE_COMPLETE') {
    throw validationError(`StackRefactor [${r.id}] cannot be executed in its current status of [${r.status}]`);
  }
  if (r.executionStatus !== 'AVAILABLE') {
    throw validationError(
      `StackRefactor [${r.id}] cannot be executed in its current execution status of [${r.executionStatus}]`,
    );
  }
}
