// The cfn-local control API on the same port (docs/control-api.md): health, reset, faults on demand; the simulated
// account's resources are in controlWorld.ts. JSON in and out; bad input gets 400 with a message saying what is wrong.
import type { FastifyInstance } from 'fastify';
import { FAULT_ACTIONS, MAX_DELAY_MS, type FaultAction } from '../../resources/faults.js';
import { registerWorldApi } from './controlWorld.js';
import { registerOrganizationApi } from './controlOrganization.js';
import { registerHookVerdictApi } from './controlHooks.js';
import { registerRegistryApi } from './controlRegistry.js';
import { PREFIX, jsonBody, sendError, type ControlDeps } from './controlHttp.js';

export type { ControlDeps } from './controlHttp.js';

const FAULT_FIELDS: Partial<Record<string, 'string' | 'number'>> = {
  stackName: 'string',
  logicalId: 'string',
  resourceType: 'string',
  message: 'string',
  code: 'string',
  times: 'number',
  delayMs: 'number',
};

function faultError(body: Record<string, unknown>): string | undefined {
  if (body.action === undefined) return `action is required: one of ${FAULT_ACTIONS.join(', ')}`;
  if (!FAULT_ACTIONS.includes(body.action as FaultAction))
    return `action must be one of ${FAULT_ACTIONS.join(', ')} (got ${JSON.stringify(body.action)})`;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'action') continue;
    const type = FAULT_FIELDS[key];
    if (!type) return `unknown field ${key}; allowed: action, ${Object.keys(FAULT_FIELDS).join(', ')}`;
    if (typeof value !== type) return `${key} must be a ${type} (got ${JSON.stringify(value)})`;
    if (type === 'number' && (!Number.isInteger(value) || (value as number) < 0))
      return `${key} must be a whole number >= 0 (got ${JSON.stringify(value)})`;
    if (key === 'delayMs' && (value as number) > MAX_DELAY_MS)
      return `delayMs must be at most ${MAX_DELAY_MS} (got ${JSON.stringify(value)})`;
    if (type === 'string' && value === '') return `${key} must not be empty`;
  }
  return undefined;
}

function registerFaults(app: FastifyInstance, deps: ControlDeps): void {
  app.post(`${PREFIX}/faults`, async (req, reply) => {
    const parsed = jsonBody(req);
    if ('error' in parsed) return sendError(reply, 400, parsed.error);
    const error = faultError(parsed.body);
    if (error) return sendError(reply, 400, error);
    const fault = deps.faults.add(parsed.body as unknown as Parameters<typeof deps.faults.add>[0]);
    return reply.status(201).send({ id: fault.id });
  });
  app.get(`${PREFIX}/faults`, async () => ({ faults: deps.faults.list() }));
  app.delete(`${PREFIX}/faults`, async () => {
    const removed = deps.faults.list().length;
    deps.faults.remove();
    return { removed };
  });
  app.delete<{ Params: { id: string } }>(`${PREFIX}/faults/:id`, async (req, reply) =>
    deps.faults.remove(req.params.id) ? { removed: 1 } : sendError(reply, 404, `no fault with id ${req.params.id}`),
  );
}

/** Stops the account's running operations (their waits end as aborted) and waits until none is left running. */
async function stopAccount(deps: ControlDeps, account: string, region?: string): Promise<void> {
  const mine = () =>
    [...deps.engine.running.values()].filter(
      (rt) => rt.stack.account === account && (!region || rt.stack.region === region),
    );
  for (const rt of mine()) rt.stop.abort();
  while (mine().length) await new Promise((resolve) => setTimeout(resolve, 5));
}

export function registerControlApi(app: FastifyInstance, deps: ControlDeps): void {
  app.get(`${PREFIX}/health`, async () => ({ status: 'ok' }));

  // Waits in flight (wait conditions, custom resources) end first, so the operations holding them can finish.
  // ?account= (and ?region=) empties one account only, so users sharing a server do not wipe each other's stacks.
  app.post<{ Querystring: Partial<Record<string, string>> }>(`${PREFIX}/reset`, async (req, reply) => {
    const { account, region } = req.query;
    if (account === undefined) {
      if (region !== undefined)
        return sendError(reply, 400, 'region needs account: reset ?account=<12 digits>&region=<region>');
      deps.engine.deps.providerEnv?.signals.cancelAll();
      await deps.engine.idle();
      deps.store.reset();
      deps.faults.remove();
      deps.engine.deps.hooks?.verdicts.remove();
      return { reset: true };
    }
    if (!/^\d{12}$/.test(account))
      return sendError(reply, 400, `account must be 12 digits (got ${JSON.stringify(account.slice(0, 64))})`);
    await stopAccount(deps, account, region);
    deps.store.resetAccount(account, region);
    return { reset: true, account, ...(region ? { region } : {}) };
  });

  registerFaults(app, deps);
  registerWorldApi(app, deps);
  registerOrganizationApi(app, deps);
  registerHookVerdictApi(app, deps);
  registerRegistryApi(app, deps);
}
