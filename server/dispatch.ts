// The AWS endpoint on `/` and every other path the control API does not own: each request goes to its service in
// SERVICES (server/services), which reads the body itself (a stream: S3 bodies are never buffered here).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { v4 as uuidv4 } from 'uuid';
import { route, routingFacts, scopeOf, type ServiceDeps } from './services/index.js';
import type { Readable } from 'node:stream';
import { noteCall } from './requestLog.js';
import { accountOfAccessKeyId } from '../domain/accessKeys.js';
import { forward } from './backend/proxy.js';
import { answerUnserved, unservedMessage } from './backend/unserved.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/**
 * The account a request lands in: a 12-digit access key id is the account itself; a temporary key id (`ASIA…`,
 * as STS hands out) carries its account as AWS's do (domain/accessKeys.ts); any other key gets the default.
 */
function accountOf(accessKey: string | undefined): string | undefined {
  if (!accessKey) return undefined;
  if (/^\d{12}$/.test(accessKey)) return accessKey;
  return accessKey.startsWith('ASIA') ? accountOfAccessKeyId(accessKey) : undefined;
}

function callerOf(req: FastifyRequest, query: Record<string, string>, defaults: ServiceDeps['defaults']) {
  const scope = scopeOf(req, query);
  const accessKey = scope?.accessKeyId;
  return {
    account: accountOf(accessKey) ?? defaults.account,
    region: scope?.region || defaults.region,
  };
}

/**
 * The query string with one text per name. A repeated name (`tagKeys=a&tagKeys=b`, how the SDKs send a restJson
 * list) arrives as an array, which every decoder took for a string (`r.split is not a function`, a 500): its values
 * are joined with commas, as repeated headers are, which a list member splits again.
 */
export function flatQuery(query: Record<string, string | string[]>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) flat[name] = Array.isArray(value) ? value.join(',') : value;
  return flat;
}

/** Registers the AWS endpoint in its own plugin (Fastify encapsulation), where every body is handed over unread. */
export function registerAwsEndpoint(app: FastifyInstance, deps: ServiceDeps): void {
  app.register(async (plugin) => {
    plugin.removeAllContentTypeParsers();
    plugin.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    const serve = async (req: FastifyRequest, reply: FastifyReply) => {
      const query = flatQuery(req.query as Record<string, string | string[]>);
      const facts = routingFacts(req, query);
      const requestId = uuidv4();
      const routed = route(req, facts);
      noteCall(req, { service: 'unknownService' in routed ? routed.unknownService : routed.service.signingName });
      // With no body (or no Content-Type, a GET) fastify hands over nothing: the raw request is the (empty) stream.
      const body = (req.body as Readable | undefined) ?? req.raw;
      if ('unknownService' in routed) {
        const name = routed.unknownService;
        if (!deps.backend) return answerUnserved(req, reply, requestId, unservedMessage(name));
        return forward(req, reply, body, deps.backend, (reason) => {
          void answerUnserved(req, reply, requestId, unservedMessage(name, reason), 503);
        });
      }
      const caller = callerOf(req, query, deps.defaults);
      return routed.service.handle({ req, reply, body, query, caller, requestId, deps });
    };
    plugin.route({ method: [...METHODS], url: '/', handler: serve, exposeHeadRoute: false });
    plugin.route({ method: [...METHODS], url: '/*', handler: serve, exposeHeadRoute: false });
  });
}
