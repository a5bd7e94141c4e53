// server/protocol: decodes S3's `aws-chunked` request bodies, as the SDKs and the CLI stream uploads: chunks of
// `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n`, ended by a zero-size chunk and optional trailers
// (`x-amz-checksum-crc32:…`). https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-streaming.html
// Signatures are not verified, as no other signature is.
import { Transform, type TransformCallback } from 'node:stream';

/** Whether the body is aws-chunked: the SigV4 streaming payload hashes, or the Content-Encoding. */
export function isAwsChunked(headers: Record<string, string | string[] | undefined>): boolean {
  const sha = headers['x-amz-content-sha256'];
  const encoding = headers['content-encoding'];
  return (
    (typeof sha === 'string' && sha.startsWith('STREAMING-')) ||
    (typeof encoding === 'string' && encoding.split(',').some((e) => e.trim() === 'aws-chunked'))
  );
}

export class MalformedChunk extends Error {}

/** The chunks' data did not add up to `x-amz-decoded-content-length`: S3's IncompleteBody, with both counts. */
export class DecodedLengthMismatch extends Error {
  constructor(
    readonly expected: number,
    readonly provided: number,
  ) {
    super(`x-amz-decoded-content-length says ${expected} bytes, the chunks carried ${provided}`);
  }
}

/** The declared decoded length: a non-negative integer, else undefined (not checked). */
export function declaredDecodedLength(headers: Record<string, string | string[] | undefined>): number | undefined {
  const value = headers['x-amz-decoded-content-length'];
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

const MAX_HEADER_LINE = 4096;

/** A streaming decoder: only the chunk data passes through; nothing is buffered beyond one chunk header line. */
export class AwsChunkedDecoder extends Transform {
  private line = '';
  private remaining = 0;
  /** 'header': reading a size line; 'data': chunk bytes; 'crlf': the CRLF after them; 'trailer': after the last chunk. */
  private phase: 'header' | 'data' | 'crlf' | 'trailer' = 'header';
  private crlfSeen = 0;
  /** The data bytes seen so far; past `expected`, they are counted and dropped. */
  private decoded = 0;

  constructor(private readonly expected?: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      let i = 0;
      while (i < chunk.length) i = this.step(chunk, i);
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  private step(chunk: Buffer, i: number): number {
    if (this.phase === 'data') {
      const take = Math.min(this.remaining, chunk.length - i);
      const room = this.expected === undefined ? take : Math.max(0, Math.min(take, this.expected - this.decoded));
      if (room > 0) this.push(chunk.subarray(i, i + room));
      this.decoded += take;
      this.remaining -= take;
      if (this.remaining === 0) this.phase = 'crlf';
      return i + take;
    }
    if (this.phase === 'crlf') {
      this.crlfSeen++;
      if (this.crlfSeen === 2) {
        this.crlfSeen = 0;
        this.phase = 'header';
      }
      return i + 1;
    }
    if (this.phase === 'trailer') return chunk.length;
    const nl = chunk.indexOf(0x0a, i);
    const end = nl === -1 ? chunk.length : nl + 1;
    this.line += chunk.toString('latin1', i, end);
    if (this.line.length > MAX_HEADER_LINE) throw new MalformedChunk('chunk header too long');
    if (nl !== -1) this.headerLine(this.line.trim());
    return end;
  }

  private headerLine(line: string): void {
    this.line = '';
    if (line === '') return;
    const size = parseInt(line.split(';')[0], 16);
    if (!Number.isFinite(size) || size < 0 || !/^[0-9a-fA-F]+$/.test(line.split(';')[0]))
      throw new MalformedChunk(`bad chunk size line: ${line.slice(0, 80)}`);
    if (size === 0) this.phase = 'trailer';
    else {
      this.remaining = size;
      this.phase = 'data';
    }
  }

  override _flush(done: TransformCallback): void {
    if (this.phase !== 'trailer') return done(new MalformedChunk('the body ended before its last chunk'));
    const mismatch = this.expected !== undefined && this.decoded !== this.expected;
    done(mismatch ? new DecodedLengthMismatch(this.expected, this.decoded) : undefined);
  }
}
