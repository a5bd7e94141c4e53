// The door Cloud Control (handlers/cloudcontrol) provisions through: one resource's create, update or delete outside
// any stack, by the same providers and world rows CloudFormation uses, with the control API's faults. A resource a
// stack owns can be read and changed this way; a change is drift, as on AWS.
import type { Store, WorldResource } from '../storage/index.js';
import { providerFor, isKnownResourceType } from '../resources/registry.js';
import { resourceSpec } from '../resources/spec.js';
import { partitionOf, urlSuffixOf } from '../resources/regions.js';
import { randomSuffix } from '../resources/names.js';
import type { Faults, FaultAction } from '../resources/faults.js';
import type { ProviderEnv, ProviderResult, ResourceRequest, WorldAccess } from '../resources/provider.js';
import { stagedWorld } from '../resources/stagedWorld.js';
import type { Caller } from './engine.js';
import { worldIdOf } from '../resources/generic.js';

export interface CloudControlDoor {
  store: Store;
  faults: Faults;
  caller: Caller;
  now: () => Date;
  /** The providers' environment: with --backend, backend types provision there, as a stack's do. */
  env?: ProviderEnv;
}

/** What one provider call ends with, in Cloud Control's terms (ProgressEvent Identifier / ErrorCode, StatusMessage). */
export type ResourceOutcome =
  { ok: true; identifier: string; model: Record<string, unknown> } | { ok: false; errorCode: string; message: string };

/**
 * Types AWS's registry marks NON_PROVISIONABLE (or that only exist inside a template): Cloud Control refuses every
 * action on them with UnsupportedActionException.
 */
export const NON_PROVISIONABLE: ReadonlySet<string> = new Set([
  'AWS::CloudFormation::CustomResource',
  'AWS::CloudFormation::WaitCondition',
  'AWS::CloudFormation::WaitConditionHandle',
  'AWS::CloudFormation::Macro',
  // a nested stack needs its parent's operation (state-machine/nestedStacks.ts); Cloud Control has none
  'AWS::CloudFormation::Stack',
]);

export const isServedType = (type: string) => isKnownResourceType(type) && !type.startsWith('Custom::');
export const isProvisionable = (type: string) => !NON_PROVISIONABLE.has(type);

/** The schema's properties of a physical resource: what it was given, with its read-only values (Arn, …). */
export function modelOf(row: WorldResource): Record<string, unknown> {
  const spec = resourceSpec(row.type);
  const model: Record<string, unknown> = { ...row.properties };
  for (const [key, value] of Object.entries(row.attributes)) {
    if (!key.includes('.') && !(key in model) && value !== undefined) model[key] = value;
  }
  const primary = spec?.primaryIdentifier ?? [];
  if (primary.length === 1 && model[primary[0]] === undefined) model[primary[0]] = row.physicalId;
  return model;
}

/**
 * The model as it stands where the resource lives: the backend's answer over the world row for a backend resource
 * (undefined when the backend no longer has it), the world row's for a simulated one.
 */
export async function currentModel(
  door: CloudControlDoor,
  row: WorldResource,
): Promise<Record<string, unknown> | undefined> {
  const provider = providerFor(row.type);
  if (!provider.read) return modelOf(row);
  const req = { ...request(door, row.type, row.properties, 'read'), physicalId: row.physicalId };
  const actual = await provider.read(worldOf(door), req);
  return actual && { ...modelOf(row), ...actual };
}

/** The primary identifier: the schema's primaryIdentifier values joined with `|`, as Cloud Control writes it. */
export function identifierOf(row: WorldResource): string {
  const primary = resourceSpec(row.type)?.primaryIdentifier ?? [];
  const model = modelOf(row);
  const values = primary.map((p) => model[p]);
  return values.length && values.every((v) => typeof v === 'string') ? values.join('|') : row.physicalId;
}

/** The resource of `type` that `identifier` names in the caller's account and region. */
export function findResource(door: CloudControlDoor, type: string, identifier: string): WorldResource | undefined {
  const { account, region } = door.caller;
  return (
    door.store.world.get(account, region, type, identifier) ??
    door.store.world.list({ type, account, region }).find((r) => identifierOf(r) === identifier)
  );
}

export function resourcesOf(door: CloudControlDoor, type: string): WorldResource[] {
  return door.store.world.list({ type, account: door.caller.account, region: door.caller.region });
}

/** The writable part of a model: read-only values (attributes that are no property of the schema) dropped. */
export function writable(type: string, model: Record<string, unknown>): Record<string, unknown> {
  const spec = resourceSpec(type);
  if (!spec) return model;
  return Object.fromEntries(Object.entries(model).filter(([k]) => k in spec.properties));
}

