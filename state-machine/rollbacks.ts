// The rollback controls: RollbackStack (a stack kept in CREATE_FAILED / UPDATE_FAILED), ContinueUpdateRollback
// (UPDATE_ROLLBACK_FAILED, with ResourcesToSkip) and CancelUpdateStack (UPDATE_IN_PROGRESS).
import { validationError } from '../domain/errors.js';
import type { StackRecord } from '../storage/index.js';
import { canStart, type StackStatus } from './statuses.js';
import { setResourceStatus, setStackStatus } from './transitions.js';
import { prepareStored } from './prepare.js';
import { Engine } from './engine.js';
import { rollbackCreated } from './operations/create.js';
import { rollbackUpdate } from './operations/updateRollback.js';

interface RollbackInput {
  RetainExceptOnCreate?: boolean;
  ClientRequestToken?: string;
  ResourcesToSkip?: string[];
}

function runtimeFor(engine: Engine, stack: StackRecord, input: RollbackInput) {
  const { store } = engine.deps;
  const resources = new Map(store.resources.byStack(stack.stackId).map((r) => [r.logicalId, r]));
  const template = prepareStored(store, stack, stack.templateId, stack.doc.parameters);
  return engine.runtime(engine.scope(input.ClientRequestToken), stack, template, resources, {
    RetainExceptOnCreate: input.RetainExceptOnCreate,
  });
}

/** From CREATE_FAILED: roll the create back (ROLLBACK_COMPLETE); from UPDATE_FAILED: roll the update back. */
export function rollbackStack(engine: Engine, stack: StackRecord, input: RollbackInput): void {
  if (!canStart('RollbackStack', stack.status as StackStatus)) {
    throw validationError(`Stack ${stack.stackId} is in ${stack.status} state and can not be rolled back.`);
  }
  const rt = runtimeFor(engine, stack, input);
  if (stack.status === 'CREATE_FAILED') {
    // the resources the kept create made count as created by the operation being rolled back
    rt.rollbackOf = [...rt.resources.values()][0]?.doc.createdBy;
    setStackStatus(rt, stack, 'ROLLBACK_IN_PROGRESS', 'User Initiated');
    engine.launch(rt, 'ROLLBACK_STACK', async () => void (await rollbackCreated(rt)));
    return;
  }
  setStackStatus(rt, stack, 'UPDATE_ROLLBACK_IN_PROGRESS', 'User Initiated');
  engine.launch(rt, 'ROLLBACK_STACK', () => rollbackUpdate(rt));
}

/** Resumes a failed update rollback; resources named in ResourcesToSkip are marked UPDATE_COMPLETE and left as they are. */
export function continueUpdateRollback(engine: Engine, stack: StackRecord, input: RollbackInput): void {
  if (stack.status !== 'UPDATE_ROLLBACK_FAILED') {
    throw validationError(`Stack ${stack.stackId} is in ${stack.status} state and can not continue update rollback.`);
  }
  const rt = runtimeFor(engine, stack, input);
  const given = input.ResourcesToSkip ?? [];
  for (const id of given) checkSkippable(engine, rt.resources, id, stack);
  const skip = given.filter((id) => !id.includes('.'));
  rt.options.nestedSkips = nestedSkips(given);
  setStackStatus(rt, stack, 'UPDATE_ROLLBACK_IN_PROGRESS', 'User Initiated');
  for (const id of skip) {
    const r = rt.resources.get(id)!;
    if (r.doc.newCopy) r.doc.newCopy = undefined;
    r.doc.before = undefined;
    r.doc.replaced = undefined;
    // a skipped resource that the update added leaves the stack but stays in the account
    const added = !prepareStored(rt.store, stack, stack.doc.previous!.templateId, stack.doc.previous!.parameters).active.has(id);
    setResourceStatus(rt, r, 'UPDATE_COMPLETE', { reason: 'Resource skipped during continue update rollback', removeRow: added });
    if (added) rt.resources.delete(id);
  }
  engine.launch(rt, 'CONTINUE_UPDATE_ROLLBACK', () => rollbackUpdate(rt));
}

/** `Nested.Logical` skips grouped by the nested stack's logical id, each keeping the rest of its path. */
function nestedSkips(given: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const id of given) {
    const dot = id.indexOf('.');
    if (dot > 0) (out[id.slice(0, dot)] ??= []).push(id.slice(dot + 1));
  }
  return out;
}

/**
 * Only resources whose rollback failed may be skipped; `Nested.Logical` names a resource of a nested stack (AWS's
 * form for skipping inside the tree from the root), checked in the child the same way.
 */
function checkSkippable(engine: Engine, resources: Map<string, { status: string; type: string; physicalId?: string }>, id: string, stack: StackRecord): void {
  const dot = id.indexOf('.');
  if (dot > 0) {
    const parent = resources.get(id.slice(0, dot));
    const child = parent?.type === 'AWS::CloudFormation::Stack' && parent.physicalId ? engine.deps.store.stacks.byId(parent.physicalId) : undefined;
    if (!child) throw validationError(`Nested stack resource ${id.slice(0, dot)} does not exist in stack ${stack.name}`);
    const childResources = new Map(engine.deps.store.resources.byStack(child.stackId).map((r) => [r.logicalId, r]));
    checkSkippable(engine, childResources, id.slice(dot + 1), child);
    return;
  }
  const r = resources.get(id);
  if (!r) throw validationError(`Resource ${id} does not exist for stack ${stack.name}`);
  if (r.status !== 'UPDATE_FAILED' && r.status !== 'DELETE_FAILED') {
    throw validationError(`Resource ${id} is in ${r.status} state and can not be skipped. Only resources in UPDATE_FAILED state can be skipped.`);
  }
}

/** Stops a running update: in-flight resources are cancelled and the update rolls back. */
export function cancelUpdateStack(engine: Engine, stack: StackRecord): void {
  const rt = engine.running.get(stack.stackId);
  if (stack.status !== 'UPDATE_IN_PROGRESS' || !rt) {
    throw validationError('CancelUpdateStack cannot be called from current stack status');
  }
  rt.stopReason = 'cancelled';
  rt.stop.abort();
}
