// server: how the HTTP server treats connections: its timeouts, what a client whose request Node's parser refuses
// (431, 400) or times out (408) is answered, and which connections closing the server ends at once. server/app.ts
// hands them to fastify.
import type { Socket } from 'node:net';
import { STATUS_CODES, type Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';

/**
 * A slow or idle sender cannot hold a connection forever (fastify turns Node's request timeout off): the whole
 * request within Node's default 300 s, the headers within 60 s, a socket silent for 120 s closed, an idle
 * keep-alive connection kept 72 s (longer than the 60 s idle timeout of AWS's load balancers, as fastify sets it).
 */
export const SERVER_TIMEOUTS = {
  requestTimeout: 300_000,
  connectionTimeout: 120_000,
  keepAliveTimeout: 72_000,
  headersTimeout: 60_000,
};

export type ServerTimeouts = typeof SERVER_TIMEOUTS;

/**
 * How often Node looks for connections past the headers or request timeout. Its default, 30 s, let a connection
 * with no complete headers live up to 90 s; a twelfth of the headers timeout (5 s by default) keeps it near 60 s.
 */
export const checkingInterval = (t: ServerTimeouts) => Math.max(50, Math.min(5_000, Math.round(t.headersTimeout / 12)));

/** How long a refused connection keeps reading (and dropping) what the client still sends before it is closed. */
export const LINGER_MS = 2_000;

const answered = new WeakSet<Socket>();

function statusOf(err: NodeJS.ErrnoException): { status: number; message: string } {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'Client Timeout' };
  if (err.code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'Exceeded maximum allowed HTTP header size' };
  return { status: 400, message: 'Client Error' };
}

/**
 * fastify's clientErrorHandler. fastify's own answered without `Connection: close` and destroyed the socket at
 * once: a keep-alive client took the connection for reusable and met a reset on its next request, and a client
 * still sending (a 70 KB request line) got a reset instead of the answer, as closing a socket with unread input
 * sends RST. Here the answer says `Connection: close`, the socket half-closes after it, and what the client still
 * sends is read and dropped for LINGER_MS (nginx's lingering close) before the socket is destroyed.
 */
export function clientErrorHandler(this: { log: FastifyBaseLogger }, err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
  answered.add(socket);
  this.log.debug({ err: err.message, code: err.code }, 'refused a request the HTTP parser could not take');
  if (!socket.writable) return void socket.destroy();
  const { status, message } = statusOf(err);
  const body = JSON.stringify({ error: STATUS_CODES[status], message, statusCode: status });
  const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n`;
  socket.end(`${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
  socket.resume();
}

/**
 * What closing the server does first: end every connection with no request in flight, and any that opens from then
 * on. Node's server.close() waits for every connection to end, and its closeIdleConnections (what fastify calls)
 * leaves out one on which nothing was ever sent, such as a browser's preconnect or an HTTP pool's spare socket: one
 * held close() until the headers timeout ended it, up to 60 s. A connection with a request in flight is left to
 * finish it (a feed's stream is ended by its own route).
 */
export function idleConnectionCloser(server: Server): () => void {
  const open = new Set<Socket>();
  const inFlight = new Map<Socket, number>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    if (closing) return void socket.destroy();
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      if (left > 0) inFlight.set(socket, left);
      else inFlight.delete(socket);
      if (closing && left <= 0) socket.destroy();
    });
  });
  return () => {
    closing = true;
    for (const socket of open) if (!inFlight.has(socket)) socket.destroy();
  };
}
