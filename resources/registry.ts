// PROVIDERS: resource type → provider. Types without a family file get the spec-driven generic provider, whose
// actions read and write the simulated account: names stay taken, refusals come from the resource's state.
import { isKnownType, resourceSpec } from './spec.js';
import {
  attributeValues, cryptoRandom, newIdentity, refValue, replacementProperties, supportsAttribute, validateProperties,
} from './generic.js';
import type { Provider, ProviderResult, ResourceRequest, WorldAccess } from './provider.js';
import { deleteRefusal } from './refusals.js';

function alreadyExists(req: ResourceRequest, id: string): ProviderResult {
  return {
    ok: false,
    code: 'AlreadyExists',
    reason: `Resource handler returned message: "Resource of type '${req.type}' with identifier '${id}' already exists." (RequestToken: ${req.requestToken}, HandlerErrorCode: AlreadyExists)`,
  };
}

/** Types CloudFormation accepts without a resource schema: the CDK's metadata marker records nothing. */
const SCHEMALESS = new Set(['AWS::CDK::Metadata']);

function isCustom(type: string): boolean {
  return type.startsWith('Custom::') || type === 'AWS::CloudFormation::CustomResource' || SCHEMALESS.has(type);
}

const genericProvider: Provider = {
  create(world: WorldAccess, req: ResourceRequest): ProviderResult {
    const ctx = { account: req.account, region: req.region, partition: req.partition };
    const identity = newIdentity({
      type: req.type, logicalId: req.logicalId, stackName: req.stackName, properties: req.properties, ctx, random: cryptoRandom,
    });
    if (world.get(req.type, identity.physicalId) || (identity.name && world.byName(req.type, identity.name))) {
      return alreadyExists(req, identity.name ?? identity.physicalId);
    }
    const attributes = isCustom(req.type)
      ? {}
      : attributeValues({ type: req.type, physicalId: identity.physicalId, name: identity.name, properties: req.properties, ctx, random: cryptoRandom });
    world.put({
      account: req.account, region: req.region, type: req.type, physicalId: identity.physicalId, name: identity.name,
      stackId: req.stackId, logicalId: req.logicalId, createdAt: world.now(), properties: req.properties, attributes, state: {},
    });
    return { ok: true, physicalId: identity.physicalId, ref: refValue({ type: req.type, physicalId: identity.physicalId, attributes }), attributes };
  },

  update(world: WorldAccess, req: ResourceRequest): ProviderResult {
    const found = req.physicalId ? world.get(req.type, req.physicalId) : undefined;
    if (!found) {
      return {
        ok: false,
        code: 'NotFound',
        reason: `Resource handler returned message: "Resource of type '${req.type}' with identifier '${req.physicalId}' was not found." (RequestToken: ${req.requestToken}, HandlerErrorCode: NotFound)`,
      };
    }
    world.put({ ...found, properties: req.properties });
    const attributes = { ...found.attributes };
    for (const key of Object.keys(attributes)) {
      if (key in req.properties && typeof req.properties[key] !== 'object') attributes[key] = req.properties[key];
    }
    return { ok: true, physicalId: found.physicalId, ref: refValue({ type: req.type, physicalId: found.physicalId, attributes }), attributes };
  },

  delete(world: WorldAccess, req: ResourceRequest) {
    const found = req.physicalId ? world.get(req.type, req.physicalId) : undefined;
    // AWS treats a resource that is already gone as deleted.
    if (!found) return { ok: true as const };
    const refusal = deleteRefusal(found, req);
    if (refusal) return refusal;
    world.remove(req.type, found.physicalId);
    return { ok: true as const };
  },

  replacementNeeded(type, before, after) {
    return replacementProperties(type, before, after).map((c) => c.property);
  },

  validate(type, logicalId, properties) {
    if (SCHEMALESS.has(type)) return undefined;
    if (isCustom(type)) return properties.ServiceToken === undefined ? `Properties validation failed for resource ${logicalId} with message: #: required key [ServiceToken] not found` : undefined;
    return validateProperties(type, properties, logicalId);
  },

  supportsAttribute,
};

export const PROVIDERS: Readonly<Record<string, Provider>> = {};

export function providerFor(type: string): Provider {
  return PROVIDERS[type] ?? genericProvider;
}

export function isKnownResourceType(type: string): boolean {
  return isCustom(type) || isKnownType(type);
}

/** The property that holds a custom physical name for the type, if it has one. */
export function nameProperty(type: string): string | undefined {
  return resourceSpec(type)?.nameProperty;
}

/** RequiresRecreation of one property, as change sets report it. */
export function recreationOf(type: string, property: string): 'Never' | 'Conditionally' | 'Always' {
  const spec = resourceSpec(type);
  if (!spec) return 'Never';
  if (spec.createOnlyProperties.includes(property)) return 'Always';
  if (spec.conditionalReplacementProperties.includes(property)) return 'Conditionally';
  return 'Never';
}
