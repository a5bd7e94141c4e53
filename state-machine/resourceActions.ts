// One resource create, update in place or replacement, with the events AWS emits for it, each status change
// committed together with the world change it reflects. Deletes are in resourceDelete.ts.
import { isDeepStrictEqual } from 'node:util';
import type { ResourceRecord } from '../storage/index.js';
import { nameProperty, providerFor } from '../resources/registry.js';
import { refValue } from '../resources/generic.js';
import type { ProviderResult } from '../resources/provider.js';
import { stagedWorld } from '../resources/stagedWorld.js';
import { defaultDeletionPolicy } from '../resources/policies.js';
import { setResourceStatus } from './transitions.js';
import { RESOURCE_PHASES } from './statuses.js';
import { evaluateIn, resolveDynamicIn, type Runtime } from './runtime.js';
import { policyRefusal } from './stackPolicy.js';
import { faultGate, request } from './providerCalls.js';
import { provision, REASONS } from './provision.js';
import { runResourceHooks } from './hooks/resourceHooks.js';
import { HOOK_REASONS } from './hooks/invoke.js';

export { REASONS } from './provision.js';

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
  const hooked = runResourceHooks(rt, r, 'CREATE');
  if (hooked.failure) {
    setResourceStatus(rt, r, 'Create', 'failed', { reason: hooked.failure });
    return false;
  }
  setResourceStatus(rt, r, 'Create', 'start', hooked.invoked ? { reason: HOOK_REASONS.createInitiated } : {});
  const provider = providerFor(r.type);
  const invalid = provider.validate(r.type, logicalId, r.doc.properties);
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
  const hooked = runResourceHooks(rt, r, 'UPDATE');
  if (hooked.failure) {
    setResourceStatus(rt, r, 'Update', 'failed', { reason: hooked.failure });
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

/**
 * The provider's update of a resource in place. `resumed`: a restart resumes it (a custom resource awaiting the
 * reply to its Update): its fault and delay were applied before, and the provider takes over the request sent.
 */
export async function updateInPlace(
  rt: Runtime,
  r: ResourceRecord,
  action: 'Update',
  signal: AbortSignal,
  resumed = false,
) {
  const gate = resumed ? undefined : await faultGate(rt, r, action, signal);
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
