// A provider whose resources live in the backend (--backend): the name and any attribute the backend does not
// report come from the generic provider's rules, the resource itself is made, changed and deleted through the AWS
// SDK, and the world row records what the stack believes (with `state.lives: 'backend'`). Without a backend the
// type is simulated exactly as before: the generic provider answers.
import { attributeValues, cryptoRandom, newIdentity, worldIdOf } from '../generic.js';
import { rowOf } from '../worldRows.js';
import { alreadyExists, genericProvider, refOf } from '../genericProvider.js';
import type { BackendEndpoint, Deleted, Provider, ProviderResult, ResourceRequest, WorldAccess } from '../provider.js';
import { backendRefusal, isNotFound } from './errors.js';

/** What one backend call sees: the request, the endpoint, and the physical name chosen for a create. */
export interface BackendCall {
  req: ResourceRequest;
  backend: BackendEndpoint;
  /** The name (given or generated) of a type with a name property; for others, a generated one. */
  name: string;
  physicalId: string;
  /** The world, read-only, for what other resources of the account are (a policy's roles). */
  world: WorldAccess;
}

export interface Made {
  physicalId: string;
  /** The attributes the backend answered (Arn, QueueUrl, StreamArn…): they win over generated ones. */
  attributes: Record<string, unknown>;
}

/** A type's backend half: the SDK calls of its create, update, delete and read. */
export interface BackendOps {
  /** The service as CloudFormation's reasons name it: `(Service: Sqs, …)`. */
  service: string;
  /**
   * The properties the world row keeps (and the calls see), from the template's and the row's before an update:
   * a secret keeps its generated SecretString, for `{{resolve:secretsmanager:…}}`. Absent, the template's.
   */
  stored?(properties: Record<string, unknown>, before?: Record<string, unknown>): Record<string, unknown>;
  create(call: BackendCall): Promise<Made>;
  /** An in-place update; absent, an update changes the world row only (docs/backend.md lists what is not sent). */
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- most updates return nothing: Promise<void>
  update?(call: BackendCall): Promise<Record<string, unknown> | void>;
  delete(call: BackendCall): Promise<void>;
  /** The resource's actual properties in the backend, or undefined when it is gone. */
  read(call: BackendCall): Promise<Record<string, unknown> | undefined>;
}

export const LIVES_IN_BACKEND = 'backend' as const;

function identityOf(ops: BackendOps, req: ResourceRequest) {
  const ctx = { account: req.account, region: req.region, partition: req.partition };
  // a type whose name is not its identity (NAME_NOT_IDENTITY: an inline IAM policy) has a generated id, no name
  const identity = newIdentity({ ...req, ctx, random: cryptoRandom });
  return { ctx, physicalId: identity.physicalId, name: identity.name ?? identity.physicalId, given: identity.name };
}

async function create(ops: BackendOps, world: WorldAccess, template: ResourceRequest): Promise<ProviderResult> {
  const req = ops.stored ? { ...template, properties: ops.stored(template.properties) } : template;
  const backend = req.env!.backend!;
  const id = identityOf(ops, req);
  if (id.given && world.byName(req.type, id.given)) return alreadyExists(req, id.given);
  // a name unique only within its parent (a stage in its API) is taken when its parent has it
  const key = worldIdOf(req.type, id.physicalId, req.properties);
  if (key !== id.physicalId && world.get(req.type, key)) return alreadyExists(req, id.physicalId);
  let made: Made;
  try {
    made = await ops.create({ req, backend, name: id.name, physicalId: id.physicalId, world });
  } catch (err) {
    return backendRefusal(err, req, ops.service);
  }
  const generated = attributeValues({
    type: req.type,
    physicalId: made.physicalId,
    name: id.given,
    properties: req.properties,
    ctx: id.ctx,
    random: cryptoRandom,
    lookup: (type, pid) => world.get(type, pid)?.properties,
  });
  const attributes = { ...generated, ...made.attributes };
  world.put({
    account: req.account,
    region: req.region,
    type: req.type,
    physicalId: worldIdOf(req.type, made.physicalId, req.properties),
    name: id.given,
    stackId: req.stackId,
    logicalId: req.logicalId,
    createdAt: world.now(),
    properties: req.properties,
    attributes,
    state: { lives: LIVES_IN_BACKEND },
  });
  return {
    ok: true,
    physicalId: made.physicalId,
    ref: refOf(req, made.physicalId, attributes),
    attributes,
  };
}

async function update(ops: BackendOps, world: WorldAccess, template: ResourceRequest): Promise<ProviderResult> {
  const found = rowOf(world, { ...template, properties: template.previousProperties ?? template.properties });
  if (!found) return genericProvider.update(world, template);
  const req = ops.stored ? { ...template, properties: ops.stored(template.properties, found.properties) } : template;
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- what update resolves to
  let changed: Record<string, unknown> | void;
  try {
    const call = {
      req,
      backend: req.env!.backend!,
      name: found.name ?? req.physicalId!,
      physicalId: req.physicalId!,
      world,
    };
    changed = await ops.update?.(call);
  } catch (err) {
    return backendRefusal(err, req, ops.service);
  }
  const attributes = { ...found.attributes, ...(changed ?? {}) };
  world.put({ ...found, properties: req.properties, attributes });
  return {
    ok: true,
    physicalId: req.physicalId!,
    ref: refOf(req, req.physicalId!, attributes),
    attributes,
  };
}

async function remove(
  ops: BackendOps,
  simulated: Provider,
  world: WorldAccess,
  req: ResourceRequest,
): Promise<Deleted> {
  if (!req.physicalId) return { ok: true };
  const found = rowOf(world, req);
  // a row the simulated account made (before --backend was set) is deleted there
  if (found && found.state.lives !== LIVES_IN_BACKEND) return simulated.delete(world, req);
  const call = {
    req,
    backend: req.env!.backend!,
    name: found?.name ?? req.physicalId,
    physicalId: req.physicalId,
    world,
  };
  try {
    await ops.delete(call);
  } catch (err) {
    // AWS treats a resource that is already gone as deleted (out of band, or a backend that lost its state).
    if (!isNotFound(err)) return backendRefusal(err, req, ops.service);
  }
  if (found) world.remove(req.type, found.physicalId);
  return { ok: true };
}

/**
 * The type's provider: backend calls when the request's environment has a backend, the simulated provider (the
 * generic one unless the type has its own) otherwise.
 */
export function backendProvider(ops: BackendOps, simulated: Provider = genericProvider): Provider {
  const inBackend = (req: ResourceRequest) => req.env?.backend !== undefined;
  return {
    ...simulated,
    create: (world, req) => (inBackend(req) ? create(ops, world, req) : simulated.create(world, req)),
    update: (world, req) => (inBackend(req) ? update(ops, world, req) : simulated.update(world, req)),
    delete: (world, req) => (inBackend(req) ? remove(ops, simulated, world, req) : simulated.delete(world, req)),
    async read(world, req) {
      const found = rowOf(world, req);
      if (!inBackend(req) || found?.state.lives !== LIVES_IN_BACKEND) return found?.properties;
      const call = {
        req,
        backend: req.env!.backend!,
        name: found.name ?? req.physicalId!,
        physicalId: req.physicalId!,
        world,
      };
      try {
        return await ops.read(call);
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
  };
}
