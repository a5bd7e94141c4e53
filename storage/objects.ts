// S3 objects, multipart uploads and parts: metadata rows by account and bucket (the bytes are in storage/bodies.ts).
import type { Db } from './db.js';

/** What S3 keeps beside an object's bytes and returns on GetObject/HeadObject. */
export interface ObjectDoc {
  ContentType?: string;
  CacheControl?: string;
  ContentDisposition?: string;
  ContentEncoding?: string;
  ContentLanguage?: string;
  Expires?: string;
  Metadata?: Record<string, string>;
  /** Parts of a multipart object (its ETag ends in `-N`). */
  PartsCount?: number;
  ServerSideEncryption?: string;
  SSEKMSKeyId?: string;
}

export interface ObjectRecord {
  account: string;
  region: string;
  bucket: string;
  key: string;
  size: number;
  etag: string;
  lastModified: string;
  bodyId: string;
  doc: ObjectDoc;
}

export interface UploadRecord {
  uploadId: string;
  account: string;
  region: string;
  bucket: string;
  key: string;
  initiated: string;
  doc: ObjectDoc;
}

export interface PartRecord {
  uploadId: string;
  partNumber: number;
  size: number;
  etag: string;
  lastModified: string;
  bodyId: string;
}

interface ObjectRow {
  account: string;
  region: string;
  bucket: string;
  key: string;
  size: number;
  etag: string;
  last_modified: string;
  body_id: string;
  doc: string;
}

const toObject = (r: ObjectRow): ObjectRecord => ({
  account: r.account,
  region: r.region,
  bucket: r.bucket,
  key: r.key,
  size: r.size,
  etag: r.etag,
  lastModified: r.last_modified,
  bodyId: r.body_id,
  doc: JSON.parse(r.doc) as ObjectDoc,
});

export class ObjectStore {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      put: db.prepare(`INSERT INTO s3_objects (account, region, bucket, key, size, etag, last_modified, body_id, doc)
        VALUES (@account, @region, @bucket, @key, @size, @etag, @lastModified, @bodyId, @doc)
        ON CONFLICT (account, bucket, key) DO UPDATE SET region = excluded.region, size = excluded.size, etag = excluded.etag,
          last_modified = excluded.last_modified, body_id = excluded.body_id, doc = excluded.doc`),
      get: db.prepare('SELECT * FROM s3_objects WHERE account = ? AND bucket = ? AND key = ?'),
      remove: db.prepare('DELETE FROM s3_objects WHERE account = ? AND bucket = ? AND key = ?'),
      count: db.prepare('SELECT count(*) AS n FROM s3_objects WHERE account = ? AND bucket = ?'),
      list: db.prepare(`SELECT * FROM s3_objects WHERE account = @account AND bucket = @bucket AND key > @after
        AND substr(key, 1, length(@prefix)) = @prefix ORDER BY key LIMIT @limit`),
      putUpload: db.prepare(`INSERT INTO s3_uploads (upload_id, account, region, bucket, key, initiated, doc)
        VALUES (@uploadId, @account, @region, @bucket, @key, @initiated, @doc)`),
      getUpload: db.prepare('SELECT * FROM s3_uploads WHERE upload_id = ?'),
      removeUpload: db.prepare('DELETE FROM s3_uploads WHERE upload_id = ?'),
      putPart: db.prepare(`INSERT INTO s3_parts (upload_id, part_number, size, etag, last_modified, body_id)
        VALUES (@uploadId, @partNumber, @size, @etag, @lastModified, @bodyId)
        ON CONFLICT (upload_id, part_number) DO UPDATE SET size = excluded.size, etag = excluded.etag,
          last_modified = excluded.last_modified, body_id = excluded.body_id`),
      getPart: db.prepare('SELECT * FROM s3_parts WHERE upload_id = ? AND part_number = ?'),
      parts: db.prepare('SELECT * FROM s3_parts WHERE upload_id = ? ORDER BY part_number'),
      removeParts: db.prepare('DELETE FROM s3_parts WHERE upload_id = ?'),
      allBodies: db.prepare('SELECT body_id FROM s3_objects UNION ALL SELECT body_id FROM s3_parts'),
    };
  }

  put(o: ObjectRecord): void {
    this.stmts.put.run({ ...o, doc: JSON.stringify(o.doc) });
  }

  get(account: string, bucket: string, key: string): ObjectRecord | undefined {
    const row = this.stmts.get.get(account, bucket, key) as ObjectRow | undefined;
    return row && toObject(row);
  }

  remove(account: string, bucket: string, key: string): void {
    this.stmts.remove.run(account, bucket, key);
  }

  count(account: string, bucket: string): number {
    return (this.stmts.count.get(account, bucket) as { n: number }).n;
  }

  /** Keys after `after` that start with `prefix`, in UTF-8 binary order (SQLite's BINARY collation is memcmp). */
  list(account: string, bucket: string, prefix: string, after: string, limit: number): ObjectRecord[] {
    return (this.stmts.list.all({ account, bucket, prefix, after, limit }) as ObjectRow[]).map(toObject);
  }

  putUpload(u: UploadRecord): void {
    this.stmts.putUpload.run({ ...u, doc: JSON.stringify(u.doc) });
  }

  getUpload(uploadId: string): UploadRecord | undefined {
    const r = this.stmts.getUpload.get(uploadId) as
      (Omit<UploadRecord, 'doc' | 'uploadId'> & { upload_id: string; doc: string }) | undefined;
    return (
      r && {
        uploadId: r.upload_id,
        account: r.account,
        region: r.region,
        bucket: r.bucket,
        key: r.key,
        initiated: r.initiated,
        doc: JSON.parse(r.doc) as ObjectDoc,
      }
    );
  }

  /** Forgets an upload and its parts; returns the parts' bodies for the caller to remove. */
  removeUpload(uploadId: string): PartRecord[] {
    const parts = this.parts(uploadId);
    this.stmts.removeParts.run(uploadId);
    this.stmts.removeUpload.run(uploadId);
    return parts;
  }

  putPart(p: PartRecord): void {
    this.stmts.putPart.run(p);
  }

  getPart(uploadId: string, partNumber: number): PartRecord | undefined {
    const r = this.stmts.getPart.get(uploadId, partNumber) as PartRow | undefined;
    return r && toPart(r);
  }

  parts(uploadId: string): PartRecord[] {
    return (this.stmts.parts.all(uploadId) as PartRow[]).map(toPart);
  }

  /** Every body id a row points at (to find bodies a crash left behind). */
  bodyIds(): Set<string> {
    return new Set((this.stmts.allBodies.all() as { body_id: string }[]).map((r) => r.body_id));
  }
}

interface PartRow {
  upload_id: string;
  part_number: number;
  size: number;
  etag: string;
  last_modified: string;
  body_id: string;
}

const toPart = (r: PartRow): PartRecord => ({
  uploadId: r.upload_id,
  partNumber: r.part_number,
  size: r.size,
  etag: r.etag,
  lastModified: r.last_modified,
  bodyId: r.body_id,
});
