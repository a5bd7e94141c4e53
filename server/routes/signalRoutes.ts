// The URLs the outside world answers on: wait condition handles (PUT a signal, as to AWS's presigned S3 URL) and
// custom resource ResponseURLs (PUT the handler's response). Bodies are taken whatever their Content-Type, as S3
// takes them (`curl -X PUT -H 'Content-Type:' --data-binary '{…}' "$URL"`).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../../storage/index.js';
import type { SignalHub } from '../../resources/signalHub.js';
import { HANDLE_PATH, HANDLE_TYPE, type HandleState, type WaitSignal } from '../../resources/cloudformation.js';
import { MAX_RESPONSE_BYTES, RESPONSE_PATH, TOO_LONG } from '../../resources/customResources.js';
import { checkPresigned, s3ErrorXml } from '../../resources/presign.js';

interface Deps {
  store: Store;
  signals: SignalHub;
  /** The key the URLs were presigned with: a PUT must carry a valid, unexpired signature, as S3 requires. */
  signingKey: Buffer;
}

/** S3 checks the presigned query before anything else: a refused PUT learns nothing about the handle or request. */
function refused(deps: Deps, req: FastifyRequest, reply: FastifyReply) {
  const refusal = checkPresigned(
    req.url.split('?')[0],
    req.query as Record<string, string>,
    deps.signingKey,
    new Date(),
  );
  if (!refusal) return undefined;
  const requestId = randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase();
  return reply
    .status(refusal.status)
    .type('application/xml')
    .header('x-amz-request-id', requestId)
    .send(s3ErrorXml(refusal, requestId));
}

const fail = (reply: FastifyReply, status: number, error: string, message: string) =>
  reply.status(status).send({ error, message });

function parse(body: unknown): unknown {
  try {
    return typeof body === 'string' ? JSON.parse(body) : undefined;
  } catch {
    return undefined;
  }
}

function asSignal(value: unknown): WaitSignal | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (v.Status !== 'SUCCESS' && v.Status !== 'FAILURE') return undefined;
  if (typeof v.UniqueId !== 'string' || v.UniqueId === '') return undefined;
  const text = (x: unknown) =>
    x === undefined || x === null ? undefined : typeof x === 'string' ? x : JSON.stringify(x);
  return { Status: v.Status, UniqueId: v.UniqueId, Reason: text(v.Reason), Data: text(v.Data) };
}

function putSignal(deps: Deps, key: string, body: unknown, reply: FastifyReply) {
  const handle = deps.store.world.list({ type: HANDLE_TYPE }).find((r) => r.name === key);
  if (!handle)
    return fail(
      reply,
      404,
      'NoSuchWaitConditionHandle',
      `No wait condition handle ${key}: its stack was deleted, or the URL is not one cfn-local gave out.`,
    );
  const signal = asSignal(parse(body));
  const state = handle.state as HandleState;
  // a UniqueId already received is "a retransmission of the previously sent signal" that AWS ignores
  // (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/using-cfn-waitcondition.html)
  const next: HandleState = !signal
    ? { ...state, unparsable: true }
    : state.signals?.[signal.UniqueId]
      ? state
      : { ...state, signals: { ...state.signals, [signal.UniqueId]: signal } };
  deps.store.world.put({ ...handle, state: next });
  deps.signals.notify(key);
  if (!signal) {
    return fail(
      reply,
      400,
      'UnparsableSignal',
      'The signal must be a JSON object with "Status": "SUCCESS" | "FAILURE" and a non-empty "UniqueId" (optional "Reason", "Data"). As on AWS, the wait condition fails with "Unparsable WaitCondition data".',
    );
  }
  return reply.status(200).send();
}

const RESPONSE_STATUSES = new Set(['SUCCESS', 'FAILED']);

function responseError(
  body: unknown,
  expected: { stackId: string; logicalId: string; requestId: string },
): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'The response must be a JSON object.';
  const r = body as Record<string, unknown>;
  if (!RESPONSE_STATUSES.has(r.Status as string)) return 'Status must be "SUCCESS" or "FAILED".';
  const matches: [string, string][] = [
    ['StackId', expected.stackId],
    ['RequestId', expected.requestId],
    ['LogicalResourceId', expected.logicalId],
  ];
  for (const [field, value] of matches) {
    if (r[field] !== undefined && r[field] !== value) return `${field} does not match the request (expected ${value}).`;
  }
  if (r.Data !== undefined && (typeof r.Data !== 'object' || r.Data === null || Array.isArray(r.Data)))
    return 'Data must be a JSON object.';
  return undefined;
}

function putResponse(deps: Deps, key: string, body: unknown, reply: FastifyReply) {
  const requestId = key.split('|').pop() ?? '';
  const pending = deps.signals.request(requestId);
  if (!pending) {
    const finished = deps.signals.finishedReason(requestId);
    if (finished)
      return fail(
        reply,
        410,
        'RequestFinished',
        `Custom resource request ${requestId} no longer takes a response: it was already ${finished}.`,
      );
    return fail(reply, 404, 'NoSuchRequest', `No custom resource request ${requestId} is waiting for a response.`);
  }
  const text = typeof body === 'string' ? body : '';
  if (Buffer.byteLength(text) > MAX_RESPONSE_BYTES) {
    deps.signals.respond(requestId, { [TOO_LONG]: true });
    return fail(
      reply,
      400,
      'ResponseTooLong',
      `The response is longer than ${MAX_RESPONSE_BYTES} bytes; the resource fails with "Response object is too long." as on AWS.`,
    );
  }
  const parsed = parse(body);
  if (parsed === undefined) return fail(reply, 400, 'InvalidJson', 'The response body is not valid JSON.');
  const error = responseError(parsed, { ...pending, requestId });
  if (error) return fail(reply, 400, 'InvalidResponse', error);
  deps.signals.respond(requestId, parsed as Record<string, unknown>);
  return reply.status(200).send();
}

export function registerSignalRoutes(app: FastifyInstance, deps: Deps): void {
  void app.register(async (plugin) => {
    plugin.removeAllContentTypeParsers();
    plugin.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    // An empty Content-Type (what the documented curl sends) would otherwise be refused before any parser runs.
    plugin.addHook('onRequest', async (req) => {
      if (!req.headers['content-type']) req.headers['content-type'] = 'application/octet-stream';
    });
    plugin.put(
      `${HANDLE_PATH}*`,
      async (req, reply) =>
        refused(deps, req, reply) ?? putSignal(deps, (req.params as Record<string, string>)['*'], req.body, reply),
    );
    plugin.put(
      `${RESPONSE_PATH}*`,
      async (req, reply) =>
        refused(deps, req, reply) ?? putResponse(deps, (req.params as Record<string, string>)['*'], req.body, reply),
    );
  });
}
