// The console's live feed: GET /_cfn-local/feed streams server-sent events of stack rows and stack events as they are
// committed (storage/feed.ts), so a browser sees an operation run without polling any stack.
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Change, Store } from '../../storage/index.js';
import { shownInStackEvents } from '../../handlers/cloudformation/events.js';
import { consoleEvent, stackRow } from './consoleApi.js';
import { PREFIX } from './controlHttp.js';

/** A comment line this often keeps proxies and the server's idle-socket timeout from closing a quiet feed. */
export const HEARTBEAT_MS = 15_000;

const nameOf = (stackId: string) => stackId.split(':stack/')[1]?.split('/')[0] ?? '';

/** One message of the feed, as the console reads it. */
function message(change: Change) {
  if (change.kind === 'stack') return { kind: 'stack', stack: stackRow(change.stack) };
  if (change.kind === 'event') {
    const { event } = change;
    return { kind: 'event', event: consoleEvent(event, nameOf(event.stackId)) };
  }
  return change;
}

/** Writes a connection's changes once their group has committed: a stack row changed twice in a turn is sent once. */
function streamTo(store: Store, res: ServerResponse): (change: Change) => void {
  let pending: Change[] = [];
  const send = () => {
    const batch = pending;
    pending = [];
    const latest = new Map<string, number>();
    batch.forEach((c, i) => c.kind === 'stack' && latest.set(c.stack.stackId, i));
    const lines = batch
      .filter((c, i) => c.kind !== 'stack' || latest.get(c.stack.stackId) === i)
      .map((c) => `data: ${JSON.stringify(message(c))}\n\n`);
    if (!res.writableEnded) res.write(lines.join(''));
  };
  return (change) => {
    if (change.kind === 'event' && !shownInStackEvents(change.event)) return;
    if (pending.push(change) === 1) store.afterCommit(send);
  };
}

export function registerConsoleFeed(app: FastifyInstance, store: Store): void {
  const open = new Set<ServerResponse>();
  app.get(`${PREFIX}/feed`, (_req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
    });
    res.write(`retry: 1000\n: cfn-local feed\n\n`);
    open.add(res);
    const unsubscribe = store.feed.subscribe(streamTo(store, res));
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    res.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
      // the reader went away: its connection carries nothing else (a feed never ends, so it is never reused)
      res.socket?.destroy();
    });
  });
  // A feed never ends by itself: closing the server ends each one and its connection, or close would wait for them.
  app.addHook('preClose', (done) => {
    for (const res of open) res.end(() => res.socket?.destroy());
    done();
  });
}
