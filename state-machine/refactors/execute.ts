// ExecuteStackRefactor: EXECUTE_IN_PROGRESS, then each stack the refactor names runs an operation through the
// engine's one door (UPDATE_STACK, or CREATE_STACK for a stack EnableStackCreation makes): what moves out of it
// leaves its resources (DELETE_SKIPPED, the resource stays), what moves in is taken over (IMPORT_IN_PROGRESS →
// IMPORT_COMPLETE, the account's resource changing owner and nothing else), its outputs and exports are published.
// Then EXECUTE_COMPLETE. Nothing in a run waits, so the whole execution commits as one unit: a crash leaves every
// stack as it was before or as it is after.
import type { ResourceRecord, StackRefactorRecord } from '../../storage/index.js';
import type { Engine } from '../engine.js';
import type { Runtime } from '../runtime.js';
import { setResourceStatus } from '../transitions.js';
import { RESOURCE_PHASES, checkRefactorExecutable } from '../statuses.js';
import { applyPolicies } from '../resourceActions.js';
import { markObsolete } from '../changeSetStatus.js';
import { describeTemplate } from '../stackRecords.js';
import { reachOutcome } from '../outcomes.js';
import { evaluateOutputs, publishOutputs } from '../operations/outputs.js';
import { isObsolete, setRefactorStatus } from '../refactorStatus.js';
import { validateRefactor } from './validate.js';
import type { RefactoredStack } from './context.js';
import type { Match } from './match.js';

/** What one stack's run does: the resources that leave it and those it takes over. */
interface StackPart {
  at: RefactoredStack;
  body: string;
  out: Match[];
  in: Match[];
  imports: string[];
}

export function executeRefactor(engine: Engine, r: StackRefactorRecord): void {
  const { store } = engine.deps;
  if (isObsolete(store, r)) r = setRefactorStatus(store, r, { executionStatus: 'OBSOLETE' });
  checkRefactorExecutable(r);
  const checked = validateRefactor(store, r);
  if ('failure' in checked) {
    // the stacks changed in a way their last update did not record (a deleted resource row): nothing is touched
    setRefactorStatus(store, r, { executionStatus: 'EXECUTE_IN_PROGRESS' });
    setRefactorStatus(store, store.refactors.byId(r.id)!, {
      executionStatus: 'EXECUTE_FAILED',
      executionStatusReason: checked.failure,
    });
    return;
  }
  const running = setRefactorStatus(store, r, { executionStatus: 'EXECUTE_IN_PROGRESS' });
  const moves = checked.matches.filter((m) => m.moves);
  const parts: StackPart[] = checked.view.stacks.map((at, i) => ({
    at,
    body: r.stacks[i].body,
    out: moves.filter((m) => m.from === at),
    in: moves.filter((m) => m.to === at),
    imports: checked.plan.stacks[i].imports,
  }));
  for (const part of parts) startPart(engine, part);
  void settleExecution(engine, running, parts);
}

/** One stack's operation, through the engine's door. */
function startPart(engine: Engine, part: StackPart): void {
  const { store, clock } = engine.deps;
  const { stack, template } = part.at;
  const scope = engine.scope();
  const run = (rt: Runtime) => runPart(rt, part);
  describeTemplate(stack, template);
  if (part.at.isNew) {
    // the id was chosen when the refactor was created; the stack begins now
    Object.assign(stack, { createdAt: clock.now().toISOString() });
    engine.startOperation('CREATE_STACK', { scope, stack, template, resources: new Map(), insertBody: part.body, run });
    return;
  }
  stack.templateId = store.templates.insert(stack.stackId, part.body, clock.now().toISOString());
  markObsolete(store, stack.stackId);
  engine.startOperation('UPDATE_STACK', { scope, stack, template, first: 'UPDATE_IN_PROGRESS', run });
}

async function runPart(rt: Runtime, part: StackPart): Promise<void> {
  for (const m of part.out) {
    const r = rt.resources.get(m.source.logicalId);
    if (!r) continue;
    setResourceStatus(rt, r, 'Skip', 'complete', { removeRow: true });
    rt.resources.delete(r.logicalId);
  }
  for (const m of part.in) takeOver(rt, m.source, m.logicalId);
  for (const name of part.imports) rt.imports.add(name);
  publishOutputs(rt, evaluateOutputs(rt, false));
  reachOutcome(rt, part.at.isNew ? 'REFACTOR_NEW_STACK' : 'REFACTOR', 'complete');
}

/** IMPORT_IN_PROGRESS → IMPORT_COMPLETE under its new logical id: the same physical resource, a new owner. */
function takeOver(rt: Runtime, source: ResourceRecord, logicalId: string): void {
  const def = rt.template.model.resources.get(logicalId)!;
  const r: ResourceRecord = {
    ...source,
    stackId: rt.stack.stackId,
    logicalId,
    status: RESOURCE_PHASES.Import.start,
    statusReason: undefined,
    updatedAt: rt.clock.now().toISOString(),
    ord: def.ord,
    doc: { ...source.doc, before: undefined, replaced: undefined, newCopy: undefined },
  };
  applyPolicies(rt, r);
  rt.resources.set(logicalId, r);
  setResourceStatus(rt, r, 'Import', 'start');
  const found = r.physicalId ? rt.world.get(r.type, r.physicalId) : undefined;
  setResourceStatus(rt, r, 'Import', 'complete', {
    alongside: () => found && rt.world.put({ ...found, stackId: rt.stack.stackId, logicalId }),
  });
}

/** EXECUTE_COMPLETE once every stack completed; EXECUTE_FAILED naming those that did not. */
async function settleExecution(engine: Engine, r: StackRefactorRecord, parts: StackPart[]): Promise<void> {
  const settled = await Promise.all(parts.map((p) => engine.settled(p.at.stack.stackId)));
  const failed = settled.filter((s) => !s || !s.status.endsWith('_COMPLETE') || s.status.includes('ROLLBACK'));
  const { store } = engine.deps;
  const now = store.refactors.byId(r.id) ?? r;
  if (!failed.length) setRefactorStatus(store, now, { executionStatus: 'EXECUTE_COMPLETE' });
  else {
    setRefactorStatus(store, now, {
      executionStatus: 'EXECUTE_FAILED',
      executionStatusReason: `Stack refactor failed for stacks [${failed.map((s) => s?.name).join(', ')}].`,
    });
  }
}
