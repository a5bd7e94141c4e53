// Deleting one resource: DELETE_IN_PROGRESS → DELETE_COMPLETE | DELETE_FAILED, or a single DELETE_SKIPPED when
// DeletionPolicy / UpdateReplacePolicy / RetainResources keep it, with a Snapshot policy's snapshot first.
import type { ResourceRecord } from '../storage/index.js';
import { providerFor } from '../resources/registry.js';
import type { Deleted } from '../resources/provider.js';
import { stagedWorld } from '../resources/stagedWorld.js';
import { snapshotOf } from '../resources/policies.js';
import { setResourceStatus } from './transitions.js';
import type { Runtime } from './runtime.js';
import { faultGate, request } from './providerCalls.js';
import { runResourceHooks } from './hooks/resourceHooks.js';
import { ownedBy, rowOf } from '../resources/worldRows.js';

export type DeleteReason = 'stack-delete' | 'rollback' | 'cleanup' | 'replaced-copy' | 'rollback-cleanup';

/** Whether a delete of this resource is skipped (DELETE_SKIPPED) under its policies and the operation's options. */
export function retains(rt: Runtime, r: ResourceRecord, why: DeleteReason): boolean {
  if (why === 'replaced-copy') return r.doc.updateReplacePolicy === 'Retain';
  if (rt.options.retainResources?.includes(r.logicalId)) return true;
  // what ImportExistingResources imported is released, not deleted, when that operation rolls back
  if ((why === 'rollback' || why === 'rollback-cleanup') && r.doc.adoptedBy === (rt.rollbackOf ?? rt.operationId))
    return true;
  const policy = r.doc.deletionPolicy;
  const createdHere = r.doc.createdBy === (rt.rollbackOf ?? rt.operationId);
  if (why === 'rollback' || why === 'rollback-cleanup') {
    if (policy === 'RetainExceptOnCreate') return !createdHere;
    if (policy === 'Retain') return !(createdHere && rt.options.retainExceptOnCreate);
    return false;
  }
  return policy === 'Retain' || policy === 'RetainExceptOnCreate';
}

export interface DeleteTarget {
  record: ResourceRecord;
  /** Delete this physical id instead of the record's (the old copy of a replacement). */
  physicalId?: string;
  properties?: Record<string, unknown>;
}

/** Delete: DELETE_IN_PROGRESS → DELETE_COMPLETE | DELETE_FAILED, or a single DELETE_SKIPPED when retained. */
export async function deleteResource(rt: Runtime, target: DeleteTarget, why: DeleteReason, signal: AbortSignal) {
  const r = target.record;
  const cleanup = why === 'cleanup' || why === 'replaced-copy' || why === 'rollback-cleanup';
  const shown: ResourceRecord = target.physicalId
    ? { ...r, physicalId: target.physicalId, doc: { ...r.doc, properties: target.properties } }
    : r;
  const options = { withoutProperties: cleanup, uuidEventId: cleanup };
  if (retains(rt, r, why)) {
    rt.store.transaction(() => {
      detachFromStack(rt, shown);
      setResourceStatus(rt, shown, 'Skip', 'complete', {
        ...options,
        removeRow: why !== 'stack-delete' && !target.physicalId,
      });
    });
    return true;
  }
  if (!shown.physicalId) {
    setResourceStatus(rt, shown, 'Delete', 'complete', { ...options, removeRow: why === 'cleanup' });
    return true;
  }
  // pre-delete hooks guard a stack's delete and an update's removals, not a rollback's deletes or old copies
  if (why === 'stack-delete' || why === 'cleanup') {
    const hooked = runResourceHooks(rt, shown, 'DELETE');
    if (hooked.failure) {
      setResourceStatus(rt, shown, 'Delete', 'failed', { ...options, reason: hooked.failure });
      return false;
    }
  }
  setResourceStatus(rt, shown, 'Delete', 'start', options);
  // the cleanup after a successful update tries a delete three times before it gives the resource up
  const attempts = why === 'cleanup' || why === 'replaced-copy' ? CLEANUP_ATTEMPTS : 1;
  let outcome: Awaited<ReturnType<typeof attemptDelete>> = 'cancelled';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    outcome = await attemptDelete(rt, shown, why, signal);
    if (outcome === 'cancelled' || outcome.result.ok) break;
  }
  if (outcome === 'cancelled') return false;
  if (!outcome.result.ok) {
    setResourceStatus(rt, shown, 'Delete', 'failed', { ...options, reason: outcome.result.reason });
    return false;
  }
  const { world } = outcome;
  setResourceStatus(rt, shown, 'Delete', 'complete', {
    ...options,
    removeRow: why === 'cleanup',
    alongside: () => world.commit(),
  });
  return true;
}

/**
 * How many times the cleanup phase of an update tries a delete before the resource leaves the stack (AWS's
 * troubleshooting guide: "CloudFormation tries to delete it three times").
 */
export const CLEANUP_ATTEMPTS = 3;

/** One try of the provider's delete (after the fault gate), with its world changes staged. */
async function attemptDelete(rt: Runtime, shown: ResourceRecord, why: DeleteReason, signal: AbortSignal) {
  const gate = await faultGate(rt, shown, 'Delete', signal);
  if (gate === 'cancelled') return 'cancelled' as const;
  const world = stagedWorld(rt.world);
  // a Snapshot policy snapshots first; both land only if the delete goes through (the world is staged)
  const policy = why === 'replaced-copy' ? shown.doc.updateReplacePolicy : shown.doc.deletionPolicy;
  if (policy === 'Snapshot') snapshotOf(world, shown.type, shown.physicalId, shown.doc.properties ?? {});
  const result: Deleted = gate
    ? { ok: false, code: 'Injected', reason: gate }
    : await providerFor(shown.type).delete(world, request(rt, shown, shown.doc.properties ?? {}, signal, true));
  return { result, world };
}

/** A retained physical resource leaves the stack's ownership but stays in the account. */
function detachFromStack(rt: Runtime, r: ResourceRecord): void {
  if (!r.physicalId) return;
  const found = rowOf(rt.world, ownedBy(r));
  if (found) rt.world.put({ ...found, stackId: undefined, logicalId: undefined });
}
