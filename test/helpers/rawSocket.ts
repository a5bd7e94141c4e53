// Raw TCP conversations with a live server, for what no HTTP client sends: a body cut short, broken framing, an
// over-long request line. Each helper resolves when the socket closes or answers, bounded by a deadline.
import { connect, type Socket } from 'node:net';

export function portOf(endpoint: string): number {
  return Number(new URL(endpoint).port);
}

/** Sends the head, then `filler` bytes for `sendMs` (as fast as the socket takes them), then destroys the socket. */
export async function sendThenHangUp(port: number, head: string, sendMs: number, filler = 16 * 1024): Promise<void> {
  const socket = await opened(port);
  socket.on('error', () => undefined);
  socket.write(head);
  const chunk = Buffer.alloc(filler, 0x61);
  const end = Date.now() + sendMs;
  while (Date.now() < end && !socket.destroyed) {
    if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r));
  }
  socket.destroy();
}

export interface RawAnswer {
  /** Everything the server sent before it closed (or before the deadline). */
  text: string;
  /** Whether the server closed the connection (rather than the deadline passing with the socket still open). */
  closed: boolean;
  /** The connection was reset (ECONNRESET / EPIPE) rather than closed after an answer. */
  reset: boolean;
}

/** Writes `parts` and collects the answer until the server closes, `untilText` shows up, or `timeoutMs` passes. */
export async function exchange(
  port: number,
  parts: (string | Buffer)[],
  { timeoutMs = 5_000, untilText }: { timeoutMs?: number; untilText?: RegExp } = {},
): Promise<RawAnswer> {
  const socket = await opened(port);
  return new Promise((resolve) => {
    let text = '';
    let reset = false;
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed, reset });
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('data', (d) => {
      text += d.toString('latin1');
      if (untilText?.test(text)) done(false);
    });
    socket.on('error', () => (reset = true));
    socket.on('close', () => done(true));
    for (const part of parts) socket.write(part);
  });
}

function opened(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}
