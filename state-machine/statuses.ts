// The one table of truth for stack and resource statuses: which operation may start from which stack status,
// and which status may follow which. Operations consult it through state-machine/transitions.ts; nothing else
// sets a status.
import { stackNotFound, validationError } from '../domain/errors.js';

export {
  STACK_STATUSES,
  RESOURCE_STATUSES,
  CHANGE_SET_STATUSES,
  EXECUTION_STATUSES,
  STACK_REFACTOR_STATUSES,
  STACK_REFACTOR_EXECUTION_STATUSES,
  OPERATION_TYPES,
  type StackStatus,
  type ResourceStatus,
  type ChangeSetStatus,
  type ExecutionStatus,
  type StackRefactorStatus,
  type StackRefactorExecutionStatus,
  type OperationType,
} from '../domain/statuses.js';
import type { ResourceStatus, StackStatus } from '../domain/statuses.js';

// The change sets' own tables, and the CreateChangeSet × ChangeSetType dimension (changeSetRules.ts).
export * from './changeSetRules.js';
// The stack refactors' tables (refactorRules.ts).
export * from './refactorRules.js';

/** The stack-level operations a caller can start. */
export type StackOperation =
  | 'UpdateStack'
  | 'DeleteStack'
  | 'CreateChangeSet'
  | 'ExecuteChangeSet'
  | 'RollbackStack'
  | 'ContinueUpdateRollback'
  | 'CancelUpdateStack';

const UPDATABLE: readonly StackStatus[] = [
  'CREATE_COMPLETE',
  'UPDATE_COMPLETE',
  'UPDATE_ROLLBACK_COMPLETE',
  'IMPORT_COMPLETE',
  'IMPORT_ROLLBACK_COMPLETE',
];

/**
 * Where each operation may start. AWS lets a stack kept in CREATE_FAILED / UPDATE_FAILED (rollback disabled) be
 * fixed forward by an update, rolled back, or deleted; ROLLBACK_COMPLETE can only be deleted.
 */
export const OPERATION_STARTS: Record<StackOperation, readonly StackStatus[]> = {
  UpdateStack: [...UPDATABLE, 'CREATE_FAILED', 'UPDATE_FAILED'],
  CreateChangeSet: [...UPDATABLE, 'CREATE_FAILED', 'UPDATE_FAILED', 'REVIEW_IN_PROGRESS'],
  ExecuteChangeSet: [...UPDATABLE, 'CREATE_FAILED', 'UPDATE_FAILED', 'REVIEW_IN_PROGRESS'],
  // CREATE_IN_PROGRESS: AWS accepts the delete of a stack still being created; the create stops and everything
  // it made is deleted (state-machine/operations/delete.ts, deleteWhileCreating).
  DeleteStack: [
    'CREATE_IN_PROGRESS',
    'CREATE_FAILED',
    'CREATE_COMPLETE',
    'ROLLBACK_FAILED',
    'ROLLBACK_COMPLETE',
    'DELETE_FAILED',
    'UPDATE_COMPLETE',
    'UPDATE_FAILED',
    'UPDATE_ROLLBACK_FAILED',
    'UPDATE_ROLLBACK_COMPLETE',
    'REVIEW_IN_PROGRESS',
    'IMPORT_COMPLETE',
    'IMPORT_ROLLBACK_FAILED',
    'IMPORT_ROLLBACK_COMPLETE',
  ],
  RollbackStack: ['CREATE_FAILED', 'UPDATE_FAILED'],
  ContinueUpdateRollback: ['UPDATE_ROLLBACK_FAILED'],
  CancelUpdateStack: ['UPDATE_IN_PROGRESS'],
};

/** AWS's refusal of each operation from a status its row above does not list (a ValidationError). */
export const REFUSALS: Record<StackOperation, (stack: { name: string; stackId: string; status: string }) => string> = {
  UpdateStack: (s) => `Stack:${s.stackId} is in ${s.status} state and can not be updated.`,
  CreateChangeSet: (s) => `Stack:${s.stackId} is in ${s.status} state and can not be updated.`,
  ExecuteChangeSet: (s) => `Stack:${s.stackId} is in ${s.status} state and can not be updated.`,
  DeleteStack: (s) => `Stack [${s.name}] cannot be deleted while in status ${s.status}`,
  RollbackStack: (s) => `Stack ${s.stackId} is in ${s.status} state and can not be rolled back.`,
  ContinueUpdateRollback: (s) => `Stack ${s.stackId} is in ${s.status} state and can not continue update rollback.`,
  CancelUpdateStack: () => 'CancelUpdateStack cannot be called from current stack status',
};

