// server/services: reads a request body stream as text, for the services whose protocols are form or JSON bodies.
import type { Readable } from 'node:stream';

/** The largest form or JSON body taken (CloudFormation's own largest input, a 1 MB template, fits many times). */
export const TEXT_BODY_LIMIT = 16 * 1024 * 1024;

export class BodyTooLarge extends Error {
  constructor() {
    super(`Request body is larger than ${TEXT_BODY_LIMIT} bytes`);
  }
}

/** The whole body as UTF-8; rejects with BodyTooLarge past the limit (the rest is drained, not buffered). */
export async function readText(body: Readable, limit = TEXT_BODY_LIMIT): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) tooLarge = true;
    if (!tooLarge) chunks.push(chunk as Buffer);
  }
  if (tooLarge) throw new BodyTooLarge();
  return Buffer.concat(chunks).toString('utf8');
}
