// Stack events: append-only, ordered by an increasing sequence, read newest first.
import { withLimit, type Db } from './db.js';
import { columns } from './rows.js';

export interface EventRecord {
  seq?: number;
  stackId: string;
  account: string;
  region: string;
  eventId: string;
  logicalId: string;
  physicalId?: string;
  type: string;
  status: string;
  reason?: string;
  properties?: string;
  token?: string;
  timestamp: string;
}

interface EventRow {
  seq: number;
  stack_id: string;
  account: string;
  region: string;
  event_id: string;
  logical_id: string;
  physical_id: string | null;
  type: string;
  status: string;
  reason: string | null;
  properties: string | null;
  token: string | null;
  timestamp: string;
}

type PageRow = Omit<EventRow, 'stack_id' | 'account' | 'region'>;
type StackKey = Pick<EventRecord, 'stackId' | 'account' | 'region'>;

const EVENT = columns<Omit<EventRecord, 'seq'>>({
  stackId: ['stack_id'], account: ['account'], region: ['region'], eventId: ['event_id'], logicalId: ['logical_id'],
  physicalId: ['physical_id', 'optional'], type: ['type'], status: ['status'], reason: ['reason', 'optional'],
  properties: ['properties', 'optional'], token: ['token', 'optional'], timestamp: ['timestamp'],
});

/** A page row lacks the stack's own columns, which the caller knows. */
// Assigned, not spread: spreading the mapped row and the stack key cost ~5 µs a row, 100 rows a page.
const fromRow = (r: PageRow, stack: StackKey): EventRecord => {
  const event = EVENT.fromRow(r as unknown as Record<string, unknown>) as EventRecord;
  event.seq = r.seq;
  event.stackId = stack.stackId;
  event.account = stack.account;
  event.region = stack.region;
  return event;
};

export class EventStore {
  private readonly insertStmt;
  private readonly pageStmt;
  private readonly stackOfStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare(`INSERT INTO events (${EVENT.names.join(', ')}) VALUES (${EVENT.placeholders})`);
    // The stack's own columns (a ~100-byte ARN, account, region) are known to the caller: reading them back for
    // every row of a page was a third of the page's cost (bench/README.md).
    this.pageStmt = withLimit(db,
      `SELECT seq, event_id, logical_id, physical_id, type, status, reason, properties, token, timestamp
       FROM events WHERE stack_id = ? AND seq < ? ORDER BY seq DESC`);
    this.stackOfStmt = db.prepare('SELECT account, region FROM events WHERE stack_id = ? LIMIT 1');
  }

  append(e: EventRecord): void {
    this.insertStmt.run(EVENT.values(e));
  }

  /** Newest first, strictly older than the `before` sequence. */
  page(stackId: string, before: number | undefined, limit: number): EventRecord[] {
    const rows = this.pageStmt(limit).all(stackId, before ?? Number.MAX_SAFE_INTEGER) as PageRow[];
    if (!rows.length) return [];
    const { account, region } = this.stackOfStmt.get(stackId) as Pick<EventRow, 'account' | 'region'>;
    const stack = { stackId, account, region };
    return rows.map((r) => fromRow(r, stack));
  }
}
