// Object bodies (S3): streamed in and out, never held whole. On disk, one file per body in a folder beside the
// database; with `--db :memory:` nothing touches disk and bodies are kept as the chunks they arrived in.
// Why files and not SQLite rows: docs/services.md ("Where object bodies live"), measured in bench/README.md.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR, PRIVATE_FILE, narrow } from './db.js';

export interface WrittenBody {
  id: string;
  size: number;
  /** The MD5 of the bytes, hex (S3's ETag of a single-part object). */
  md5: string;
}

/** An inclusive byte range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BodyStore {
  /** Streams the source into a new body; nothing is kept if the source fails. */
  write(source: Readable): Promise<WrittenBody>;
  read(id: string, range?: ByteRange): Readable;
  remove(id: string): void;
  reset(): void;
  /** Removes every body not in `keep` (what a crash left: half-written uploads, bodies of replaced objects). */
  sweep(keep: ReadonlySet<string>): void;
}

/**
 * Counts and hashes what passes through. It is one stage of the pipeline, never a wrapper around the sink: a sink
 * outside the pipeline has no 'error' listener, and a client that hangs up mid-body made its in-flight write's
 * ERR_STREAM_DESTROYED an uncaught error that ended the process.
 */
function hashing(seen: { size: number; hash: ReturnType<typeof createHash> }): Transform {
  return new Transform({
    highWaterMark: 1 << 20,
    transform(chunk: Buffer, _enc, done) {
      seen.size += chunk.length;
      seen.hash.update(chunk);
      done(null, chunk);
    },
  });
}

export class FileBodies implements BodyStore {
  constructor(private readonly dir: string) {
    // Readable by the owner only, as the database is (storage/db.ts).
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
    narrow(dir, PRIVATE_DIR);
  }

  async write(source: Readable): Promise<WrittenBody> {
    const id = randomUUID();
    const partial = join(this.dir, `${id}.partial`);
    const seen = { size: 0, hash: createHash('md5') };
    const file = createWriteStream(partial, { mode: PRIVATE_FILE });
    try {
      await pipeline(source, hashing(seen), file);
    } catch (err) {
      // The pipeline fails at the first error, maybe before the file is even open: removed once the file is closed.
      if (!file.closed) await new Promise<void>((closed) => file.once('close', () => closed()));
      rmSync(partial, { force: true });
      throw err;
    }
    renameSync(partial, join(this.dir, id));
    return { id, size: seen.size, md5: seen.hash.digest('hex') };
  }

  read(id: string, range?: ByteRange): Readable {
    return createReadStream(
      join(this.dir, id),
      range ? { start: range.start, end: range.end, highWaterMark: 1 << 20 } : { highWaterMark: 1 << 20 },
    );
  }

  remove(id: string): void {
    rmSync(join(this.dir, id), { force: true });
  }

  reset(): void {
    for (const name of readdirSync(this.dir)) rmSync(join(this.dir, name), { force: true });
  }

  sweep(keep: ReadonlySet<string>): void {
    for (const name of readdirSync(this.dir)) if (!keep.has(name)) rmSync(join(this.dir, name), { force: true });
  }
}

export class MemoryBodies implements BodyStore {
  private readonly bodies = new Map<string, Buffer[]>();

  async write(source: Readable): Promise<WrittenBody> {
    const chunks: Buffer[] = [];
    const seen = { size: 0, hash: createHash('md5') };
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    });
    await pipeline(source, hashing(seen), sink);
    const id = randomUUID();
    this.bodies.set(id, chunks);
    return { id, size: seen.size, md5: seen.hash.digest('hex') };
  }

  read(id: string, range?: ByteRange): Readable {
    const chunks = this.bodies.get(id) ?? [];
    if (!range) return Readable.from(chunks, { objectMode: false });
    return Readable.from(slices(chunks, range), { objectMode: false });
  }

  remove(id: string): void {
    this.bodies.delete(id);
  }

  reset(): void {
    this.bodies.clear();
  }

  sweep(keep: ReadonlySet<string>): void {
    for (const id of this.bodies.keys()) if (!keep.has(id)) this.bodies.delete(id);
  }
}

function* slices(chunks: Buffer[], range: ByteRange): Generator<Buffer> {
  let offset = 0;
  for (const chunk of chunks) {
    const from = Math.max(range.start - offset, 0);
    const to = Math.min(range.end + 1 - offset, chunk.length);
    if (from < to) yield chunk.subarray(from, to);
    offset += chunk.length;
    if (offset > range.end) return;
  }
}

/** Beside `./.cfn-local/cfn.db`: `./.cfn-local/cfn.db.objects/`; in memory for `:memory:`. */
export function openBodies(dbFile: string): BodyStore {
  return dbFile === ':memory:' ? new MemoryBodies() : new FileBodies(`${dbFile}.objects`);
}
