// The control API's view of the simulated account (docs/control-api.md): list, read, create, change and delete
// physical resources out of band, so that refusals, collisions and drift happen for the reasons they do on AWS.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WorldResource } from '../../storage/world.js';
import { attributeValues, cryptoRandom, newIdentity } from '../../resources/generic.js';
import { isKnownResourceType } from '../../resources/registry.js';
import { partitionOf } from '../../resources/regions.js';
import { reservedParameterNameMessage } from '../../resources/ssmParameters.js';
import { PREFIX, isObject, jsonBody, sendError, type ControlDeps } from './controlHttp.js';

/**
 * A resource as the control API shows it: the world row, the owning stack's name, and where it lives (`backend`
 * when a backend provider made it in --backend's endpoint, else `simulated`).
 */
function view(r: WorldResource) {
  const stackName = r.stackId?.split(':stack/')[1]?.split('/')[0];
  const lives = r.state.lives === 'backend' ? 'backend' : 'simulated';
  return { ...r, ...(stackName ? { stackName } : {}), lives };
}

const LIST_FILTERS = ['type', 'account', 'region', 'stackName'];
const STATE_FIELDS: Partial<Record<string, [check: (v: unknown) => boolean, expected: string]>> = {
  dataItems: [(v) => Number.isInteger(v) && (v as number) >= 0, 'a whole number >= 0'],
  deletionProtection: [(v) => typeof v === 'boolean', 'true or false'],
  attachedOutside: [
    (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
    'an array of strings (ARNs or ids)',
  ],
  failedResources: [(v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), 'an array of logical ids'],
  properties: [isObject, 'a JSON object (a merge patch: null removes a key)'],
};

function stateError(body: Record<string, unknown>, allowProperties = true): string | undefined {
  for (const [key, value] of Object.entries(body)) {
    const field = STATE_FIELDS[key];
    if (!field || (!allowProperties && key === 'properties')) {
      return `unknown field ${key}; allowed: ${Object.keys(STATE_FIELDS)
        .filter((k) => allowProperties || k !== 'properties')
        .join(', ')}`;
    }
    if (!field[0](value)) return `${key} must be ${field[1]} (got ${JSON.stringify(value)})`;
  }
  return undefined;
}

/** RFC 7396 merge patch, one level deep enough for properties: null removes, objects merge, the rest replaces. */
function mergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (isObject(v) && isObject(out[k])) out[k] = mergePatch(out[k], v);
    else out[k] = v;
  }
  return out;
}

type IdRequest = FastifyRequest<{ Params: { '*': string }; Querystring: Record<string, string> }>;

/** The one resource a request's physical id (narrowed by ?type, ?account, ?region) names, or the reply sent. */
function locate(deps: ControlDeps, req: IdRequest, reply: FastifyReply): WorldResource | undefined {
  const id = req.params['*'];
  const { type, account, region } = req.query;
  const found = deps.store.world
    .find(id)
    .filter(
      (r) => (!type || r.type === type) && (!account || r.account === account) && (!region || r.region === region),
    );
  if (found.length === 0) {
    void sendError(
      reply,
      404,
      `no resource with physical id ${id} in the simulated account${type || account || region ? ' matching the query' : ''}`,
    );
    return undefined;
  }
  if (found.length > 1) {
    const where = found.map((r) => `${r.type} in ${r.account}/${r.region}`).join(', ');
    void sendError(
      reply,
      409,
      `physical id ${id} names ${found.length} resources (${where}); add ?type=, ?account= or ?region= to pick one`,
    );
    return undefined;
  }
  return found[0];
}

function createError(body: Record<string, unknown>): string | undefined {
  if (typeof body.type !== 'string') return 'type is required: a resource type such as AWS::SSM::Parameter';
  if (!isKnownResourceType(body.type)) return `unknown resource type ${body.type}`;
  const strings = ['physicalId', 'name', 'account', 'region'];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'type') continue;
    if (strings.includes(key)) {
      if (typeof value !== 'string' || value === '') return `${key} must be a non-empty string`;
    } else if (key === 'properties' || key === 'attributes') {
      if (!isObject(value)) return `${key} must be a JSON object`;
    } else if (key === 'state') {
      if (!isObject(value)) return 'state must be a JSON object';
      const error = stateError(value, false);
      if (error) return `state: ${error}`;
    } else
      return `unknown field ${key}; allowed: type, properties, physicalId, name, account, region, attributes, state`;
  }
  if (body.account !== undefined && !/^\d{12}$/.test(body.account as string)) return 'account must be 12 digits';
  if (body.type === 'AWS::SSM::Parameter') {
    const name = (body.properties as Record<string, unknown> | undefined)?.Name ?? body.name ?? body.physicalId;
    if (typeof name === 'string') return reservedParameterNameMessage(name);
  }
  return undefined;
}

