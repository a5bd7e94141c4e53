// Lambda's Runtime API, served in-process on loopback for the execution environments cfn-local starts: each
// environment's bootstrap reaches it at AWS_LAMBDA_RUNTIME_API=127.0.0.1:<port>/<environment id>.
// https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_RESPONSE_BYTES } from './contract.js';

/** What an environment answers to its bootstrap's calls. */
export interface RuntimeApiClient {
  /** GET invocation/next: the response is held until there is an event. */
  next(res: ServerResponse): void;
  /** POST invocation/{id}/response; `tooLarge` when the body passed Invoke's 6 MB (its size). */
  respond(requestId: string, body: Buffer, tooLarge?: number): void;
  /** POST invocation/{id}/error. */
  fail(requestId: string, body: Buffer, errorType: string | undefined): void;
  /** POST init/error. */
  initFailed(body: Buffer, errorType: string | undefined): void;
}

const ROUTE =
  /^\/([A-Za-z0-9-]+)\/2018-06-01\/runtime\/(invocation\/next|invocation\/([^/]+)\/(response|error)|init\/error)$/;

/** Reads at most the limit (+1 to know it was passed): a runaway answer never fills the server's memory. */
async function readCapped(req: IncomingMessage): Promise<{ body: Buffer; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_RESPONSE_BYTES + 1) chunks.push(chunk as Buffer);
  }
  return { body: Buffer.concat(chunks), size };
}

export class RuntimeApi {
  private readonly clients = new Map<string, RuntimeApiClient>();
  private readonly server: Server = createServer((req, res) => void this.route(req, res));
  private port = 0;
  private starting?: Promise<void>;

  /** Listens on a free loopback port (once). */
  start(): Promise<void> {
    this.starting ??= new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => {
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
    return this.starting;
  }

  /** The AWS_LAMBDA_RUNTIME_API value of one environment. */
  address(id: string): string {
    return `127.0.0.1:${this.port}/${id}`;
  }

  register(id: string, client: RuntimeApiClient): void {
    this.clients.set(id, client);
  }

  unregister(id: string): void {
    this.clients.delete(id);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    if (this.starting) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = ROUTE.exec((req.url ?? '').split('?')[0]);
    const client = match ? this.clients.get(match[1]) : undefined;
    if (!match || !client) return answer(res, 404, { errorType: 'InvalidRequestID', errorMessage: 'unknown route' });
    if (match[2] === 'invocation/next') {
      if (req.method !== 'GET') return answer(res, 405, {});
      return client.next(res);
    }
    const { body, size } = await readCapped(req);
    const errorType = req.headers['lambda-runtime-function-error-type'];
    const type = typeof errorType === 'string' ? errorType : undefined;
    if (match[2] === 'init/error') client.initFailed(body, type);
    else if (match[4] === 'error') client.fail(match[3], body, type);
    else if (size > MAX_RESPONSE_BYTES) {
      client.respond(match[3], Buffer.alloc(0), size);
      return answer(res, 413, { errorType: 'RequestEntityTooLarge', errorMessage: 'response too large' });
    } else client.respond(match[3], body);
    answer(res, 202, { status: 'OK' });
  }
}

function answer(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
