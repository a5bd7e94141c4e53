// The control API's last route: every path under /_cfn-local/ belongs to it, so a mistyped one gets a JSON 404
// that lists the routes there are, instead of falling through to the S3 endpoint as a bucket named `_cfn-local`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PREFIX } from './controlHttp.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/** Starts noting the control API's routes as they are registered; call before registering them. */
export function noteControlRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${PREFIX}/`) || route.url === `${PREFIX}/*`) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
  });
  return routes;
}

export function registerControlFallback(app: FastifyInstance, routes: readonly string[]): void {
  void app.register(async (plugin) => {
    plugin.removeAllContentTypeParsers();
    plugin.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    const notFound = async (req: FastifyRequest, reply: FastifyReply) => {
      const path = req.url.split('?')[0].slice(0, 200);
      return reply.status(404).send({
        error: 'NotFound',
        message: `the control API has no route ${req.method} ${path}`,
        routes: [...new Set(routes)].sort(),
      });
    };
    for (const url of [PREFIX, `${PREFIX}/*`])
      plugin.route({ method: [...METHODS], url, handler: notFound, exposeHeadRoute: false });
  });
}
