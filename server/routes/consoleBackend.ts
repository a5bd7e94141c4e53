// The console's read of what a resource in the backend holds (docs/control-api.md#the-consoles-reads-and-live-feed):
// GET /_cfn-local/backend-counts?account=&region=&type=&id=<physical id> → a queue's approximate message counts or a
// table's item count, asked of the backend when the console shows the resource.
import type { FastifyInstance } from 'fastify';
import { backendCounts, COUNTED_TYPES } from '../../resources/backend/counts.js';
import { codeOf, isNotFound } from '../../resources/backend/errors.js';
import { PREFIX, sendError, type ControlDeps } from './controlHttp.js';

type CountsQuery = { Querystring: { account?: string; region?: string; type?: string; id?: string } };

export function registerConsoleBackend(app: FastifyInstance, deps: ControlDeps): void {
  app.get<CountsQuery>(`${PREFIX}/backend-counts`, async (req, reply) => {
    const { account, region, type, id } = req.query;
    if (!account || !region || !type || !id) return sendError(reply, 400, 'account, region, type and id are required');
    if (!COUNTED_TYPES.includes(type))
      return sendError(reply, 400, `${type} has no counts; types with counts: ${COUNTED_TYPES.join(', ')}`);
    const found = deps.store.world.get(account, region, type, id);
    if (!found) return sendError(reply, 404, `no ${type} ${id.slice(0, 256)} in ${account}/${region}`);
    const { backend } = deps;
    if (!backend || found.state.lives !== 'backend')
      return sendError(
        reply,
        400,
        `${type} ${id.slice(0, 256)} is simulated: only a resource in the backend has counts`,
      );
    try {
      return { counts: await backendCounts(backend, found) };
    } catch (err) {
      if (isNotFound(err)) return sendError(reply, 404, `the backend no longer holds ${type} ${id.slice(0, 256)}`);
      return sendError(reply, 502, `the backend did not answer: ${codeOf(err)}: ${(err as Error).message}`);
    }
  });
}
