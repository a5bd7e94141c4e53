// What the control API's route files share: the path prefix, the JSON body reader, the error reply.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerContext } from '../../handlers/cloudformation/context.js';
import type { Store } from '../../storage/index.js';
import type { BackendEndpoint } from '../../resources/provider.js';
import { isObject } from '../../domain/values.js';

export { isObject };

/** The control API changes the account out of band: it holds the whole store, not a handler's read-only one. */
export type ControlDeps = Pick<HandlerContext, 'engine' | 'faults'> & {
  store: Store;
  /** The account and region a resource created over the control API lands in when the body names none. */
  defaults?: { account: string; region: string };
  /** The backend, with --backend: the console asks it what its resources hold. */
  backend?: BackendEndpoint;
};

export const PREFIX = '/_cfn-local';

const ERROR_NAMES = { 400: 'BadRequest', 404: 'NotFound', 409: 'Conflict', 502: 'BadGateway' } as const;

export function sendError(reply: FastifyReply, status: keyof typeof ERROR_NAMES, message: string) {
  const error = ERROR_NAMES[status];
  return reply.status(status).send({ error, message });
}

/** The JSON body as an object, or the 400 message explaining why it is not one. */
export function jsonBody(req: FastifyRequest): { body: Record<string, unknown> } | { error: string } {
  let body: unknown = req.body;
  if (typeof body === 'string') {
    if (body.trim() === '') return { error: 'the body is empty: send a JSON object' };
    try {
      body = JSON.parse(body);
    } catch (err) {
      return { error: `the body is not valid JSON (${(err as Error).message})` };
    }
  }
  if (body === undefined) return { error: 'the body is empty: send a JSON object with Content-Type: application/json' };
  return isObject(body) ? { body } : { error: 'the body must be a JSON object' };
}
