// Exports: names unique per account and region, each owned by one stack.
import type { Db } from './db.js';

export interface ExportRecord {
  name: string;
  stackId: string;
  value: string;
}

export class ExportStore {
  private readonly putStmt;
  private readonly getStmt;
  private readonly byStackStmt;
  private readonly removeByStackStmt;
  private readonly removeStmt;
  private readonly listStmt;
  private readonly importersStmt;
  private readonly clearImportsStmt;
  private readonly addImportStmt;

  constructor(db: Db) {
    this.putStmt = db.prepare(
      `INSERT INTO exports (account, region, name, stack_id, value) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account, region, name) DO UPDATE SET stack_id = excluded.stack_id, value = excluded.value`,
    );
    this.getStmt = db.prepare(
      'SELECT name, stack_id AS stackId, value FROM exports WHERE account = ? AND region = ? AND name = ?',
    );
    this.byStackStmt = db.prepare('SELECT name, stack_id AS stackId, value FROM exports WHERE stack_id = ?');
    this.removeByStackStmt = db.prepare('DELETE FROM exports WHERE stack_id = ?');
    this.removeStmt = db.prepare('DELETE FROM exports WHERE account = ? AND region = ? AND name = ?');
    this.listStmt = db.prepare(
      'SELECT name, stack_id AS stackId, value FROM exports WHERE account = ? AND region = ? ORDER BY name',
    );
    this.importersStmt = db.prepare(
      `SELECT i.stack_id AS stackId FROM imports i JOIN stacks s ON s.stack_id = i.stack_id
       WHERE i.account = ? AND i.region = ? AND i.export_name = ? AND s.deleted_at IS NULL ORDER BY s.name`,
    );
    this.clearImportsStmt = db.prepare('DELETE FROM imports WHERE stack_id = ?');
    this.addImportStmt = db.prepare(
      'INSERT OR IGNORE INTO imports (account, region, export_name, stack_id) VALUES (?, ?, ?, ?)',
    );
  }

  /** The live stacks that import an export. */
  importers(account: string, region: string, name: string): string[] {
    return (this.importersStmt.all(account, region, name) as { stackId: string }[]).map((r) => r.stackId);
  }

  setImports(account: string, region: string, stackId: string, names: Iterable<string>): void {
    this.clearImportsStmt.run(stackId);
    for (const name of names) this.addImportStmt.run(account, region, name, stackId);
  }

  put(account: string, region: string, e: ExportRecord): void {
    this.putStmt.run(account, region, e.name, e.stackId, e.value);
  }

  get(account: string, region: string, name: string): ExportRecord | undefined {
    return this.getStmt.get(account, region, name) as ExportRecord | undefined;
  }

  byStack(stackId: string): ExportRecord[] {
    return this.byStackStmt.all(stackId) as ExportRecord[];
  }

  removeByStack(stackId: string): void {
    this.removeByStackStmt.run(stackId);
  }

  remove(account: string, region: string, name: string): void {
    this.removeStmt.run(account, region, name);
  }

  list(account: string, region: string): ExportRecord[] {
    return this.listStmt.all(account, region) as ExportRecord[];
  }
}
