// The control API's optional token (--control-token): when set, every /_cfn-local/* call but the health check and
// the signal URLs (which carry their own signature) must present it; unset, the control API is open as before.
// The one place that decides it: the route the router matched, never the raw URL (see controlRoute).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PREFIX } from './controlHttp.js';
import { HANDLE_PATH } from '../../resources/cloudformation.js';
import { RESPONSE_PATH } from '../../resources/customResources.js';

/**
 * Route patterns open without the token: the health check, the signal URLs (signed on their own), and the console's
 * page and assets, which hold no data (every read the page makes is guarded; it asks for the token).
 */
const OPEN_PATHS = [`${PREFIX}/health`, `${PREFIX}/console`, HANDLE_PATH, RESPONSE_PATH];

/** The token a request presents: `Authorization: Bearer <token>` or `X-Cfn-Local-Token: <token>`. */
function presented(req: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const header = req.headers['x-cfn-local-token'];
  return bearer ?? (typeof header === 'string' ? header : undefined);
}

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
function matches(given: string, token: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * Whether a request is the control API's, and guarded: decided on the route pattern the router matched, as the
 * router sees the path (percent-decoded, absolute-form request lines reduced to their path). Comparing the raw URL
 * let `/%5Fcfn-local/reset`, `/_cfn-loca%6c/world` and `GET http://host/_cfn-local/world` through (#25).
 */
export function isGuarded(route: string | undefined): boolean {
  if (route === undefined || !(route === PREFIX || route.startsWith(`${PREFIX}/`))) return false;
  return !OPEN_PATHS.some((open) => route.startsWith(open));
}

export function guardControlApi(app: FastifyInstance, token: string | undefined): void {
  if (!token) return;
  // onRequest runs once routing is done: routeOptions.url is the matched pattern (undefined for a 404).
  app.addHook('onRequest', async (req, reply) => {
    if (!isGuarded(req.routeOptions.url)) return;
    const given = presented(req);
    if (given !== undefined && matches(given, token)) return;
    return reply
      .status(401)
      .header('www-authenticate', 'Bearer realm="cfn-local"')
      .send({
        error: 'Unauthorized',
        message:
          given === undefined
            ? 'this server has a control token: send it as Authorization: Bearer <token> (or X-Cfn-Local-Token)'
            : 'the control token does not match',
      });
  });
}
