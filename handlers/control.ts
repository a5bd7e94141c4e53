// The cfn-local control API on the same port: faults on demand, the simulated account's resources, reset, health.
// JSON in and out; a bad request gets 400 with a message.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { HandlerContext } from './context.js';
import { FAULT_ACTIONS, type FaultAction } from '../resources/faults.js';
import type { WorldState } from '../storage/world.js';

type Deps = Pick<HandlerContext, 'store' | 'engine' | 'faults'>;

const badRequest = (reply: FastifyReply, message: string) => reply.status(400).send({ error: 'BadRequest', message });
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function parseJson(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  if (body.trim() === '') return {};
  return JSON.parse(body);
}

const FAULT_FIELDS: Record<string, 'string' | 'number'> = {
  stackName: 'string', logicalId: 'string', resourceType: 'string', message: 'string', code: 'string', times: 'number', delayMs: 'number',
};

function faultError(body: unknown): string | undefined {
  if (!isObject(body)) return 'the body must be a JSON object';
  if (!FAULT_ACTIONS.includes(body.action as FaultAction)) return `action must be one of ${FAULT_ACTIONS.join(', ')}`;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'action') continue;
    const type = FAULT_FIELDS[key];
    if (!type) return `unknown field ${key}`;
    if (typeof value !== type) return `${key} must be a ${type}`;
    if (type === 'number' && (!Number.isInteger(value) || (value as number) < 0)) return `${key} must be a whole number ≥ 0`;
  }
  return undefined;
}

const STATE_FIELDS: Record<string, (v: unknown) => boolean> = {
  dataItems: (v) => Number.isInteger(v) && (v as number) >= 0,
  deletionProtection: (v) => typeof v === 'boolean',
  attachedOutside: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  properties: isObject,
};

export function registerControlApi(app: FastifyInstance, deps: Deps): void {
  app.get('/_cfn-local/health', async () => ({ status: 'ok' }));

  app.post('/_cfn-local/reset', async () => {
    await deps.engine.idle();
    deps.store.reset();
    deps.faults.remove();
    return { reset: true };
  });

  app.post('/_cfn-local/faults', async (req, reply) => {
    let body: unknown;
    try {
      body = parseJson(req.body);
    } catch {
      return badRequest(reply, 'the body is not valid JSON');
    }
    const error = faultError(body);
    if (error) return badRequest(reply, error);
    const fault = deps.faults.add(body as Parameters<typeof deps.faults.add>[0]);
    return reply.status(201).send({ id: fault.id });
  });
  app.get('/_cfn-local/faults', async () => ({ faults: deps.faults.list() }));
  app.delete('/_cfn-local/faults', async () => ({ removed: deps.faults.remove() }));
  app.delete<{ Params: { id: string } }>('/_cfn-local/faults/:id', async (req, reply) =>
    deps.faults.remove(req.params.id) ? { removed: true } : reply.status(404).send({ error: 'NotFound', message: `no fault ${req.params.id}` }));

  app.get<{ Querystring: { type?: string; account?: string; region?: string } }>('/_cfn-local/world', async (req) => ({
    resources: deps.store.world.list(req.query),
  }));

  app.patch<{ Params: { id: string } }>('/_cfn-local/world/:id', async (req, reply) => {
    let body: unknown;
    try {
      body = parseJson(req.body);
    } catch {
      return badRequest(reply, 'the body is not valid JSON');
    }
    if (!isObject(body)) return badRequest(reply, 'the body must be a JSON object');
    for (const [key, value] of Object.entries(body)) {
      if (!STATE_FIELDS[key]) return badRequest(reply, `unknown field ${key}`);
      if (!STATE_FIELDS[key](value)) return badRequest(reply, `invalid value for ${key}`);
    }
    const [found] = deps.store.world.find(req.params.id);
    if (!found) return reply.status(404).send({ error: 'NotFound', message: `no resource ${req.params.id}` });
    const { properties, ...state } = body as WorldState & { properties?: Record<string, unknown> };
    const updated = { ...found, properties: properties ? { ...found.properties, ...properties } : found.properties, state: { ...found.state, ...state } };
    deps.store.world.put(updated);
    return updated;
  });

  app.delete<{ Params: { id: string } }>('/_cfn-local/world/:id', async (req, reply) => {
    const [found] = deps.store.world.find(req.params.id);
    if (!found) return reply.status(404).send({ error: 'NotFound', message: `no resource ${req.params.id}` });
    deps.store.world.remove(found.account, found.region, found.type, found.physicalId);
    return { deleted: found.physicalId };
  });
}
