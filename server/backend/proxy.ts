// The one endpoint: a request for a service cfn-local does not serve goes to the backend as it came (method, path,
// query, headers, the body streamed) and the backend's answer comes back unchanged, streamed.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BackendEndpoint } from '../../resources/provider.js';

/** Forwards the request; resolves once the answer has been streamed back (or the failure answered). */
export async function forward(
  req: FastifyRequest,
  reply: FastifyReply,
  body: Readable,
  backend: BackendEndpoint,
  onFailure: (reason: string) => void,
): Promise<void> {
  let base: URL;
  try {
    base = new URL(await backend.url());
  } catch (err) {
    return onFailure(`the backend is not available: ${(err as Error).message}`);
  }
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  reply.hijack();
  await new Promise<void>((resolve) => {
    const outgoing = send(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port || undefined,
        method: req.method,
        // the path as the client wrote it: the signature covers it, and moto reads it raw
        path: `${base.pathname.replace(/\/$/, '')}${req.raw.url ?? '/'}`,
        headers: req.raw.headers,
      },
      (answer: IncomingMessage) => {
        reply.raw.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        pipeline(answer, reply.raw, () => resolve());
      },
    );
    outgoing.on('error', (err) => {
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(502, { 'content-type': 'text/plain' });
        reply.raw.end(`cfn-local: the backend at ${base.origin} did not answer: ${err.message}`);
      } else reply.raw.destroy(err);
      resolve();
    });
    pipeline(body, outgoing, () => {});
  });
}
