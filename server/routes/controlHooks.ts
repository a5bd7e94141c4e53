// The control API's hook verdicts (docs/hooks.md): decide what an activated hook answers, by hook type, target,
// stack, logical id or resource type, the way /faults decides what a resource's action does.
import type { FastifyInstance } from 'fastify';
import {
  HOOK_ACTIONS,
  HOOK_TARGET_TYPES,
  HOOK_VERDICTS,
  type HookVerdictSpec,
  type HookVerdicts,
} from '../../state-machine/hooks/verdicts.js';
import { PREFIX, jsonBody, sendError, type ControlDeps } from './controlHttp.js';

const ENUMS: Partial<Record<string, readonly string[]>> = {
  status: HOOK_VERDICTS,
  targetType: HOOK_TARGET_TYPES,
  action: HOOK_ACTIONS,
};
const STRINGS = new Set(['typeName', 'stackName', 'logicalId', 'resourceType', 'message']);

function verdictError(body: Record<string, unknown>): string | undefined {
  if (body.status === undefined) return `status is required: one of ${HOOK_VERDICTS.join(', ')}`;
  for (const [key, value] of Object.entries(body)) {
    const allowed = ENUMS[key];
    if (allowed) {
      if (!allowed.includes(value as string))
        return `${key} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`;
    } else if (STRINGS.has(key)) {
      if (typeof value !== 'string' || value === '') return `${key} must be a non-empty string`;
    } else if (key === 'times') {
      if (!Number.isInteger(value) || (value as number) < 1)
        return `times must be a whole number >= 1 (got ${JSON.stringify(value)})`;
    } else {
      return `unknown field ${key}; allowed: ${[...Object.keys(ENUMS), ...STRINGS, 'times'].join(', ')}`;
    }
  }
  return undefined;
}

export function registerHookVerdictApi(app: FastifyInstance, deps: ControlDeps): void {
  const verdicts = (): HookVerdicts | undefined => deps.engine.deps.hooks?.verdicts;
  app.post(`${PREFIX}/hooks/verdicts`, async (req, reply) => {
    const parsed = jsonBody(req);
    if ('error' in parsed) return sendError(reply, 400, parsed.error);
    const error = verdictError(parsed.body);
    if (error) return sendError(reply, 400, error);
    const door = verdicts();
    if (!door) return sendError(reply, 409, 'this server runs no hooks');
    const verdict = door.add(parsed.body as unknown as Omit<HookVerdictSpec, 'id'>);
    return reply.status(201).send({ id: verdict.id });
  });
  app.get(`${PREFIX}/hooks/verdicts`, async () => ({ verdicts: verdicts()?.list() ?? [] }));
  app.delete(`${PREFIX}/hooks/verdicts`, async () => {
    const removed = verdicts()?.list().length ?? 0;
    verdicts()?.remove();
    return { removed };
  });
  app.delete<{ Params: { id: string } }>(`${PREFIX}/hooks/verdicts/:id`, async (req, reply) =>
    verdicts()?.remove(req.params.id)
      ? { removed: 1 }
      : sendError(reply, 404, `no hook verdict with id ${req.params.id}`),
  );
}
