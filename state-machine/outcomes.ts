// Where each outcome of an operation leads, as data: one row per operation kind (complete, failed and kept,
// rollback in progress / complete / failed, cleanup), and AWS's reason texts, written once. Operations reach an
// outcome through reachOutcome(); no operation names a target status itself. A new kind of operation (a stack
// set's instance operation, a refactor) is a new row here, and its transitions rows in statuses.ts.
import type { StackRecord } from '../storage/index.js';
import type { StackStatus } from './statuses.js';
import { setStackStatus, type OperationContext } from './transitions.js';

/** The outcomes an operation may reach, each the name of a row's column. */
export type Outcome =
  | 'inProgress'
  | 'cleanupInProgress'
  | 'complete'
  | 'failed'
  | 'failedKept'
  | 'rollbackInProgress'
  | 'rollbackCleanupInProgress'
  | 'rollbackComplete'
  | 'rollbackFailed';

/** Each operation kind's row: the status each of its outcomes is. */
export const OUTCOMES = {
  // CreateStack; a failed create is kept (rollback disabled, OnFailure DO_NOTHING) or rolled back by deleting
  CREATE: {
    complete: 'CREATE_COMPLETE',
    failedKept: 'CREATE_FAILED',
    rollbackInProgress: 'ROLLBACK_IN_PROGRESS',
    rollbackComplete: 'ROLLBACK_COMPLETE',
    rollbackFailed: 'ROLLBACK_FAILED',
  },
  // UpdateStack and an executed UPDATE change set: the old resources go in a cleanup phase once it has succeeded
  UPDATE: {
    cleanupInProgress: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
    complete: 'UPDATE_COMPLETE',
    failedKept: 'UPDATE_FAILED',
    rollbackInProgress: 'UPDATE_ROLLBACK_IN_PROGRESS',
    rollbackCleanupInProgress: 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
    rollbackComplete: 'UPDATE_ROLLBACK_COMPLETE',
    rollbackFailed: 'UPDATE_ROLLBACK_FAILED',
  },
  // an executed IMPORT change set: no failed-and-kept status, a failure always rolls back
  IMPORT: {
    complete: 'IMPORT_COMPLETE',
    rollbackInProgress: 'IMPORT_ROLLBACK_IN_PROGRESS',
    rollbackComplete: 'IMPORT_ROLLBACK_COMPLETE',
    rollbackFailed: 'IMPORT_ROLLBACK_FAILED',
  },
  // ExecuteStackRefactor on a stack it moves resources into or out of (an UPDATE_STACK operation, as on AWS), and on
  // a stack EnableStackCreation makes (a CREATE_STACK one); its steps touch no resource, so only a bug fails one,
  // which is kept failed (state-machine/refactors/refactorRun.ts)
  REFACTOR: { complete: 'UPDATE_COMPLETE', failedKept: 'UPDATE_FAILED' },
  REFACTOR_NEW_STACK: { complete: 'CREATE_COMPLETE', failedKept: 'CREATE_FAILED' },
  // DeleteStack, and OnFailure DELETE after a create's rollback
  DELETE: { inProgress: 'DELETE_IN_PROGRESS', complete: 'DELETE_COMPLETE', failed: 'DELETE_FAILED' },
} as const satisfies Record<string, Partial<Record<Outcome, StackStatus>>>;

export type OutcomeKind = keyof typeof OUTCOMES;

/** AWS's stack status reasons that are fixed texts. */
export const REASONS = {
  /** The first status of an operation a call started. */
  userInitiated: 'User Initiated',
  /** Ends a failed create's reason when it rolls back (`The following resource(s) failed to create: [X]. …`). */
  rollbackRequested: 'Rollback requested by user.',
} as const;

/** A failure's reason as a rolling-back create shows it. */
export const rollbackRequested = (reason: string) => reason + REASONS.rollbackRequested;

/** The stack reaches `outcome` of its operation kind's row, with its reason. */
export function reachOutcome<K extends OutcomeKind>(
  rt: OperationContext & { stack: StackRecord },
  kind: K,
  outcome: keyof (typeof OUTCOMES)[K],
  reason?: string,
): void {
  setStackStatus(rt, rt.stack, OUTCOMES[kind][outcome] as StackStatus, reason);
}