/** The injected delay or failure of this attempt (the control API's faults, by type). */
export function faultOf(door: CloudControlDoor, action: FaultAction, type: string, requestToken: string) {
  return door.faults.check(action, {
    stackId: '',
    stackName: '',
    logicalId: '',
    type,
    metadata: undefined,
    requestToken,
  });
}

export function createResource(
  door: CloudControlDoor,
  type: string,
  properties: Record<string, unknown>,
  token: string,
) {
  const invalid = providerFor(type).validate(type, shortName(type), properties);
  if (invalid) return Promise.resolve(refused('InvalidRequest', invalid));
  return provisioned(door, type, properties, (world) =>
    providerFor(type).create(world, request(door, type, properties, token)),
  );
}

export function updateResource(
  door: CloudControlDoor,
  row: WorldResource,
  properties: Record<string, unknown>,
  token: string,
) {
  const provider = providerFor(row.type);
  // compared model to model: read-only values that share a property's name (a queue's generated QueueName) are no change
  const createOnly = provider.replacementNeeded(row.type, writable(row.type, modelOf(row)), properties);
  if (createOnly.length) {
    const paths = createOnly.map((p) => `/properties/${p}`).join(', ');
    return Promise.resolve(
      refused('NotUpdatable', `Invalid patch update: createOnlyProperties [${paths}] cannot be updated`),
    );
  }
  const invalid = provider.validate(row.type, shortName(row.type), properties);
  if (invalid) return Promise.resolve(refused('InvalidRequest', invalid));
  const req = {
    ...request(door, row.type, properties, token),
    physicalId: row.physicalId,
    previousProperties: row.properties,
  };
  return provisioned(door, row.type, properties, (world) => provider.update(world, req));
}

export async function deleteResource(
  door: CloudControlDoor,
  row: WorldResource,
  token: string,
): Promise<ResourceOutcome> {
  const req = { ...request(door, row.type, row.properties, token), physicalId: row.physicalId };
  const world = stagedWorld(worldOf(door));
  const result = await providerFor(row.type).delete(world, req);
  if (!result.ok) return refused(result.code, result.reason);
  door.store.transaction(() => world.commit());
  return { ok: true, identifier: identifierOf(row), model: {} };
}

/** A handler's message without CloudFormation's wrapper (`Resource handler returned message: "…" (RequestToken…)`). */
export function refused(errorCode: string, reason: string): ResourceOutcome {
  const inner = /^Resource handler returned message: "(.*)" \(RequestToken: [^,]*, HandlerErrorCode: [^)]*\)$/s.exec(
    reason,
  );
  return { ok: false, errorCode, message: inner ? inner[1] : reason };
}

/** A create or update on a staged world, committed in one transaction when the provider succeeds. */
async function provisioned(
  door: CloudControlDoor,
  type: string,
  properties: Record<string, unknown>,
  call: (world: WorldAccess) => ProviderResult | Promise<ProviderResult>,
): Promise<ResourceOutcome> {
  const world = stagedWorld(worldOf(door));
  const result = await call(world);
  if (!result.ok) return refused(result.code, result.reason);
  door.store.transaction(() => world.commit());
  // a name unique within its parent (a stage) is kept under its parent-scoped key
  const key = worldIdOf(type, result.physicalId, properties);
  const row = door.store.world.get(door.caller.account, door.caller.region, type, key)!;
  return { ok: true, identifier: identifierOf(row), model: modelOf(row) };
}

function request(
  door: CloudControlDoor,
  type: string,
  properties: Record<string, unknown>,
  token: string,
): ResourceRequest {
  const { account, region } = door.caller;
  return {
    account,
    region,
    partition: partitionOf(region),
    urlSuffix: urlSuffixOf(region),
    stackName: '',
    stackId: '',
    logicalId: shortName(type),
    type,
    properties,
    requestToken: token,
    env: door.env,
  };
}

/** The world as Cloud Control writes it: a resource it creates belongs to no stack. */
function worldOf(door: CloudControlDoor): WorldAccess {
  const { store, caller } = door;
  const { account, region } = caller;
  return {
    get: (type, id) => store.world.get(account, region, type, id),
    byName: (type, name) => store.world.byName(account, region, type, name),
    byNameInAccount: (type, name) => store.world.byNameInAccount(account, type, name),
    put: (r) =>
      store.world.put({ ...r, stackId: r.stackId || undefined, logicalId: r.stackId ? r.logicalId : undefined }),
    remove: (type, id) => store.world.remove(account, region, type, id),
    now: () => door.now().toISOString(),
    random: (length) => randomSuffix(length),
  };
}

/** The name part a generated physical name is built from (`AWS::S3::Bucket` → `Bucket`). */
const shortName = (type: string) => type.split('::').at(-1)!;
