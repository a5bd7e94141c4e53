// The spec-driven provider every type gets unless a family file overrides it: its actions read and write the
// simulated account, names stay taken, refusals come from the resource's state.
import {
  attributeValues,
  cryptoRandom,
  newIdentity,
  refValue,
  replacementProperties,
  supportsAttribute,
  validateProperties,
  worldIdOf,
} from './generic.js';
import type { Provider, ProviderResult, ResourceRequest, WorldAccess } from './provider.js';
import { PROTECTION_PROPERTIES, deleteRefusal } from './refusals.js';
import { NAME_SCOPES } from './quirks.js';
import { rowOf } from './worldRows.js';

export function alreadyExists(req: ResourceRequest, id: string): ProviderResult {
  return {
    ok: false,
    code: 'AlreadyExists',
    reason: `Resource handler returned message: "Resource of type '${req.type}' with identifier '${id}' already exists." (RequestToken: ${req.requestToken}, HandlerErrorCode: AlreadyExists)`,
  };
}

export function isCustom(type: string): boolean {
  return type.startsWith('Custom::') || type === 'AWS::CloudFormation::CustomResource';
}

/** Types CloudFormation accepts without a resource schema: the CDK's metadata marker records nothing. */
export const SCHEMALESS: ReadonlySet<string> = new Set(['AWS::CDK::Metadata']);

export const genericProvider: Provider = {
  create(world: WorldAccess, req: ResourceRequest): ProviderResult {
    const ctx = { account: req.account, region: req.region, partition: req.partition };
    const identity = newIdentity({
      type: req.type,
      logicalId: req.logicalId,
      stackName: req.stackName,
      properties: req.properties,
      ctx,
      random: cryptoRandom,
    });
    const key = worldIdOf(req.type, identity.physicalId, req.properties);
    const taken =
      world.get(req.type, key) ||
      (identity.name && world.byName(req.type, identity.name)) ||
      (identity.name && NAME_SCOPES[req.type] === 'account' && world.byNameInAccount?.(req.type, identity.name));
    if (taken) {
      return alreadyExists(req, identity.name ?? identity.physicalId);
    }
    const attributes =
      isCustom(req.type) || SCHEMALESS.has(req.type)
        ? {}
        : attributeValues({
            type: req.type,
            physicalId: identity.physicalId,
            name: identity.name,
            properties: req.properties,
            ctx,
            random: cryptoRandom,
            lookup: (type, id) => world.get(type, id)?.properties,
          });
    world.put({
      account: req.account,
      region: req.region,
      type: req.type,
      physicalId: key,
      name: identity.name,
      stackId: req.stackId,
      logicalId: req.logicalId,
      createdAt: world.now(),
      properties: req.properties,
      attributes,
      state: {},
    });
    return { ok: true, physicalId: identity.physicalId, ref: refOf(req, identity.physicalId, attributes), attributes };
  },

  update(world: WorldAccess, req: ResourceRequest): ProviderResult {
    const found = rowOf(world, { ...req, properties: req.previousProperties ?? req.properties });
    if (!found) {
      return {
        ok: false,
        code: 'NotFound',
        reason: `Resource handler returned message: "Resource of type '${req.type}' with identifier '${req.physicalId}' was not found." (RequestToken: ${req.requestToken}, HandlerErrorCode: NotFound)`,
      };
    }
    // A template change to the protection property overrides an out-of-band toggle of it.
    const protectionChanged = PROTECTION_PROPERTIES.some(
      (p) => String(found.properties[p]) !== String(req.properties[p]),
    );
    const state = protectionChanged ? { ...found.state, deletionProtection: undefined } : found.state;
    // a scoped name's key follows an in-place change of its parts (a record set's type)
    const key = worldIdOf(req.type, req.physicalId!, req.properties);
    if (key !== found.physicalId) world.remove(req.type, found.physicalId);
    world.put({ ...found, physicalId: key, properties: req.properties, state });
    const attributes = { ...found.attributes };
    for (const key of Object.keys(attributes)) {
      if (key in req.properties && typeof req.properties[key] !== 'object') attributes[key] = req.properties[key];
    }
    return { ok: true, physicalId: req.physicalId!, ref: refOf(req, req.physicalId!, attributes), attributes };
  },

  delete(world: WorldAccess, req: ResourceRequest) {
    const found = rowOf(world, req);
    // AWS treats a resource that is already gone as deleted.
    if (!found) return { ok: true as const };
    const refusal = deleteRefusal(found, req, world);
    if (refusal) return refusal;
    world.remove(req.type, found.physicalId);
    return { ok: true as const };
  },

  replacementNeeded(type, before, after) {
    return replacementProperties(type, before, after).map((c) => c.property);
  },

  validate(type, logicalId, properties) {
    if (SCHEMALESS.has(type)) return undefined;
    if (isCustom(type))
      return properties.ServiceToken === undefined
        ? `Properties validation failed for resource ${logicalId} with message: [#: required key [ServiceToken] not found]`
        : undefined;
    return validateProperties(type, properties, logicalId);
  },

  supportsAttribute,
};

/** What Ref returns: the physical id, or the attribute REF_EXCEPTIONS names. */
export function refOf(req: ResourceRequest, physicalId: string, attributes: Record<string, unknown>): string {
  return refValue({ type: req.type, physicalId, attributes });
}
