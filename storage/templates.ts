// Template bodies exactly as submitted, one row per submitted version.
import type { Db } from './db.js';

export class TemplateStore {
  private readonly insertStmt;
  private readonly byIdStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare('INSERT INTO templates (stack_id, body, created_at) VALUES (?, ?, ?)');
    this.byIdStmt = db.prepare('SELECT body FROM templates WHERE template_id = ?');
  }

  insert(stackId: string, body: string, createdAt: string): number {
    return Number(this.insertStmt.run(stackId, body, createdAt).lastInsertRowid);
  }

  body(templateId: number): string | undefined {
    return (this.byIdStmt.get(templateId) as { body: string } | undefined)?.body;
  }
}
