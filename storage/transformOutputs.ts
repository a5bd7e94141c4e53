// Transform outputs by the hash of their input (see template/transforms/pending.ts): written once per run of a
// transform, read whenever a template that needs it is prepared again.
import type { Db } from './db.js';

export class TransformOutputStore {
  private readonly putStmt;
  private readonly getStmt;

  constructor(db: Db) {
    this.putStmt = db.prepare('INSERT OR REPLACE INTO transform_outputs (key, doc, created_at) VALUES (?, ?, ?)');
    this.getStmt = db.prepare('SELECT doc FROM transform_outputs WHERE key = ?');
  }

  put(key: string, doc: unknown, createdAt: string): void {
    this.putStmt.run(key, JSON.stringify(doc), createdAt);
  }

  get(key: string): unknown {
    const row = this.getStmt.get(key) as { doc: string } | undefined;
    return row ? JSON.parse(row.doc) : undefined;
  }
}
