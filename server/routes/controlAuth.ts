// The control API's optional token (--control-token): when set, every /_cfn-local/* call but the health check and
// the signal URLs (which carry their own signature) must present it; unset, the control API is open as before.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PREFIX } from './controlHttp.js';
import { HANDLE_PATH } from '../../resources/cloudformation.js';
import { RESPONSE_PATH } from '../../resources/customResources.js';

// The console's page and assets hold no data (every read it makes is guarded): a browser loads it, then asks for the token.
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

export function guardControlApi(app: FastifyInstance, token: string | undefined): void {
  if (!token) return;
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0];
    if (!path.startsWith(`${PREFIX}/`) || OPEN_PATHS.some((open) => path.startsWith(open))) return;
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
