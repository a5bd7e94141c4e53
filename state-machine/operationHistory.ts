// Where an operation enters the stack's history: LastOperations (newest first), the history row DescribeEvents reads
// (state and times), and the automatic rollback after a failed create, update or import, which AWS runs as an
// operation of its own, with its own OperationId, listed before the one it rolls back.
import { v4 as uuidv4 } from 'uuid';
import type { StackDoc, StackRecord, OperationStatus } from '../storage/index.js';
import type { OperationType, StackStatus } from './statuses.js';
import type { OperationContext } from './transitions.js';

export interface OperationEntry {
  OperationId: string;
  OperationType: OperationType;
}

/** The stack statuses an automatic rollback begins with, and the operations that roll back that way. */
const AUTOMATIC_ROLLBACK_STARTS = new Set<StackStatus>([
  'ROLLBACK_IN_PROGRESS',
  'UPDATE_ROLLBACK_IN_PROGRESS',
  'IMPORT_ROLLBACK_IN_PROGRESS',
]);
const ROLLED_BACK_KINDS = new Set<OperationType>(['CREATE_STACK', 'UPDATE_STACK']);
/** Operations whose success is a rollback's end (…_ROLLBACK_COMPLETE). */
const ROLLBACK_KINDS = new Set<string>(['ROLLBACK', 'CONTINUE_ROLLBACK']);

/** LastOperations, newest first (a database written before it was a list holds one entry). */
export function lastOperationsOf(doc: StackDoc): OperationEntry[] | undefined {
  return doc.lastOperations ?? (doc.lastOperation ? [doc.lastOperation] : undefined);
}

/** The operation the context's events belong to now: its own, or the automatic rollback it went on into. */
export const eventOperationId = (operation: OperationContext): string =>
  operation.eventOperationId ?? operation.operationId;

/** An operation starts: LastOperations names it alone, and its history row is IN_PROGRESS. */
export function beginOperation(
  operation: OperationContext,
  stack: StackRecord,
  kind: OperationType,
  startedAt: string,
) {
  stack.doc.lastOperations = [{ OperationId: operation.operationId, OperationType: kind }];
  stack.doc.lastOperation = undefined;
  operation.store.history.begin({
    operationId: operation.operationId,
    stackId: stack.stackId,
    kind,
    status: 'IN_PROGRESS',
    startedAt,
  });
}

/**
 * A restart resumes an operation under its own id; if it had gone on into its automatic rollback, the events it
 * writes from now on are the rollback's.
 */
export function resumeOperation(operation: OperationContext, stack: StackRecord): void {
  const newest = lastOperationsOf(stack.doc)?.at(0);
  if (newest?.OperationType === 'ROLLBACK' && newest.OperationId !== operation.operationId) {
    operation.eventOperationId = newest.OperationId;
  }
}

/**
 * A failed create, update or import that rolls back: the rollback is an operation of its own (OperationType
 * ROLLBACK), the failed one ends FAILED, and LastOperations lists the rollback first, as AWS's do.
 */
export function beginAutomaticRollback(
  operation: OperationContext,
  stack: StackRecord,
  to: StackStatus,
  at: string,
): void {
  if (!AUTOMATIC_ROLLBACK_STARTS.has(to)) return;
  const current = eventOperationId(operation);
  const newest = lastOperationsOf(stack.doc)?.at(0);
  if (!newest || newest.OperationId !== current || !ROLLED_BACK_KINDS.has(newest.OperationType)) return;
  const rollback: OperationEntry = { OperationId: uuidv4(), OperationType: 'ROLLBACK' };
  operation.store.history.end(current, 'FAILED', at);
  operation.store.history.begin({
    operationId: rollback.OperationId,
    stackId: stack.stackId,
    kind: 'ROLLBACK',
    status: 'IN_PROGRESS',
    startedAt: at,
    follows: current,
  });
  stack.doc.lastOperations = [rollback, newest];
  stack.doc.lastOperation = undefined;
  operation.eventOperationId = rollback.OperationId;
}

/** How an operation ended, from the status it left the stack in. */
export function outcomeOf(kind: string, status: StackStatus): Exclude<OperationStatus, 'IN_PROGRESS'> {
  const completes = status.endsWith('_COMPLETE') || status === 'REVIEW_IN_PROGRESS';
  return completes && (ROLLBACK_KINDS.has(kind) || !status.includes('ROLLBACK')) ? 'SUCCEEDED' : 'FAILED';
}

/** The end of a run: its operations still running (it, or the rollback it went on into) settle. */
export function endOperations(operation: OperationContext, stack: StackRecord, at: string): void {
  for (const id of new Set([operation.operationId, eventOperationId(operation)])) {
    const op = operation.store.history.byId(id);
    if (op?.status === 'IN_PROGRESS') operation.store.history.end(id, outcomeOf(op.kind, stack.status), at);
  }
}
