// Secrets of this database, made on first use and kept: the key that signs wait condition handle and ResponseURL
// URLs, so a URL handed out before a restart still verifies after it (and one from another database never does).
import { randomBytes } from 'node:crypto';
import type { Db } from './db.js';

/**
 * Kept in a table of its own, created here rather than by a numbered migration: it holds no AWS data, no query
 * joins it, and the reset of the control API leaves it alone (URLs of a reset server stay refused with S3's error).
 */
export class SecretStore {
  private readonly getStmt;
  private readonly putStmt;
  private readonly cache = new Map<string, Buffer>();

  constructor(db: Db) {
    db.exec('CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL)');
    this.getStmt = db.prepare('SELECT value FROM secrets WHERE name = ?').pluck();
    this.putStmt = db.prepare('INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)');
  }

  /** The named secret (32 random bytes), made on first use. */
  get(name: string): Buffer {
    let value = this.cache.get(name);
    if (!value) {
      this.putStmt.run(name, randomBytes(32));
      value = this.getStmt.get(name) as Buffer;
      this.cache.set(name, value);
    }
    return value;
  }
}
