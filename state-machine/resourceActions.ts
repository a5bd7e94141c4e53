// One resource create, update in place or replacement, with the events AWS emits for it, each status change
// committed together with the world change it reflects. Deletes are in resourceDelete.ts.
import { isDeepStrictEqual } from 'node:util';
import type { ResourceRecord } from '../storage/index.js';
import { nameProperty, providerFor } from '../resources/registry.js';
import { refValue } from '../resources/generic.js';
import type { ProviderResult } from '../resources/provider.js';
import { stagedWorld } from '../resources/stagedWorld.js';
import { creationPolicyOf, settleCreation } from '../resources/creationPolicy.js';
import { defaultDeletionPolicy } from '../resources/policies.js';
import { setResourceStatus } from './transitions.js';
import { RESOURCE_PHASES } from './statuses.js';
import { evaluateIn, resolveDynamicIn, type Runtime } from './runtime.js';
import { policyRefusal } from './stackPolicy.js';
import { checkFault, faultGate, request, sleep } from './providerCalls.js';

export const REASONS = {
  initiated: 'Resource creation Initiated',
  replacing: 'Requested update requires the creation of a new physical resource; hence creating one.',
  createCancelled: 'Resource creation cancelled',
  updateCancelled: 'Resource update cancelled',
  importCancelled: 'Resource import cancelled',
  customNamed: (id: string) =>
    `CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename ${id} and update the stack again.`,
};

/** Evaluated properties with dynamic references kept; throws (as AWS fails the resource) when one cannot resolve. */
function evaluateProperties(rt: Runtime, logicalId: string): Record<string, unknown> {
  const def = rt.template.model.resources.get(logicalId)!;
  const properties = evaluateIn(rt, def.properties, false) as Record<string, unknown>;
  resolveDynamicIn(rt, properties);
  return properties;
}

function newRecord(rt: Runtime, logicalId: string): ResourceRecord {
  const def = rt.template.model.resources.get(logicalId)!;
  return {
    stackId: rt.stack.stackId,
    logicalId,
    account: rt.stack.account,
    region: rt.stack.region,
    type: def.type,
    // a record not yet stored: its first status change comes through setResourceStatus
    status: RESOURCE_PHASES.Create.start,
    updatedAt: rt.clock.now().toISOString(),
    ord: def.ord,
    doc: { properties: {}, metadata: def.metadata, createdBy: rt.operationId },
  };
}

export function applyPolicies(rt: Runtime, r: ResourceRecord): void {
  const def = rt.template.model.resources.get(r.logicalId);
  if (!def) return;
  const ctx = (v: unknown) => (v === undefined ? undefined : String(evaluateIn(rt, v)));
  r.doc.deletionPolicy = ctx(def.deletionPolicy) ?? defaultDeletionPolicy(def.type, def.properties);
  r.doc.updateReplacePolicy = ctx(def.updateReplacePolicy);
  r.doc.metadata = def.metadata;
  r.doc.dependsOn = [...(rt.template.graph.dependsOn.get(r.logicalId) ?? [])];
}

/** Create: CREATE_IN_PROGRESS (no physical id) → CREATE_IN_PROGRESS "Resource creation Initiated" → CREATE_COMPLETE. */
export async function createResource(rt: Runtime, logicalId: string, signal: AbortSignal): Promise<boolean> {
  const adopted = rt.options.adopt?.[logicalId];
  if (adopted !== undefined) return importExisting(rt, logicalId, adopted);
  const r = newRecord(rt, logicalId);
  rt.resources.set(logicalId, r);
  try {
    r.doc.properties = evaluateProperties(rt, logicalId);
    applyPolicies(rt, r);
  } catch (err) {
    setResourceStatus(rt, r, 'Create', 'failed', { reason: (err as Error).message });
    return false;
  }
  setResourceStatus(rt, r, 'Create', 'start');
  const provider = providerFor(r.type);
  const invalid = provider.validate(r.type, logicalId, r.doc.properties!);
  if (invalid) {
    setResourceStatus(rt, r, 'Create', 'failed', { reason: invalid });
    return false;
  }
  return provision(rt, r, 'create', signal);
}

