// One log line per call at info, as LocalStack prints them: `AWS cloudformation.CreateStack demo => 200 (3 ms)`.
// Every route on the port gets it from the same fastify hook: the AWS services (whatever their protocol), the
// control API and the signal URLs. What the wire does not say, a route adds with noteCall().
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { credentialScope } from './protocol/sigv4.js';

export interface CallNote {
  /** The SigV4 service name (`cloudformation`, `s3`, `ssm`…), or `cfn-local` for its own endpoints. */
  service: string;
  /** The AWS action (`CreateStack`, `PutObject`), or `METHOD /path` for cfn-local's endpoints. */
  action: string;
  /** The stack or bucket the call is about. */
  resource?: string;
  /** AWS's error code when the call failed. */
  errorCode?: string;
}

const NOTES = new WeakMap<FastifyRequest, Partial<CallNote>>();

/** Lets a route say what the wire cannot (an S3 REST action's name, say); the rest is read off the request. */
export function noteCall(req: FastifyRequest, note: Partial<CallNote>): void {
  NOTES.set(req, { ...NOTES.get(req), ...note });
}

/** A stack ARN names its stack: `arn:aws:cloudformation:…:stack/demo/<uuid>` → `demo`. */
export const stackName = (value: unknown) =>
  typeof value !== 'string'
    ? undefined
    : value.startsWith('arn:')
      ? (/:stack\/([^/]+)/.exec(value)?.[1] ?? value)
      : value;

/**
 * What the request line and headers say; services read their bodies themselves (server/dispatch.ts), so a form
 * body's Action is noted by the service that decodes it.
 */
function fromWire(req: FastifyRequest): CallNote {
  const path = req.url.split('?')[0];
  if (path.startsWith('/_cfn-local/')) return { service: 'cfn-local', action: `${req.method} ${path}` };
  const query = (req.query ?? {}) as Record<string, string | undefined>;
  const scope = credentialScope(req.headers.authorization ?? query['X-Amz-Credential']);
  const target = req.headers['x-amz-target'];
  // An unsigned call with nothing else to go by is CloudFormation's, the port's first service (server/services).
  const service = scope?.service ?? 'cloudformation';
  const action =
    typeof target === 'string' ? (target.split('.').pop() ?? target) : (query.Action ?? `${req.method} ${path}`);
  const bucket = service === 's3' ? path.split('/')[1] || undefined : undefined;
  return { service, action, resource: stackName(query.StackName) ?? bucket };
}

/** AWS's error code in an error body: XML `<Code>`, awsJson `__type`, or the control API's `error`. */
export function errorCodeIn(payload: unknown): string | undefined {
  const text =
    typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8', 0, 4096) : '';
  return (
    /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ??
    /"__type"\s*:\s*"(?:[^"#]*#)?([^"]+)"/.exec(text)?.[1] ??
    /"(?:code|error)"\s*:\s*"([^"]+)"/.exec(text)?.[1]
  );
}

export function describeCall(call: CallNote, status: number, ms: number): string {
  const prefix = call.service === 'cfn-local' ? 'cfn-local' : `AWS ${call.service}.${call.action}`;
  const what = call.service === 'cfn-local' ? call.action : call.resource;
  return [prefix, what, '=>', status, call.errorCode, `(${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms)`]
    .filter((part) => part !== undefined && part !== '')
    .join(' ');
}

/** Health checks come every few seconds from Docker: they are logged at debug, not info. */
const QUIET_PATHS = new Set(['/_cfn-local/health']);

export function registerRequestLog(fastify: FastifyInstance, log: Logger): void {
  fastify.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    if (reply.statusCode >= 400 && log.isLevelEnabled('info') && !NOTES.get(req)?.errorCode) {
      const errorCode = errorCodeIn(payload);
      if (errorCode) noteCall(req, { errorCode });
    }
    done(null, payload);
  });
  fastify.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done) => {
    const level = QUIET_PATHS.has(req.url) ? 'debug' : 'info';
    if (log.isLevelEnabled(level)) {
      const call = { ...fromWire(req), ...NOTES.get(req) };
      const ms = reply.elapsedTime;
      log[level](
        { call: { ...call, status: reply.statusCode, durationMs: Math.round(ms * 10) / 10 } },
        describeCall(call, reply.statusCode, ms),
      );
    }
    done();
  });
}