/** The statuses a stack's first row may have: a create's, or a stack waiting for its first change set. */
export const FIRST_STACK_STATUSES = ['CREATE_IN_PROGRESS', 'REVIEW_IN_PROGRESS'] as const;
export type FirstStackStatus = (typeof FIRST_STACK_STATUSES)[number];

export function canBegin(status: StackStatus): status is FirstStackStatus {
  return (FIRST_STACK_STATUSES as readonly StackStatus[]).includes(status);
}

/** Which stack status may follow which. A transition outside this table is a bug and throws. */
export const STACK_TRANSITIONS: Record<StackStatus, readonly StackStatus[]> = {
  REVIEW_IN_PROGRESS: ['CREATE_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'IMPORT_IN_PROGRESS'],
  CREATE_IN_PROGRESS: ['CREATE_COMPLETE', 'CREATE_FAILED', 'ROLLBACK_IN_PROGRESS', 'DELETE_IN_PROGRESS'],
  CREATE_FAILED: ['ROLLBACK_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'UPDATE_IN_PROGRESS'],
  CREATE_COMPLETE: ['UPDATE_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'IMPORT_IN_PROGRESS'],
  ROLLBACK_IN_PROGRESS: ['ROLLBACK_COMPLETE', 'ROLLBACK_FAILED'],
  ROLLBACK_FAILED: ['DELETE_IN_PROGRESS'],
  ROLLBACK_COMPLETE: ['DELETE_IN_PROGRESS'],
  DELETE_IN_PROGRESS: [
    'DELETE_COMPLETE',
    'DELETE_FAILED',
    // an export still imported elsewhere sends the stack back where it was (AWS: no DELETE_FAILED)
    'CREATE_COMPLETE',
    'UPDATE_COMPLETE',
    'UPDATE_ROLLBACK_COMPLETE',
    'IMPORT_COMPLETE',
    'CREATE_FAILED',
    'UPDATE_FAILED',
    'UPDATE_ROLLBACK_FAILED',
  ],
  DELETE_FAILED: ['DELETE_IN_PROGRESS'],
  DELETE_COMPLETE: [],
  UPDATE_IN_PROGRESS: [
    'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
    'UPDATE_ROLLBACK_IN_PROGRESS',
    'UPDATE_FAILED',
    // an update of a stack kept in CREATE_FAILED that fails rolls back as a create would
    'ROLLBACK_IN_PROGRESS',
    // a stack refactor's execution has nothing to clean up (state-machine/refactors/execute.ts)
    'UPDATE_COMPLETE',
  ],
  UPDATE_COMPLETE_CLEANUP_IN_PROGRESS: ['UPDATE_COMPLETE'],
  UPDATE_COMPLETE: ['UPDATE_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'IMPORT_IN_PROGRESS'],
  UPDATE_FAILED: ['UPDATE_IN_PROGRESS', 'UPDATE_ROLLBACK_IN_PROGRESS', 'DELETE_IN_PROGRESS'],
  UPDATE_ROLLBACK_IN_PROGRESS: ['UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_ROLLBACK_FAILED'],
  UPDATE_ROLLBACK_FAILED: ['UPDATE_ROLLBACK_IN_PROGRESS', 'DELETE_IN_PROGRESS'],
  UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS: ['UPDATE_ROLLBACK_COMPLETE', 'UPDATE_ROLLBACK_FAILED'],
  UPDATE_ROLLBACK_COMPLETE: ['UPDATE_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'IMPORT_IN_PROGRESS'],
  IMPORT_IN_PROGRESS: ['IMPORT_COMPLETE', 'IMPORT_ROLLBACK_IN_PROGRESS', 'IMPORT_ROLLBACK_FAILED'],
  IMPORT_COMPLETE: ['UPDATE_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'IMPORT_IN_PROGRESS'],
  IMPORT_ROLLBACK_IN_PROGRESS: ['IMPORT_ROLLBACK_COMPLETE', 'IMPORT_ROLLBACK_FAILED'],
  IMPORT_ROLLBACK_FAILED: ['DELETE_IN_PROGRESS'],
  IMPORT_ROLLBACK_COMPLETE: ['UPDATE_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'IMPORT_IN_PROGRESS'],
};

/** The statuses of a running operation (REVIEW_IN_PROGRESS is a stack waiting for its first change set, not one). */
export type InProgressStatus = Exclude<Extract<StackStatus, `${string}_IN_PROGRESS`>, 'REVIEW_IN_PROGRESS'>;

export function isInProgress(status: StackStatus): status is InProgressStatus {
  return status.endsWith('_IN_PROGRESS') && status !== 'REVIEW_IN_PROGRESS';
}

/**
 * Where a stack goes when its operation breaks unexpectedly (a bug, not a resource failure): the operation's own
 * failed status, so that no stack is left *_IN_PROGRESS and the usual recovery calls apply. An import has no failed
 * status of its own: it ends IMPORT_ROLLBACK_FAILED, from which DeleteStack is allowed.
 */
export const ON_INTERNAL_FAILURE: Record<InProgressStatus, StackStatus> = {
  CREATE_IN_PROGRESS: 'CREATE_FAILED',
  ROLLBACK_IN_PROGRESS: 'ROLLBACK_FAILED',
  DELETE_IN_PROGRESS: 'DELETE_FAILED',
  UPDATE_IN_PROGRESS: 'UPDATE_FAILED',
  UPDATE_COMPLETE_CLEANUP_IN_PROGRESS: 'UPDATE_COMPLETE',
  UPDATE_ROLLBACK_IN_PROGRESS: 'UPDATE_ROLLBACK_FAILED',
  UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS: 'UPDATE_ROLLBACK_FAILED',
  IMPORT_IN_PROGRESS: 'IMPORT_ROLLBACK_FAILED',
  IMPORT_ROLLBACK_IN_PROGRESS: 'IMPORT_ROLLBACK_FAILED',
};

/** Resource actions and the statuses each phase of them produces. */
export type ResourceAction =
  'Create' | 'Update' | 'Delete' | 'Skip' | 'RollbackUpdate' | 'RollbackSkip' | 'Import' | 'ImportRollback';
export type ResourcePhase = 'start' | 'complete' | 'failed';

interface PhaseRow extends Record<ResourcePhase, ResourceStatus> {
  /** The phases this action may record without its start status first (otherwise they must follow it). */
  direct: readonly ResourcePhase[];
}

/**
 * Where each resource status comes from: an action's start, then its complete or failed. Every resource status
 * change goes through setResourceStatus (transitions.ts), which takes it from this table.
 */
export const RESOURCE_PHASES: Record<ResourceAction, PhaseRow> = {
  // properties that cannot be evaluated fail a create before it starts
  Create: { start: 'CREATE_IN_PROGRESS', complete: 'CREATE_COMPLETE', failed: 'CREATE_FAILED', direct: ['failed'] },
  // so do they an update, and so does a stack policy's refusal (and, for all three, a failed hook)
  Update: { start: 'UPDATE_IN_PROGRESS', complete: 'UPDATE_COMPLETE', failed: 'UPDATE_FAILED', direct: ['failed'] },
  // a resource that never got a physical id is deleted without DELETE_IN_PROGRESS; a failed pre-delete hook fails
  // the delete before it starts
  Delete: {
    start: 'DELETE_IN_PROGRESS',
    complete: 'DELETE_COMPLETE',
    failed: 'DELETE_FAILED',
    direct: ['complete', 'failed'],
  },
  // a retained resource shows a single DELETE_SKIPPED
  Skip: { start: 'DELETE_SKIPPED', complete: 'DELETE_SKIPPED', failed: 'DELETE_SKIPPED', direct: ['complete'] },
  // an update rollback puts a resource back through an update
  RollbackUpdate: { start: 'UPDATE_IN_PROGRESS', complete: 'UPDATE_COMPLETE', failed: 'UPDATE_FAILED', direct: [] },
  // ContinueUpdateRollback's ResourcesToSkip: marked UPDATE_COMPLETE and left as they are
  RollbackSkip: {
    start: 'UPDATE_COMPLETE',
    complete: 'UPDATE_COMPLETE',
    failed: 'UPDATE_COMPLETE',
    direct: ['complete'],
  },
  // an existing resource that cannot be evaluated fails its import before it starts
  Import: { start: 'IMPORT_IN_PROGRESS', complete: 'IMPORT_COMPLETE', failed: 'IMPORT_FAILED', direct: ['failed'] },
  // an import rolled back releases the resource to the account in one step
  ImportRollback: {
    start: 'IMPORT_ROLLBACK_IN_PROGRESS',
    complete: 'IMPORT_ROLLBACK_COMPLETE',
    failed: 'IMPORT_ROLLBACK_FAILED',
    direct: ['complete'],
  },
};

/** The action a resource status is the start of, when it is one still running (not a single-event action's). */
export function actionInProgress(status: ResourceStatus): ResourceAction | undefined {
  if (!status.endsWith('_IN_PROGRESS')) return undefined;
  return (Object.keys(RESOURCE_PHASES) as ResourceAction[]).find((a) => RESOURCE_PHASES[a].start === status);
}

/** Whether a resource in `from` may record this action's phase. A start may follow anything. */
export function canRecord(from: ResourceStatus, action: ResourceAction, phase: ResourcePhase): boolean {
  const row = RESOURCE_PHASES[action];
  return phase === 'start' || from === row.start || row.direct.includes(phase);
}

export function canStart(operation: StackOperation, status: StackStatus): boolean {
  return OPERATION_STARTS[operation].includes(status);
}

/** Throws AWS's ValidationError when the stack's status does not allow the operation. */
export function checkStart(
  operation: StackOperation,
  stack: { name: string; stackId: string; status: StackStatus },
): void {
  if (!canStart(operation, stack.status)) throw validationError(REFUSALS[operation](stack));
}

export function canTransition(from: StackStatus, to: StackStatus): boolean {
  return STACK_TRANSITIONS[from].includes(to);
}

/** CancelUpdateStack: from its OPERATION_STARTS row, and only while that update runs (`running`, its runtime). */
export function checkCancel<T>(
  stack: { name: string; stackId: string; status: StackStatus },
  running: T | undefined,
): asserts running is T {
  if (running === undefined || !canStart('CancelUpdateStack', stack.status)) {
    throw validationError(REFUSALS.CancelUpdateStack(stack));
  }
}

/** The resource statuses SignalResource takes a signal in: a create's or an update's, waiting on it. */
export const SIGNALABLE: readonly ResourceStatus[] = ['CREATE_IN_PROGRESS', 'UPDATE_IN_PROGRESS'];

/**
 * The interrupted stack statuses a restart carries on rather than fails, when every resource in flight was waiting
 * on the outside world (state-machine/resumeWaits.ts): a create's and an update's.
 */
export const RESUMES_WAITS: readonly StackStatus[] = ['CREATE_IN_PROGRESS', 'UPDATE_IN_PROGRESS'];

/** What CreateChangeSet's ChangeSetType allows for the stack it names: none yet, one in review, or any other. */
type TargetRule = 'allowed' | 'alreadyExists' | 'notFound' | 'refused' | 'checkStart';

export const CHANGE_SET_TARGETS: Record<
  'CREATE' | 'UPDATE' | 'IMPORT',
  Record<'none' | 'review' | 'other', TargetRule>
> = {
  CREATE: { none: 'allowed', review: 'allowed', other: 'alreadyExists' },
  UPDATE: { none: 'notFound', review: 'refused', other: 'checkStart' },
  IMPORT: { none: 'allowed', review: 'allowed', other: 'checkStart' },
};

/**
 * AWS's refusal of a change set's type against the stack it names, else of the stack's status (the CreateChangeSet
 * row of OPERATION_STARTS). A type outside the three (never past INPUT_RULES) reads as IMPORT.
 */
export function checkChangeSetTarget(
  type: string,
  stack: { name: string; stackId: string; status: StackStatus } | undefined,
  input: { StackName: string; ChangeSetName: string },
): void {
  const row = type === 'CREATE' || type === 'UPDATE' ? CHANGE_SET_TARGETS[type] : CHANGE_SET_TARGETS.IMPORT;
  const rule = row[!stack ? 'none' : stack.status === 'REVIEW_IN_PROGRESS' ? 'review' : 'other'];
  if (rule === 'alreadyExists')
    throw validationError(
      `Stack [${input.StackName}] already exists and cannot be created again with the changeSet [${input.ChangeSetName}].`,
    );
  if (rule === 'notFound') throw stackNotFound(input.StackName);
  if (rule === 'refused') throw validationError(REFUSALS.CreateChangeSet(stack!));
  if (rule === 'checkStart') checkStart('CreateChangeSet', stack!);
}
