// CONTINUE_ROLLBACK: ContinueUpdateRollback resumes a failed update rollback (UPDATE_ROLLBACK_FAILED); resources named
// in ResourcesToSkip are marked UPDATE_COMPLETE and left as they are.
import type { StackRecord } from '../../storage/index.js';
import { validationError } from '../../domain/errors.js';
import { checkStart } from '../statuses.js';
import { setResourceStatus } from '../transitions.js';
import { prepareStored } from '../prepare.js';
import type { Engine } from '../engine.js';
import type { Runtime } from '../runtime.js';
import { rollbackUpdate } from './updateRollback.js';

export interface ContinueRollbackInput {
  ClientRequestToken?: string;
  ResourcesToSkip?: string[];
}

export function continueUpdateRollback(engine: Engine, stack: StackRecord, input: ContinueRollbackInput): void {
  checkStart('ContinueUpdateRollback', stack);
  const { store } = engine.deps;
  const resources = new Map(store.resources.byStack(stack.stackId).map((r) => [r.logicalId, r]));
  const template = prepareStored(store, stack, stack.templateId, stack.doc.parameters);
  const given = input.ResourcesToSkip ?? [];
  for (const id of given) checkSkippable(engine, resources, id, stack);
  const skip = given.filter((id) => !id.includes('.'));
  engine.startOperation('CONTINUE_ROLLBACK', {
    operation: engine.operationContext(input.ClientRequestToken),
    stack,
    template,
    resources,
    first: 'UPDATE_ROLLBACK_IN_PROGRESS',
    begin: (rt) => {
      rt.options.nestedSkips = nestedSkips(given);
      skipAll(rt, skip);
    },
    run: rollbackUpdate,
  });
}

function skipAll(rt: Runtime, skip: string[]): void {
  const { stack } = rt;
  for (const id of skip) {
    const r = rt.resources.get(id)!;
    if (r.doc.newCopy) r.doc.newCopy = undefined;
    r.doc.before = undefined;
    r.doc.replaced = undefined;
    // a skipped resource that the update added leaves the stack but stays in the account
    const added = !prepareStored(
      rt.store,
      stack,
      stack.doc.previous!.templateId,
      stack.doc.previous!.parameters,
    ).active.has(id);
    setResourceStatus(rt, r, 'RollbackSkip', 'complete', {
      reason: 'Resource skipped during continue update rollback',
      removeRow: added,
    });
    if (added) rt.resources.delete(id);
  }
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
function checkSkippable(
  engine: Engine,
  resources: Map<string, { status: string; type: string; physicalId?: string }>,
  id: string,
  stack: StackRecord,
): void {
  const dot = id.indexOf('.');
  if (dot > 0) {
    const parent = resources.get(id.slice(0, dot));
    const { store } = engine.deps;
    const child =
      parent?.type === 'AWS::CloudFormation::Stack' && parent.physicalId
        ? store.stacks.byId(parent.physicalId)
        : undefined;
    if (!child)
      throw validationError(`Nested stack resource ${id.slice(0, dot)} does not exist in stack ${stack.name}`);
    const childResources = new Map(store.resources.byStack(child.stackId).map((r) => [r.logicalId, r]));
    checkSkippable(engine, childResources, id.slice(dot + 1), child);
    return;
  }
  const r = resources.get(id);
  if (!r) throw validationError(`Resource ${id} does not exist for stack ${stack.name}`);
  if (r.status !== 'UPDATE_FAILED' && r.status !== 'DELETE_FAILED') {
    throw validationError(
      `Resource ${id} is in ${r.status} state and can not be skipped. Only resources in UPDATE_FAILED state can be skipped.`,
    );
  }
}
