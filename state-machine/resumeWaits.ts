// How a restart resumes an operation caught while its resources waited on the outside world — a WaitCondition on
// its handle's signals, a resource on its CreationPolicy's SignalResource calls, a custom resource on its handler's
// reply — as AWS keeps waiting through anything on its side: resources done before the restart stay done, waiting
// ones wait again with their first deadlines (resources/signalHub.ts keeps what they need), the rest start in order.
import type { ResourceRecord } from '../storage/index.js';
import type { Runtime } from './runtime.js';
import { resumeProvision } from './provision.js';
import { updateInPlace } from './resourceActions.js';

const inFlight = (r: ResourceRecord) => r.status.endsWith('_IN_PROGRESS');

/**
 * Whether the interrupted operation resumes: something was caught mid-action, every such resource is in a wait a
 * restart resumes, and nothing had failed yet. A resource caught in any other action (an injected delay, a provider
 * call) was cut short by the restart: that is a failure, so the operation fails and rolls back as it would have
 * after any failure, its waiting resources cancelled with it (recovery.ts).
 */
export function resumesWaits(rt: Runtime): boolean {
  const hub = rt.env?.signals;
  // A nested stack's parent does not resume (its resource waiting on the child is no such wait) and rolls the
  // child back: the child's waits are cancelled with it rather than hold up that rollback until they time out.
  if (!hub || rt.stack.doc.parentId) return false;
  const waiting = hub.waitingOn(rt.stack.stackId);
  const resources = [...rt.resources.values()];
  const caught = resources.filter(inFlight);
  if (!caught.length || !caught.every((r) => waiting.has(r.logicalId))) return false;
  if (resources.some((r) => r.status.endsWith('_FAILED'))) return false;
  rt.resumedWaits = new Set(caught.map((r) => r.logicalId));
  return true;
}

/**
 * Resumes a create or update with `run` once the server listens: resources not yet started may hand out URLs
 * (wait condition handles, ResponseURLs) on the endpoint, known only then.
 */
export async function resumeWhenListening(rt: Runtime, run: () => Promise<void>): Promise<void> {
  await rt.env?.listening;
  return run();
}

/**
 * One resource's step of a resumed create or update: its wait goes on, or nothing when it was made by this
 * operation before the restart; undefined when it takes its ordinary step (not started, or an update that finds
 * nothing left to change).
 */
export function resumedStep(rt: Runtime, logicalId: string, signal: AbortSignal): Promise<boolean> | undefined {
  const r = rt.resources.get(logicalId);
  if (!rt.resumedWaits || !r) return undefined;
  if (rt.resumedWaits.has(logicalId)) {
    rt.resumedWaits.delete(logicalId);
    // a custom resource awaiting the reply to its Update; a replacement's new copy waits as a create does
    if (r.status === 'UPDATE_IN_PROGRESS' && !r.doc.replaced) return updateInPlace(rt, r, 'Update', signal, true);
    return resumeProvision(rt, r, signal);
  }
  const ours = r.doc.createdBy === rt.operationId || r.doc.adoptedBy === rt.operationId;
  if (ours && (r.status === 'CREATE_COMPLETE' || r.status === 'IMPORT_COMPLETE')) return Promise.resolve(true);
  return undefined;
}
