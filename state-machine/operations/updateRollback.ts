// The rollback of a failed update, also what ContinueUpdateRollback resumes: revert updated resources and
// repoint replaced ones to their old physical ids, then UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS deletes
// what the update created. Idempotent: what is already reverted or deleted is not touched again.
import type { ResourceRecord } from '../../storage/index.js';
import { providerFor } from '../../resources/registry.js';
import { runPlan } from '../scheduler.js';
import { setResourceStatus } from '../transitions.js';
import { prepareStored } from '../prepare.js';
import type { Runtime } from '../runtime.js';
import { request } from '../providerCalls.js';
import type { DeleteTarget } from '../resourceDelete.js';
import { stagedWorld } from '../../resources/stagedWorld.js';
import { deleteInOrder, failedToDelete } from './deletePlan.js';
import { publishOutputs } from './outputs.js';
import { guarded } from '../guard.js';
import { reachOutcome } from '../outcomes.js';

const failedToRollBack = (ids: Iterable<string>) =>
  `The following resource(s) failed to update: [${[...ids].sort().join(', ')}]. `;

export async function rollbackUpdate(rt: Runtime): Promise<void> {
  const previous = rt.stack.doc.previous!;
  rt.template = prepareStored(rt.store, rt.stack, previous.templateId, previous.parameters);
  if (rt.stack.status !== 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS') {
    const reverted = await revertAll(rt);
    if (!reverted) return;
    reachOutcome(rt, 'UPDATE', 'rollbackCleanupInProgress');
  }
  const failed = await deleteWhatTheUpdateMade(rt, previous.operationId);
  if (failed.length) {
    reachOutcome(rt, 'UPDATE', 'rollbackFailed', failedToDelete(failed));
    return;
  }
  rt.stack.templateId = previous.templateId;
  rt.stack.doc.parameters = previous.parameters;
  rt.stack.doc.description = previous.description;
  rt.stack.doc.previous = undefined;
  publishOutputs(rt, previous.outputs);
  reachOutcome(rt, 'UPDATE', 'rollbackComplete');
}

/** Phase one: every resource the update touched goes back, in the previous template's dependency order. */
async function revertAll(rt: Runtime): Promise<boolean> {
  const { graph } = rt.template;
  const toRevert = new Set(
    [...rt.resources.values()].filter((r) => r.doc.before && graph.order.includes(r.logicalId)).map((r) => r.logicalId),
  );
  const outcome = await runPlan({
    order: graph.order.filter((id) => toRevert.has(id)),
    waitsOn: (id) => graph.dependsOn.get(id)!,
    run: (id) =>
      guarded(
        rt,
        () => rt.resources.get(id),
        () => revert(rt, rt.resources.get(id)!),
      ),
    stopOnFailure: false,
  });
  if (outcome.failed.size) {
    reachOutcome(rt, 'UPDATE', 'rollbackFailed', failedToRollBack(outcome.failed));
    return false;
  }
  return true;
}

/** Puts one resource back as it was before the update: repoint a replacement, or update it back in place. */
async function revert(rt: Runtime, r: ResourceRecord): Promise<boolean> {
  const before = r.doc.before!;
  const replacedHere = r.doc.replaced && r.physicalId !== before.physicalId;
  if (replacedHere) r.doc.newCopy = { physicalId: r.physicalId!, properties: r.doc.properties };
  r.physicalId = before.physicalId;
  r.doc.properties = before.properties;
  setResourceStatus(rt, r, 'RollbackUpdate', 'start');
  const req = {
    ...request(rt, r, before.properties ?? {}),
    rollingBack: true,
    resourcesToSkip: rt.options.nestedSkips?.[r.logicalId],
  };
  // the revert runs under the previous template: its Metadata (faults included) is what applies
  const fault = rt.faults.check('Update', {
    stackId: rt.stack.stackId,
    stackName: rt.stack.name,
    logicalId: r.logicalId,
    type: r.type,
    metadata: rt.template.model.resources.get(r.logicalId)?.metadata,
    requestToken: req.requestToken,
  });
  const world = stagedWorld(rt.world);
  const result = fault.failure
    ? { ok: false as const, reason: fault.failure.reason }
    : await providerFor(r.type).update(world, req);
  if (!result.ok) {
    setResourceStatus(rt, r, 'RollbackUpdate', 'failed', { reason: result.reason });
    return false;
  }
  r.doc.attributes = before.attributes;
  r.doc.ref = before.ref;
  r.doc.before = undefined;
  r.doc.replaced = undefined;
  setResourceStatus(rt, r, 'RollbackUpdate', 'complete', { alongside: () => world.commit() });
  return true;
}

/** Cleanup: resources the failed update added, and the new copies of replacements, are deleted. */
async function deleteWhatTheUpdateMade(rt: Runtime, updateOperationId: string): Promise<string[]> {
  // what the previous template does not have was added by the update
  const added = [...rt.resources.values()].filter((r) => !rt.template.active.has(r.logicalId));
  const copies: DeleteTarget[] = [...rt.resources.values()]
    .filter((r) => r.doc.newCopy)
    .map((r) => ({ record: r, physicalId: r.doc.newCopy!.physicalId, properties: r.doc.newCopy!.properties }));
  rt.rollbackOf = updateOperationId;
  const addedOutcome = await deleteInOrder(
    rt,
    added.map((record) => ({ record })),
    'rollback-cleanup',
  );
  const copiesOutcome = await deleteInOrder(rt, copies, 'replaced-copy');
  const failedAdded = new Set(addedOutcome.failed);
  const failedCopies = new Set(copiesOutcome.failed);
  rt.store.transaction(() => {
    for (const r of added) {
      if (failedAdded.has(r.logicalId)) continue;
      rt.resources.delete(r.logicalId);
      rt.store.resources.remove(r.stackId, r.logicalId);
    }
    for (const r of rt.resources.values()) {
      if (!r.doc.newCopy || failedCopies.has(r.logicalId)) continue;
      r.doc.newCopy = undefined;
      rt.store.resources.save(r);
    }
  });
  return [...addedOutcome.failed, ...copiesOutcome.failed];
}
