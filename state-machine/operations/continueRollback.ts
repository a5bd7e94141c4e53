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
  const skip = input.ResourcesToSkip ?? [];
  for (const id of skip) checkSkippable(resources, id, stack);
  engine.startOperation('CONTINUE_ROLLBACK', {
    scope: engine.scope(input.ClientRequestToken), stack, template, resources, first: 'UPDATE_ROLLBACK_IN_PROGRESS',
    begin: (rt) => skipAll(rt, skip),
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
    const added = !prepareStored(rt.store, stack, stack.doc.previous!.templateId, stack.doc.previous!.parameters).active.has(id);
    setResourceStatus(rt, r, 'RollbackSkip', 'complete', { reason: 'Resource skipped during continue update rollback', removeRow: added });
    if (added) rt.resources.delete(id);
  }
}

/** Only resources whose rollback failed may be skipped; `Nested.Logical` names a resource of a nested stack. */
function checkSkippable(resources: Map<string, { status: string; type: string }>, id: string, stack: StackRecord): void {
  if (id.includes('.')) {
    const [parent] = id.split('.');
    if (resources.get(parent)?.type !== 'AWS::CloudFormation::Stack') {
      throw validationError(`Nested stack resource ${parent} does not exist in stack ${stack.name}`);
    }
    throw validationError(`Nested stack resource ${id} is not in a state that can be skipped`);
  }
  const r = resources.get(id);
  if (!r) throw validationError(`Resource ${id} does not exist for stack ${stack.name}`);
  if (r.status !== 'UPDATE_FAILED' && r.status !== 'DELETE_FAILED') {
    throw validationError(`Resource ${id} is in ${r.status} state and can not be skipped. Only resources in UPDATE_FAILED state can be skipped.`);
  }
}
