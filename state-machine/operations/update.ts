// UpdateStack's run: add, update in place or replace in dependency order; then UPDATE_COMPLETE_CLEANUP_IN_PROGRESS
// deletes what was removed and the old copies of replacements. A failure rolls the update back
// (UPDATE_ROLLBACK_IN_PROGRESS → UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS → UPDATE_ROLLBACK_COMPLETE).
import type { ResourceRecord } from '../../storage/index.js';
import { runPlan } from '../scheduler.js';
import { createResource, updateResource } from '../resourceActions.js';
import type { DeleteTarget } from '../resourceDelete.js';
import { setStackStatus } from '../transitions.js';
import type { Runtime } from '../runtime.js';
import { evaluateOutputs, exportsInUse, publishOutputs } from './outputs.js';
import { deleteInOrder } from './deletePlan.js';
import { checkAttributes } from './attributes.js';
import { failedToCreate } from './create.js';
import { rollbackUpdate } from './updateRollback.js';
import { policyRefusal } from '../stackPolicy.js';
import { guarded } from '../guard.js';

export const failedToUpdate = (ids: Iterable<string>) => `The following resource(s) failed to update: [${[...ids].sort().join(', ')}]. `;
const UPDATE_CLEANUP_FAILED = 'Update successful. One or more resources could not be deleted.';

export async function runUpdate(rt: Runtime): Promise<void> {
  const attributeError = checkAttributes(rt);
  if (attributeError) return failUpdate(rt, `${attributeError}. `);
  const refusal = removalRefused(rt);
  if (refusal) return failUpdate(rt, `${refusal}. `);
  const { graph } = rt.template;
  const existing = new Set([...rt.resources.values()].filter((r) => r.physicalId || r.status !== 'CREATE_FAILED').map((r) => r.logicalId));
  const outcome = await runPlan({
    order: graph.order,
    waitsOn: (id) => graph.dependsOn.get(id)!,
    run: (id, signal) => guarded(rt, () => rt.resources.get(id), () => (existing.has(id) ? updateResource(rt, id, signal) : createResource(rt, id, signal))),
    stopOnFailure: true,
    stop: rt.stop.signal,
  });
  if (rt.stopReason) return failUpdate(rt, rt.stopReason === 'cancelled' ? 'Stack update cancelled' : 'Stack update time exceeded the specified timeout. ');
  if (outcome.failed.size) {
    const created = [...outcome.failed].filter((id) => !existing.has(id));
    return failUpdate(rt, created.length === outcome.failed.size ? failedToCreate(outcome.failed) : failedToUpdate(outcome.failed));
  }
  let outputs;
  try {
    outputs = evaluateOutputs(rt);
    const inUse = exportsInUse(rt, new Set(outputs.filter((o) => o.ExportName).map((o) => o.ExportName!)));
    if (inUse) throw new Error(inUse);
  } catch (err) {
    return failUpdate(rt, `${(err as Error).message}. `);
  }
  publishOutputs(rt, outputs);
  setStackStatus(rt, rt.stack, 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
  await finishUpdate(rt);
}

/** The cleanup phase and the end of a successful update (also what recovery resumes). */
export async function finishUpdate(rt: Runtime): Promise<void> {
  const failed = await cleanUp(rt);
  rt.stack.doc.previous = undefined;
  setStackStatus(rt, rt.stack, 'UPDATE_COMPLETE', failed.length ? UPDATE_CLEANUP_FAILED : undefined);
}

/** A stack policy may forbid Update:Delete of a resource the new template drops. */
function removalRefused(rt: Runtime): string | undefined {
  const policy = rt.stack.doc.duringUpdatePolicyBody ?? rt.stack.doc.stackPolicyBody;
  for (const r of rt.resources.values()) {
    if (rt.template.active.has(r.logicalId)) continue;
    const refusal = policyRefusal(policy, r.logicalId, r.type, 'Delete');
    if (refusal) return refusal;
  }
  return undefined;
}

/** Deletes resources removed from the template and old copies of replaced ones; failures leave the stack. */
async function cleanUp(rt: Runtime): Promise<string[]> {
  const removed = [...rt.resources.values()].filter((r) => !rt.template.active.has(r.logicalId));
  const replaced: DeleteTarget[] = [...rt.resources.values()]
    .filter((r) => r.doc.replaced)
    .map((r) => ({ record: r, physicalId: r.doc.replaced!.physicalId, properties: r.doc.replaced!.properties }));
  const removedOutcome = await deleteInOrder(rt, removed.map((record) => ({ record })), 'cleanup');
  const replacedOutcome = await deleteInOrder(rt, replaced, 'replaced-copy');
  rt.store.transaction(() => {
    for (const r of removed) {
      rt.resources.delete(r.logicalId);
      rt.store.resources.remove(r.stackId, r.logicalId);
    }
    for (const r of rt.resources.values()) settle(rt, r);
  });
  return [...removedOutcome.failed, ...replacedOutcome.failed];
}

/** After an update ends, a resource keeps no trace of its previous state. */
function settle(rt: Runtime, r: ResourceRecord): void {
  if (!r.doc.before && !r.doc.replaced) return;
  r.doc.before = undefined;
  r.doc.replaced = undefined;
  rt.store.resources.save(r);
}

export async function failUpdate(rt: Runtime, reason: string): Promise<void> {
  if (rt.options.disableRollback) {
    setStackStatus(rt, rt.stack, 'UPDATE_FAILED', reason);
    return;
  }
  setStackStatus(rt, rt.stack, 'UPDATE_ROLLBACK_IN_PROGRESS', reason);
  await rollbackUpdate(rt);
}
