// Wait rows: what the waits of a running operation need to outlive a restart (resources/signalHub.ts keeps them
// here): a custom resource request in flight and its response, the SignalResource signals received so far, and
// when a resource began to wait, which its deadline counts from.
import type { Db, GroupCommit } from './db.js';

export interface WaitRow {
  key: string;
  stackId: string;
  doc: Record<string, unknown>;
  /** Set once the wait is over: why a late answer is refused. */
  finished?: string;
}

interface Row {
  key: string;
  stack_id: string;
  doc: string;
  finished: string | null;
}

const fromRow = (row: Row): WaitRow => ({
  key: row.key,
  stackId: row.stack_id,
  doc: JSON.parse(row.doc) as Record<string, unknown>,
  ...(row.finished === null ? {} : { finished: row.finished }),
});

export class WaitStore {
  private readonly getStmt;
  private readonly putStmt;
  private readonly finishStmt;
  private readonly removeStmt;
  private readonly byStackStmt;
  private readonly pruneStmt;
  private readonly clearStmt;
  private seq: number;

  /** Writes join the event-loop turn's group commit (storage/db.ts): they land with the statuses of that turn. */
  constructor(
    db: Db,
    private readonly group: GroupCommit,
  ) {
    this.getStmt = db.prepare('SELECT * FROM waits WHERE key = ?');
    this.putStmt = db.prepare(
      'INSERT OR REPLACE INTO waits (key, stack_id, doc, finished, seq) VALUES (@key, @stackId, @doc, NULL, @seq)',
    );
    this.finishStmt = db.prepare('UPDATE waits SET finished = ?, seq = ? WHERE key = ?');
    this.removeStmt = db.prepare('DELETE FROM waits WHERE key = ?');
    this.byStackStmt = db.prepare('SELECT * FROM waits WHERE stack_id = ? AND finished IS NULL ORDER BY seq');
    this.pruneStmt = db.prepare(
      'DELETE FROM waits WHERE finished IS NOT NULL AND seq <= (SELECT seq FROM waits WHERE finished IS NOT NULL ORDER BY seq DESC LIMIT 1 OFFSET ?)',
    );
    this.clearStmt = db.prepare('DELETE FROM waits');
    this.seq = (db.prepare('SELECT COALESCE(MAX(seq), 0) FROM waits').pluck().get() as number) + 1;
  }

  get(key: string): WaitRow | undefined {
    const row = this.getStmt.get(key) as Row | undefined;
    return row && fromRow(row);
  }

  put(key: string, stackId: string, doc: Record<string, unknown>): void {
    this.group.run(() => this.putStmt.run({ key, stackId, doc: JSON.stringify(doc), seq: this.seq++ }));
  }

  /** Marks a wait over, keeping the row so a late answer learns why; only the newest `keep` such rows stay. */
  finish(key: string, why: string, keep: number): void {
    this.group.run(() => {
      this.finishStmt.run(why, this.seq++, key);
      if (this.seq % 100 === 0) this.pruneStmt.run(keep);
    });
  }

  remove(key: string): void {
    this.group.run(() => this.removeStmt.run(key));
  }

  /** The waits of a stack still open. */
  openOf(stackId: string): WaitRow[] {
    return (this.byStackStmt.all(stackId) as Row[]).map(fromRow);
  }

  clear(): void {
    this.group.run(() => this.clearStmt.run());
  }
}
