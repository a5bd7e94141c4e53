// Stack events: append-only, ordered by an increasing sequence, read newest first.
import type { Db } from './db.js';

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

const fromRow = (r: EventRow): EventRecord => ({
  seq: r.seq,
  stackId: r.stack_id,
  account: r.account,
  region: r.region,
  eventId: r.event_id,
  logicalId: r.logical_id,
  physicalId: r.physical_id ?? undefined,
  type: r.type,
  status: r.status,
  reason: r.reason ?? undefined,
  properties: r.properties ?? undefined,
  token: r.token ?? undefined,
  timestamp: r.timestamp,
});

export class EventStore {
  private readonly insertStmt;
  private readonly pageStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO events (stack_id, account, region, event_id, logical_id, physical_id, type, status, reason,
         properties, token, timestamp)
       VALUES (@stack_id, @account, @region, @event_id, @logical_id, @physical_id, @type, @status, @reason,
         @properties, @token, @timestamp)`,
    );
    this.pageStmt = db.prepare(
      'SELECT * FROM events WHERE stack_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
    );
  }

  append(e: EventRecord): void {
    this.insertStmt.run({
      stack_id: e.stackId,
      account: e.account,
      region: e.region,
      event_id: e.eventId,
      logical_id: e.logicalId,
      physical_id: e.physicalId ?? null,
      type: e.type,
      status: e.status,
      reason: e.reason ?? null,
      properties: e.properties ?? null,
      token: e.token ?? null,
      timestamp: e.timestamp,
    });
  }

  /** Newest first, strictly older than the `before` sequence. */
  page(stackId: string, before: number | undefined, limit: number): EventRecord[] {
    return (this.pageStmt.all(stackId, before ?? Number.MAX_SAFE_INTEGER, limit) as EventRow[]).map(fromRow);
  }
}
