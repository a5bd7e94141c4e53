// Deleting a set of resources in reverse dependency order: independent branches go on when one delete fails;
// what the failed resource depends on is kept.
import type { ResourceRecord } from '../../storage/index.js';
import { runPlan } from '../scheduler.js';
import { deleteResource, type DeleteReason, type DeleteTarget } from '../resourceDelete.js';
import type { Runtime } from '../runtime.js';
import { guarded } from '../guard.js';

export interface DeleteOutcome {
  failed: string[];
}

/** Deletes `targets` so that a resource goes only after everything in the set that depends on it. */
export async function deleteInOrder(rt: Runtime, targets: DeleteTarget[], why: DeleteReason): Promise<DeleteOutcome> {
  const byId = new Map(targets.map((t) => [t.record.logicalId + (t.physicalId ? `#${t.physicalId}` : ''), t]));
  const ids = [...byId.keys()];
  const dependents = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const [id, t] of byId) {
    for (const dep of t.record.doc.dependsOn ?? []) dependents.get(dep)?.push(id);
  }
  // reverse creation order: later template positions go first among independent resources
  const order = [...ids].sort((a, b) => byId.get(b)!.record.ord - byId.get(a)!.record.ord);
  const outcome = await runPlan({
    order,
    waitsOn: (id) => dependents.get(id) ?? [],
    run: (id, signal) =>
      guarded(
        rt,
        () => byId.get(id)!.record,
        () => deleteResource(rt, byId.get(id)!, why, signal),
      ),
    stopOnFailure: false,
  });
  return { failed: [...outcome.failed].map((id) => byId.get(id)!.record.logicalId) };
}

/** Resources of the stack that still stand (anything not already deleted or skipped). */
export function standing(resources: Iterable<ResourceRecord>): ResourceRecord[] {
  return [...resources].filter((r) => r.status !== 'DELETE_COMPLETE' && r.status !== 'DELETE_SKIPPED');
}

export const failedToDelete = (ids: string[]) =>
  `The following resource(s) failed to delete: [${[...ids].sort().join(', ')}]. `;