/**
 * ImportExistingResources: the account's unowned resource becomes this logical resource (IMPORT_IN_PROGRESS →
 * IMPORT_COMPLETE), the world row taking the stack as its owner in the same transaction.
 */
function importExisting(rt: Runtime, logicalId: string, physicalId: string): boolean {
  const r = newRecord(rt, logicalId);
  r.physicalId = physicalId;
  r.doc.createdBy = undefined;
  r.doc.adoptedBy = rt.operationId;
  rt.resources.set(logicalId, r);
  try {
    r.doc.properties = evaluateProperties(rt, logicalId);
    applyPolicies(rt, r);
  } catch (err) {
    setResourceStatus(rt, r, 'Import', 'failed', { reason: (err as Error).message });
    return false;
  }
  setResourceStatus(rt, r, 'Import', 'start');
  const found = rt.world.get(r.type, physicalId);
  if (!found || found.stackId) {
    setResourceStatus(rt, r, 'Import', 'failed', {
      reason: `Resource of type '${r.type}' with identifier '${physicalId}' was not found.`,
    });
    return false;
  }
  r.doc.attributes = found.attributes;
  r.doc.ref = refValue({ type: r.type, physicalId, attributes: found.attributes });
  setResourceStatus(rt, r, 'Import', 'complete', {
    alongside: () => rt.world.put({ ...found, stackId: rt.stack.stackId, logicalId }),
  });
  return true;
}

