// After a restart, every stack left *_IN_PROGRESS is carried to the status AWS would reach: a create or update
// caught while its resources waited on signals or custom resource replies goes on (resumeWaits.ts); otherwise
// resources caught mid-action are failed ("cancelled"), creates and updates roll back, deletes and rollbacks resume.
import type { StackRecord } from '../storage/index.js';
import type { Engine, RunOptions } from './engine.js';
import { isInProgress, OPERATION_TYPES, type InProgressStatus, type OperationType } from './statuses.js';
import type { OperationRecord } from '../storage/journal.js';
import { setResourceStatus } from './transitions.js';
import { prepareStored } from './prepare.js';
import { REASONS } from './resourceActions.js';
import type { Runtime } from './runtime.js';
import { endOfExecution } from './nestedChangeSets.js';
import { CREATE_RUN } from './operations/create.js';
import { runDelete } from './operations/delete.js';
import { finishUpdate, UPDATE_RUN } from './operations/update.js';
import { IMPORT_RUN } from './operations/import.js';
import { runOperation, type RunRow } from './operations/run.js';
import { refactorRowOf } from './refactors/refactorRun.js';
import { lastOperationsOf } from './operationHistory.js';
import { resumesWaits, resumeWhenListening } from './resumeWaits.js';

type Resume = (rt: Runtime) => Promise<void>;

/**
 * An interrupted run of `row`'s kind: it goes on when every resource in flight was waiting on the outside world
 * (resumeWaits.ts), else those resources are cancelled and the row says where the stack goes (it rolls back).
 */
const resumeRun =
  (row: RunRow, cancelReason: string): Resume =>
  async (rt) => {
    if (resumesWaits(rt)) return resumeWhenListening(rt, () => runOperation(rt, row));
    await row.interrupted(rt, cancelInFlight(rt, row.action, cancelReason));
  };

/** How a restart carries each in-progress status to where AWS would take it. */
export const RESUME: Record<InProgressStatus, Resume> = {
  // a stack refactor's run is its own row (state-machine/refactors/refactorRun.ts)
  CREATE_IN_PROGRESS: (rt) => resumeRun(refactorRowOf(rt) ?? CREATE_RUN, REASONS.createCancelled)(rt),
  ROLLBACK_IN_PROGRESS: (rt) => CREATE_RUN.rollBack(rt),
  DELETE_IN_PROGRESS: (rt) => runDelete(rt, 'DELETE_FAILED'),
  UPDATE_IN_PROGRESS: (rt) => resumeRun(refactorRowOf(rt) ?? UPDATE_RUN, REASONS.updateCancelled)(rt),
  UPDATE_COMPLETE_CLEANUP_IN_PROGRESS: (rt) => finishUpdate(rt),
  UPDATE_ROLLBACK_IN_PROGRESS: (rt) => UPDATE_RUN.rollBack(rt),
  UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS: (rt) => UPDATE_RUN.rollBack(rt),
  IMPORT_IN_PROGRESS: resumeRun(IMPORT_RUN, REASONS.importCancelled),
  IMPORT_ROLLBACK_IN_PROGRESS: (rt) => IMPORT_RUN.rollBack(rt),
};

/** Marks resources caught in the middle of an action as failed; returns their logical ids. */
function cancelInFlight(rt: Runtime, action: RunRow['action'], reason: string): string[] {
  const cancelled: string[] = [];
  for (const r of rt.resources.values()) {
    if (!r.status.endsWith('_IN_PROGRESS')) continue;
    setResourceStatus(rt, r, r.status.startsWith('DELETE') ? 'Delete' : action, 'failed', { reason });
    cancelled.push(r.logicalId);
  }
  // the requests of cancelled custom resources take no late reply, and no later action takes them over
  rt.env?.signals.abandon(rt.stack.stackId, 'cancelled');
  return cancelled;
}

export function recoverInterruptedOperations(engine: Engine): void {
  const { store } = engine.deps;
  const interrupted = new Map<string, OperationRecord>();
  for (const op of store.journal.running()) {
    interrupted.set(op.stackId, op);
    store.journal.endOperation(op.operationId);
  }
  for (const stack of store.stacks.inProgress()) resume(engine, stack, interrupted.get(stack.stackId));
}

/** The interrupted operation goes on under its own id and kind, so LastOperations still names it. */
function resume(engine: Engine, stack: StackRecord, op: OperationRecord | undefined): void {
  const { store } = engine.deps;
  const { status } = stack;
  if (!isInProgress(status)) return;
  const run = RESUME[status];
  let template;
  try {
    template = prepareStored(store, stack, stack.templateId, stack.doc.parameters);
  } catch {
    template = prepareStored(
      store,
      stack,
      stack.doc.previous?.templateId ?? stack.templateId,
      stack.doc.previous?.parameters ?? [],
    );
  }
  const last =
    lastOperationsOf(stack.doc)?.find((o) => o.OperationId === op?.operationId) ?? lastOperationsOf(stack.doc)?.at(-1);
  const kind =
    kindOf(op?.kind) ??
    kindOf(last?.OperationType) ??
    (status.startsWith('DELETE') ? 'DELETE_STACK' : status.startsWith('CREATE') ? 'CREATE_STACK' : 'UPDATE_STACK');
  const operationId = op?.operationId ?? last?.OperationId;
  const token = typeof op?.doc.token === 'string' ? op.doc.token : undefined;
  const operation = engine.operationContext(token, operationId);
  // an execution of a change set ends with its operation, in this process as it would have in the first
  const onEnd = stack.doc.changeSetId ? endOfExecution(engine, stack.doc.changeSetId) : undefined;
  const options = op?.doc.options as RunOptions | undefined;
  engine.startOperation(kind, {
    operation: operation,
    stack,
    template,
    resumes: true,
    startedAt: op?.startedAt,
    options,
    onFailure: stack.doc.onFailure,
    run,
    onEnd,
  });
}

/** Databases written before operations were named by AWS's OperationType held other kinds: those are not kept. */
const kindOf = (kind: string | undefined): OperationType | undefined =>
  OPERATION_TYPES.includes(kind as OperationType) ? (kind as OperationType) : undefined;