/** A physical resource created outside any stack: a name squatted, a parameter a template reads. */
function outsideResource(deps: ControlDeps, body: Record<string, unknown>): WorldResource {
  const account = (body.account as string | undefined) ?? deps.defaults?.account ?? '000000000000';
  const region = (body.region as string | undefined) ?? deps.defaults?.region ?? 'us-east-1';
  const type = body.type as string;
  const properties = (body.properties as Record<string, unknown> | undefined) ?? {};
  const ctx = { account, region, partition: partitionOf(region) };
  const identity = newIdentity({
    type,
    logicalId: 'Resource',
    stackName: 'outside',
    properties,
    ctx,
    random: cryptoRandom,
  });
  const physicalId = (body.physicalId as string | undefined) ?? identity.physicalId;
  const name = (body.name as string | undefined) ?? identity.name;
  const attributes =
    (body.attributes as Record<string, unknown> | undefined) ??
    attributeValues({ type, physicalId, name, properties, ctx, random: cryptoRandom });
  return {
    account,
    region,
    type,
    physicalId,
    name,
    createdAt: new Date().toISOString(),
    properties,
    attributes,
    state: (body.state as WorldResource['state'] | undefined) ?? {},
  };
}

export function registerWorldApi(app: FastifyInstance, deps: ControlDeps): void {
  app.get<{ Querystring: Record<string, string> }>(`${PREFIX}/world`, async (req, reply) => {
    const unknown = Object.keys(req.query).find((k) => !LIST_FILTERS.includes(k));
    if (unknown)
      return sendError(reply, 400, `unknown query parameter ${unknown}; allowed: ${LIST_FILTERS.join(', ')}`);
    const { stackName, ...filter } = req.query;
    const resources = deps.store.world
      .list(filter)
      .map(view)
      .filter((r) => !stackName || r.stackName === stackName);
    return { resources };
  });

  app.get(`${PREFIX}/world/*`, async (req: IdRequest, reply) => {
    const found = locate(deps, req, reply);
    return found ? view(found) : reply;
  });

  app.post(`${PREFIX}/world`, async (req, reply) => {
    const parsed = jsonBody(req);
    if ('error' in parsed) return sendError(reply, 400, parsed.error);
    const error = createError(parsed.body);
    if (error) return sendError(reply, 400, error);
    const resource = outsideResource(deps, parsed.body);
    const { account, region, type, physicalId, name } = resource;
    if (
      deps.store.world.get(account, region, type, physicalId) ||
      (name && deps.store.world.byName(account, region, type, name))
    ) {
      return sendError(
        reply,
        409,
        `Resource of type '${type}' with identifier '${name ?? physicalId}' already exists.`,
      );
    }
    deps.store.world.put(resource);
    return reply.status(201).send(view(resource));
  });

  app.patch(`${PREFIX}/world/*`, async (req: IdRequest, reply) => {
    const parsed = jsonBody(req);
    if ('error' in parsed) return sendError(reply, 400, parsed.error);
    const error = stateError(parsed.body);
    if (error) return sendError(reply, 400, error);
    const found = locate(deps, req, reply);
    if (!found) return reply;
    const { properties, ...state } = parsed.body;
    const updated: WorldResource = {
      ...found,
      properties: properties ? mergePatch(found.properties, properties as Record<string, unknown>) : found.properties,
      state: { ...found.state, ...state },
    };
    deps.store.world.put(updated);
    return view(updated);
  });

  app.delete(`${PREFIX}/world/*`, async (req: IdRequest, reply) => {
    const found = locate(deps, req, reply);
    if (!found) return reply;
    deps.store.world.remove(found.account, found.region, found.type, found.physicalId);
    return { deleted: found.physicalId, type: found.type };
  });
}
