// ExecuteStackRefactor: EXECUTE_IN_PROGRESS, then each stack the refactor names runs an operation through the
// engine's one door (UPDATE_STACK, or CREATE_STACK for a stack EnableStackCreation makes) with the refactor's row of
// the run skeleton (refactorRun.ts). Once every stack has completed, EXECUTE_COMPLETE.
import type { StackRefactorRecord } from '../../storage/index.js';
import type { Engine } from '../engine.js';
import { checkRefactorExecutable } from '../statuses.js';
import { markObsolete } from '../changeSetStatus.js';
import { describeTemplate } from '../stackRecords.js';
import { runOperation } from '../operations/run.js';
import { isObsolete, setRefactorStatus } from '../refactorStatus.js';
import { validateRefactor } from './validate.js';
import { REFACTOR_NEW_STACK_RUN, REFACTOR_RUN } from './refactorRun.js';
import type { RefactoredStack } from './context.js';

export function executeRefactor(engine: Engine, r: StackRefactorRecord): void {
  const { store } = engine.deps;
  if (isObsolete(store, r)) r = setRefactorStatus(store, r, { executionStatus: 'OBSOLETE' });
  checkRefactorExecutable(r);
  const checked = validateRefactor(store, r);
  if ('failure' in checked) {
    // the stacks changed in a way their last update did not record: nothing is touched
    const running = setRefactorStatus(store, r, { executionStatus: 'EXECUTE_IN_PROGRESS' });
    setRefactorStatus(store, running, { executionStatus: 'EXECUTE_FAILED', executionStatusReason: checked.failure });
    return;
  }
  // each move keeps the resource as it is now: its new stack takes it over even once the old one has let it go
  const moves = checked.matches
    .filter((m) => m.moves)
    .map((m) => ({
      from: { stackId: m.source.stackId, logicalId: m.source.logicalId },
      to: { stackId: m.to.stack.stackId, logicalId: m.logicalId },
      resource: m.source,
    }));
  const running = setRefactorStatus(store, r, {
    executionStatus: 'EXECUTE_IN_PROGRESS',
    plan: { ...checked.plan, moves },
  });
  checked.view.stacks.forEach((at, i) => startStack(engine, running, at, r.stacks[i].body));
  void finishWhenStacksIdle(engine, running);
}

/** One stack's operation, through the engine's door. */
function startStack(engine: Engine, r: StackRefactorRecord, at: RefactoredStack, body: string): void {
  const { store, clock } = engine.deps;
  const { stack, template } = at;
  const operation = engine.operationContext();
  describeTemplate(stack, template);
  stack.doc.refactorId = r.id;
  if (at.isNew) {
    // the id was chosen when the refactor was created; the stack begins now
    Object.assign(stack, { createdAt: clock.now().toISOString() });
    engine.startOperation('CREATE_STACK', {
      operation,
      stack,
      template,
      resources: new Map(),
      insertBody: body,
      run: (rt) => runOperation(rt, REFACTOR_NEW_STACK_RUN),
    });
    return;
  }
  stack.templateId = store.templates.insert(stack.stackId, body, clock.now().toISOString());
  markObsolete(store, stack.stackId);
  engine.startOperation('UPDATE_STACK', {
    operation,
    stack,
    template,
    first: 'UPDATE_IN_PROGRESS',
    run: (rt) => runOperation(rt, REFACTOR_RUN),
  });
}

/** EXECUTE_COMPLETE once every stack completed; EXECUTE_FAILED naming those that did not. */
export async function finishWhenStacksIdle(engine: Engine, r: StackRefactorRecord): Promise<void> {
  const idle = await Promise.all(r.stacks.map((s) => engine.stackWhenIdle(s.stackId)));
  const failed = idle.filter((s) => !s || !s.status.endsWith('_COMPLETE') || s.status.includes('ROLLBACK'));
  const { store } = engine.deps;
  const now = store.refactors.byId(r.id) ?? r;
  if (now.executionStatus !== 'EXECUTE_IN_PROGRESS') return;
  if (!failed.length) setRefactorStatus(store, now, { executionStatus: 'EXECUTE_COMPLETE' });
  else {
    setRefactorStatus(store, now, {
      executionStatus: 'EXECUTE_FAILED',
      executionStatusReason: `Stack refactor failed for stacks [${failed.map((s) => s?.name).join(', ')}].`,
    });
  }
}
