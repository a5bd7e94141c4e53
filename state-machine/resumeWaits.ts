// How a restart resumes an operation caught while its resources waited on the outside world — a WaitCondition on
// its handle's signals, a resource on its CreationPolicy's SignalResource calls, a custom resource on its handler's
// reply — as AWS keeps waiting through anything on its side: resources done before the restart stay done, waiting
// ones wait again with their first deadlines (resources/signalHub.ts keeps what they need), the rest start in order.
import type { ResourceRecord, StackRecord, Store } from '../storage/index.js';
import type { SignalHub } from '../resources/signalHub.js';
import { NESTED_STACK_TYPE } from '../resources/nestedStacks.js';
import type { Runtime } from './runtime.js';
import { REASONS, resumeProvision } from './provision.js';
import { updateInPlace } from './resourceActions.js';
import { RESUMES_WAITS } from './statuses.js';

const inFlight = (r: ResourceRecord) => r.status.endsWith('_IN_PROGRESS');

/**
 * Whether the interrupted operation resumes: something was caught mid-action, every such resource is in a wait a
 * restart resumes, and nothing had failed yet. A nested stack's create counts as such a wait when its child's
 * operation resumes too, and a child resumes only with its parent, so a tree goes on or rolls back as one. A
 * resource caught in any other action (an injected delay, a provider call) was cut short by the restart: that is
 * a failure, so the operation fails and rolls back as it would have after any failure, its waiting resources
 * cancelled with it (recovery.ts).
 */
export function resumesWaits(rt: Runtime): boolean {
  const hub = rt.env?.signals;
  if (!hub) return false;
  const parent = rt.stack.doc.parentId && rt.store.stacks.byId(rt.stack.doc.parentId);
  if (parent && !treeResumes(rt.store, hub, parent)) return false;
  const caught = waitsOnly(rt.store, hub, rt.stack, [...rt.resources.values()]);
  if (!caught) return false;
  rt.resumedWaits = caught;
  return true;
}

/** Whether a parent's operation resumes: it, and its own parent up to the root, wait on nothing else. */
function treeResumes(store: Store, hub: SignalHub, stack: StackRecord): boolean {
  const parent = stack.doc.parentId && store.stacks.byId(stack.doc.parentId);
  if (parent && !treeResumes(store, hub, parent)) return false;
  return waitsOnly(store, hub, stack, store.resources.byStack(stack.stackId)) !== undefined;
}

/** The stack's resources caught mid-action, when every one of them is in a wait a restart resumes. */
function waitsOnly(store: Store, hub: SignalHub, stack: StackRecord, resources: ResourceRecord[]) {
  if (!RESUMES_WAITS.includes(stack.status) || resources.some((r) => r.status.endsWith('_FAILED'))) return undefined;
  const waiting = hub.waitingOn(stack.stackId);
  const caught = resources.filter(inFlight);
  const resumable = (r: ResourceRecord) => waiting.has(r.logicalId) || childResumes(store, hub, r);
  if (!caught.length || !caught.every(resumable)) return undefined;
  return new Set(caught.map((r) => r.logicalId));
}

/** A nested stack past "Initiated" (its child exists) whose child's create waits on nothing else. */
function childResumes(store: Store, hub: SignalHub, r: ResourceRecord): boolean {
  if (r.type !== NESTED_STACK_TYPE || r.status !== 'CREATE_IN_PROGRESS' || r.statusReason !== REASONS.initiated)
    return false;
  const child = r.physicalId ? store.stacks.byId(r.physicalId) : undefined;
  if (child?.status !== 'CREATE_IN_PROGRESS') return false;
  return waitsOnly(store, hub, child, store.resources.byStack(child.stackId)) !== undefined;
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