/** Runs the provider's create and records "Initiated" then COMPLETE (or FAILED) under the given statuses. */
async function provision(rt: Runtime, r: ResourceRecord, mode: 'create' | 'replace', signal: AbortSignal) {
  const action = mode === 'create' ? 'Create' : 'Update';
  const cancelled = mode === 'create' ? REASONS.createCancelled : REASONS.updateCancelled;
  const fault = checkFault(rt, r, 'Create');
  const world = stagedWorld(rt.world);
  const result: ProviderResult = fault.failure
    ? { ok: false, code: 'Injected', reason: fault.failure.reason }
    : await providerFor(r.type).create(world, request(rt, r, r.doc.properties!, signal));
  if (!result.ok) {
    // the handler ran and refused: "Initiated" without a physical id, then the handler's message
    if (mode === 'create') setResourceStatus(rt, r, action, 'start', { reason: REASONS.initiated, midAction: true });
    const completed = await sleep(fault.delayMs, signal, rt.env?.timers);
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
  if (!(await sleep(fault.delayMs, signal, rt.env?.timers))) {
    setResourceStatus(rt, r, action, 'failed', { reason: cancelled });
    return false;
  }
  const def = rt.template.model.resources.get(r.logicalId);
  const policy = creationPolicyOf(def?.creationPolicy === undefined ? undefined : evaluateIn(rt, def.creationPolicy));
  const settled = await settleCreation(
    providerFor(r.type),
    world,
    request(rt, r, r.doc.properties!, signal),
    result,
    policy,
  );
  if (settled === 'cancelled' || !settled.ok) {
    setResourceStatus(rt, r, action, 'failed', { reason: settled === 'cancelled' ? cancelled : settled.reason });
    return false;
  }
  r.doc.attributes = settled.attributes;
  r.doc.ref = settled.ref;
  setResourceStatus(rt, r, action, 'complete', { alongside: () => world.commit() });
  return true;
}

/** Update: nothing when unchanged; in place (UPDATE_IN_PROGRESS → UPDATE_COMPLETE); or a replacement. */
export async function updateResource(rt: Runtime, logicalId: string, signal: AbortSignal): Promise<boolean> {
  const r = rt.resources.get(logicalId)!;
  let properties: Record<string, unknown>;
  try {
    properties = evaluateProperties(rt, logicalId);
  } catch (err) {
    setResourceStatus(rt, r, 'Update', 'failed', { reason: (err as Error).message });
    return false;
  }
  const def = rt.template.model.resources.get(logicalId)!;
  const before = r.doc.properties ?? {};
  const provider = providerFor(r.type);
  if (
    isDeepStrictEqual(properties, before) &&
    isDeepStrictEqual(def.metadata, r.doc.metadata) &&
    !(await provider.changedOutside?.(request(rt, r, properties)))
  ) {
    applyPolicies(rt, r);
    rt.store.resources.save(r);
    return true;
  }
  r.doc.before = {
    physicalId: r.physicalId,
    properties: before,
    attributes: r.doc.attributes,
    ref: r.doc.ref,
    status: r.status,
  };
  const invalid = provider.validate(r.type, logicalId, properties);
  const replacing = provider.replacementNeeded(r.type, before, properties).length > 0;
  const refusal = policyRefusal(
    rt.stack.doc.duringUpdatePolicyBody ?? rt.stack.doc.stackPolicyBody,
    logicalId,
    r.type,
    replacing ? 'Replace' : 'Modify',
  );
  if (refusal) {
    setResourceStatus(rt, r, 'Update', 'failed', { reason: refusal });
    return false;
  }
  if (replacing) return replaceResource(rt, r, properties, signal);
  r.doc.properties = properties;
  applyPolicies(rt, r);
  setResourceStatus(rt, r, 'Update', 'start');
  if (invalid) {
    setResourceStatus(rt, r, 'Update', 'failed', { reason: invalid });
    return false;
  }
  return updateInPlace(rt, r, 'Update', signal);
}

async function updateInPlace(rt: Runtime, r: ResourceRecord, action: 'Update', signal: AbortSignal) {
  const gate = await faultGate(rt, r, action, signal);
  if (gate === 'cancelled') {
    setResourceStatus(rt, r, 'Update', 'failed', { reason: REASONS.updateCancelled });
    return false;
  }
  const world = stagedWorld(rt.world);
  const req = { ...request(rt, r, r.doc.properties!, signal), previousProperties: r.doc.before?.properties };
  const result: ProviderResult = gate
    ? { ok: false, code: 'Injected', reason: gate }
    : await providerFor(r.type).update(world, req);
  if (!result.ok) {
    setResourceStatus(rt, r, 'Update', 'failed', { reason: result.reason });
    return false;
  }
  // A custom resource that answers an Update with a new PhysicalResourceId was replaced: the old one is deleted in cleanup.
  if (result.physicalId !== r.physicalId && r.physicalId) {
    r.doc.replaced = {
      physicalId: r.physicalId,
      properties: r.doc.before?.properties ?? {},
      attributes: r.doc.before?.attributes,
      ref: r.doc.before?.ref,
    };
    r.physicalId = result.physicalId;
  }
  r.doc.attributes = result.attributes;
  r.doc.ref = result.ref;
  setResourceStatus(rt, r, 'Update', 'complete', { alongside: () => world.commit() });
  return true;
}

async function replaceResource(
  rt: Runtime,
  r: ResourceRecord,
  properties: Record<string, unknown>,
  signal: AbortSignal,
) {
  const nameProp = nameProperty(r.type);
  const before = r.doc.properties ?? {};
  setResourceStatus(rt, r, 'Update', 'start', { reason: REASONS.replacing });
  if (nameProp && properties[nameProp] !== undefined && isDeepStrictEqual(properties[nameProp], before[nameProp])) {
    setResourceStatus(rt, r, 'Update', 'failed', { reason: REASONS.customNamed(r.logicalId) });
    return false;
  }
  r.doc.replaced = { physicalId: r.physicalId!, properties: before, attributes: r.doc.attributes, ref: r.doc.ref };
  r.doc.properties = properties;
  applyPolicies(rt, r);
  const invalid = providerFor(r.type).validate(r.type, r.logicalId, properties);
  if (invalid) {
    setResourceStatus(rt, r, 'Update', 'failed', { reason: invalid });
    return false;
  }
  return provision(rt, r, 'replace', signal);
}
