// domain/statuses: the status vocabularies AWS defines (stack, resource, change set, execution) and its operation
// types, as string-literal unions every layer can import. Which status may follow which is state-machine/statuses.ts.

export const STACK_STATUSES = [
  'CREATE_IN_PROGRESS',
  'CREATE_FAILED',
  'CREATE_COMPLETE',
  'ROLLBACK_IN_PROGRESS',
  'ROLLBACK_FAILED',
  'ROLLBACK_COMPLETE',
  'DELETE_IN_PROGRESS',
  'DELETE_FAILED',
  'DELETE_COMPLETE',
  'UPDATE_IN_PROGRESS',
  'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
  'UPDATE_COMPLETE',
  'UPDATE_FAILED',
  'UPDATE_ROLLBACK_IN_PROGRESS',
  'UPDATE_ROLLBACK_FAILED',
  'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
  'UPDATE_ROLLBACK_COMPLETE',
  'REVIEW_IN_PROGRESS',
  'IMPORT_IN_PROGRESS',
  'IMPORT_COMPLETE',
  'IMPORT_ROLLBACK_IN_PROGRESS',
  'IMPORT_ROLLBACK_FAILED',
  'IMPORT_ROLLBACK_COMPLETE',
] as const;
export type StackStatus = (typeof STACK_STATUSES)[number];

export const RESOURCE_STATUSES = [
  'CREATE_IN_PROGRESS',
  'CREATE_FAILED',
  'CREATE_COMPLETE',
  'DELETE_IN_PROGRESS',
  'DELETE_FAILED',
  'DELETE_COMPLETE',
  'DELETE_SKIPPED',
  'UPDATE_IN_PROGRESS',
  'UPDATE_FAILED',
  'UPDATE_COMPLETE',
  'UPDATE_ROLLBACK_IN_PROGRESS',
  'UPDATE_ROLLBACK_FAILED',
  'UPDATE_ROLLBACK_COMPLETE',
  'ROLLBACK_IN_PROGRESS',
  'ROLLBACK_FAILED',
  'ROLLBACK_COMPLETE',
  'IMPORT_IN_PROGRESS',
  'IMPORT_FAILED',
  'IMPORT_COMPLETE',
  'IMPORT_ROLLBACK_IN_PROGRESS',
  'IMPORT_ROLLBACK_FAILED',
  'IMPORT_ROLLBACK_COMPLETE',
] as const;
export type ResourceStatus = (typeof RESOURCE_STATUSES)[number];

/** A change set's Status (API_ChangeSetSummary). */
export const CHANGE_SET_STATUSES = [
  'CREATE_PENDING',
  'CREATE_IN_PROGRESS',
  'CREATE_COMPLETE',
  'DELETE_PENDING',
  'DELETE_IN_PROGRESS',
  'DELETE_COMPLETE',
  'DELETE_FAILED',
  'FAILED',
] as const;
export type ChangeSetStatus = (typeof CHANGE_SET_STATUSES)[number];

/** A change set's ExecutionStatus (API_ChangeSetSummary). */
export const EXECUTION_STATUSES = [
  'UNAVAILABLE',
  'AVAILABLE',
  'EXECUTE_IN_PROGRESS',
  'EXECUTE_COMPLETE',
  'EXECUTE_FAILED',
  'OBSOLETE',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** AWS's OperationType: the kinds of operation LastOperations names (API_OperationEntry). */
export const OPERATION_TYPES = [
  'CREATE_STACK',
  'UPDATE_STACK',
  'DELETE_STACK',
  'CONTINUE_ROLLBACK',
  'ROLLBACK',
  'CREATE_CHANGESET',
] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

/** A stack refactor's Status (API_StackRefactorSummary): what CreateStackRefactor's validation reached. */
export const STACK_REFACTOR_STATUSES = [
  'CREATE_IN_PROGRESS',
  'CREATE_COMPLETE',
  'CREATE_FAILED',
  'DELETE_IN_PROGRESS',
  'DELETE_COMPLETE',
  'DELETE_FAILED',
] as const;
export type StackRefactorStatus = (typeof STACK_REFACTOR_STATUSES)[number];

/** A stack refactor's ExecutionStatus (API_StackRefactorSummary): what ExecuteStackRefactor reached. */
export const STACK_REFACTOR_EXECUTION_STATUSES = [
  'UNAVAILABLE',
  'AVAILABLE',
  'OBSOLETE',
  'EXECUTE_IN_PROGRESS',
  'EXECUTE_COMPLETE',
  'EXECUTE_FAILED',
  'ROLLBACK_IN_PROGRESS',
  'ROLLBACK_COMPLETE',
  'ROLLBACK_FAILED',
] as const;
export type StackRefactorExecutionStatus = (typeof STACK_REFACTOR_EXECUTION_STATUSES)[number];
