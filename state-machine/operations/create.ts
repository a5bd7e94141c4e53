// CreateStack's run: resources in dependency order; on a failure, cancel what is in flight and roll back
// (ROLLBACK_IN_PROGRESS → ROLLBACK_COMPLETE | ROLLBACK_FAILED), or keep CREATE_FAILED when rollback is disabled.
import { runPlan } from '../scheduler.js';
import { createResource } from '../resourceActions.js';
import { setStackStatus } from '../transitions.js';
import type { Runtime } from '../runtime.js';
import { evaluateOutputs, publishOutputs } from './outputs.js';
import { deleteInOrder, failedToDelete, standing } from './deletePlan.js';
import { checkAttributes } from './attributes.js';

export const failedToCreate = (ids: Iterable<string>) => `The following resource(s) failed to create: [${[...ids].sort().join(', ')}]. `;
const ROLLBACK_REQUESTED = 'Rollback requested by user.';

export async function runCreate(rt: Runtime, onFailure: 'ROLLBACK' | 'DELETE' | 'DO_NOTHING'): Promise<void> {
  if (rt.template.failure) return failCreate(rt, `${rt.template.failure}. `, onFailure);
  const attributeError = checkAttributes(rt);
  if (attributeError) return failCreate(rt, `${attributeError}. `, onFailure);
  const { graph } = rt.template;
  const outcome = await runPlan({
    order: graph.order,
    waitsOn: (id) => graph.dependsOn.get(id)!,
    run: (id, signal) => createResource(rt, id, signal),
    stopOnFailure: true,
    stop: rt.stop.signal,
  });
  // AWS's reason when TimeoutInMinutes runs out during a create
  if (rt.stopReason === 'timed-out') return failCreate(rt, 'Stack creation time exceeded the specified timeout. ', onFailure);
  if (outcome.failed.size) return failCreate(rt, failedToCreate(outcome.failed), onFailure);
  try {
    publishOutputs(rt, evaluateOutputs(rt));
  } catch (err) {
    return failCreate(rt, `${(err as Error).message}. `, onFailure);
  }
  setStackStatus(rt, rt.stack, 'CREATE_COMPLETE');
}

async function failCreate(rt: Runtime, reason: string, onFailure: 'ROLLBACK' | 'DELETE' | 'DO_NOTHING') {
  if (rt.options.disableRollback || onFailure === 'DO_NOTHING') {
    setStackStatus(rt, rt.stack, 'CREATE_FAILED', reason);
    return;
  }
  setStackStatus(rt, rt.stack, 'ROLLBACK_IN_PROGRESS', reason + ROLLBACK_REQUESTED);
  const rolledBack = await rollbackCreated(rt);
  if (!rolledBack) return;
  if (onFailure === 'DELETE') {
    setStackStatus(rt, rt.stack, 'DELETE_IN_PROGRESS');
    setStackStatus(rt, rt.stack, 'DELETE_COMPLETE');
  }
}

/** Deletes what the create made; ROLLBACK_COMPLETE, or ROLLBACK_FAILED listing what could not be deleted. */
export async function rollbackCreated(rt: Runtime): Promise<boolean> {
  const targets = standing(rt.resources.values()).map((record) => ({ record }));
  const { failed } = await deleteInOrder(rt, targets, 'rollback');
  if (failed.length) {
    setStackStatus(rt, rt.stack, 'ROLLBACK_FAILED', failedToDelete(failed));
    return false;
  }
  rt.store.exports.removeByStack(rt.stack.stackId);
  setStackStatus(rt, rt.stack, 'ROLLBACK_COMPLETE');
  return true;
}
