// A new physical resource (a create, or the new copy of a replacement): the provider's create, "Resource creation
// Initiated", then what the resource waits for (its stabilize step, its CreationPolicy) until COMPLETE or FAILED.
// A restart that resumes an operation re-enters here where the resource was waiting (resumeProvision).
import type { ResourceRecord } from '../storage/index.js';
import { providerFor } from '../resources/registry.js';
import type { ProviderResult, Provisioned } from '../resources/provider.js';
import { stagedWorld } from '../resources/stagedWorld.js';
import { creationPolicyOf, awaitCreation } from '../resources/creationPolicy.js';
import { setResourceStatus } from './transitions.js';
import { evaluateIn, type Runtime } from './runtime.js';
import { checkFault, request, sleep } from './providerCalls.js';

export const REASONS = {
  initiated: 'Resource creation Initiated',
  replacing: 'Requested update requires the creation of a new physical resource; hence creating one.',
  createCancelled: 'Resource creation cancelled',
  updateCancelled: 'Resource update cancelled',
  importCancelled: 'Resource import cancelled',
  customNamed: (id: string) =>
    `CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename ${id} and update the stack again.`,
};

type Mode = 'create' | 'replace';
type Staged = ReturnType<typeof stagedWorld>;

/** Runs the provider's create and records "Initiated" then COMPLETE (or FAILED) under the given statuses. */
export async function provision(rt: Runtime, r: ResourceRecord, mode: Mode, signal: AbortSignal): Promise<boolean> {
  const fault = checkFault(rt, r, 'Create');
  const world = stagedWorld(rt.world);
  const result: ProviderResult = fault.failure
    ? { ok: false, code: 'Injected', reason: fault.failure.reason }
    : await providerFor(r.type).create(world, request(rt, r, r.doc.properties!, signal));
  return afterCreate(rt, r, mode, { world, result, delayMs: fault.delayMs }, signal);
}

/**
 * A restart resumes this resource's wait: past "Initiated", its stabilize step and CreationPolicy wait again with
 * their first deadlines; before it (a custom resource awaiting its reply), the provider's create takes over the
 * request already sent. Either way no second physical resource is made.
 */
export async function resumeProvision(rt: Runtime, r: ResourceRecord, signal: AbortSignal): Promise<boolean> {
  const mode: Mode = r.status === 'UPDATE_IN_PROGRESS' ? 'replace' : 'create';
  const world = stagedWorld(rt.world);
  if (r.statusReason === REASONS.initiated && r.physicalId) {
    const created: Provisioned = {
      ok: true,
      physicalId: r.physicalId,
      ref: r.doc.ref ?? r.physicalId,
      attributes: r.doc.attributes ?? {},
    };
    return completeAfterWaits(rt, r, mode, world, created, signal);
  }
  const result = await providerFor(r.type).create(world, request(rt, r, r.doc.properties!, signal));
  return afterCreate(rt, r, mode, { world, result, delayMs: 0 }, signal);
}

/** What follows the provider's create: the refusal, or "Initiated" with the world change, the delay, the wait. */
async function afterCreate(
  rt: Runtime,
  r: ResourceRecord,
  mode: Mode,
  created: { world: Staged; result: ProviderResult; delayMs: number },
  signal: AbortSignal,
): Promise<boolean> {
  const { world, result, delayMs } = created;
  const action = mode === 'create' ? 'Create' : 'Update';
  const cancelled = mode === 'create' ? REASONS.createCancelled : REASONS.updateCancelled;
  if (!result.ok) {
    // the handler ran and refused: "Initiated" without a physical id, then the handler's message
    if (mode === 'create') setResourceStatus(rt, r, action, 'start', { reason: REASONS.initiated, midAction: true });
    const completed = await sleep(delayMs, signal, rt.env?.timers);
    // What a failed create left behind (a custom resource's id) is deleted by the rollback, as on AWS.
    if (mode === 'create' && result.physicalId) r.physicalId = result.physicalId;
    setResourceStatus(rt, r, action, 'failed', { reason: completed ? result.reason : cancelled });
    return false;
  }
  r.physicalId = result.physicalId;
  r.doc.ref = result.ref;
  r.doc.attributes = result.attributes;
  r.doc.createdBy = rt.operationId;
  setResourceStatus(rt, r, action, 'start', {
    reason: REASONS.initiated,
    midAction: true,
    alongside: () => world.commit(),
  });
  if (!(await sleep(delayMs, signal, rt.env?.timers))) {
    setResourceStatus(rt, r, action, 'failed', { reason: cancelled });
    return false;
  }
  return completeAfterWaits(rt, r, mode, world, result, signal);
}

/** The resource's waits (stabilize, CreationPolicy), then COMPLETE with the world change, or FAILED. */
async function completeAfterWaits(
  rt: Runtime,
  r: ResourceRecord,
  mode: Mode,
  world: Staged,
  created: Provisioned,
  signal: AbortSignal,
) {
  const action = mode === 'create' ? 'Create' : 'Update';
  const def = rt.template.model.resources.get(r.logicalId);
  const policy = creationPolicyOf(def?.creationPolicy === undefined ? undefined : evaluateIn(rt, def.creationPolicy));
  const settled = await awaitCreation(
    providerFor(r.type),
    world,
    request(rt, r, r.doc.properties!, signal),
    created,
    policy,
  );
  if (settled === 'cancelled' || !settled.ok) {
    const cancelled = mode === 'create' ? REASONS.createCancelled : REASONS.updateCancelled;
    setResourceStatus(rt, r, action, 'failed', { reason: settled === 'cancelled' ? cancelled : settled.reason });
    return false;
  }
  r.doc.attributes = settled.attributes;
  r.doc.ref = settled.ref;
  setResourceStatus(rt, r, action, 'complete', { alongside: () => world.commit() });
  return true;
}
