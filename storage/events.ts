// Stack events: append-only, ordered by an increasing sequence, read newest first.
import { withLimit, type Db } from './db.js';
import { columns } from './rows.js';
import type { ChangeFeed } from './feed.js';

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
  /** The operation that wrote the event (absent in databases written before migration 10). */
  operationId?: string;
  /** OperationEvent fields beyond StackEvent's (EventType, DetailedStatus, Validation*, Hook*). */
  detail?: EventDetail;
}

/** What an event may carry beyond a StackEvent, as DescribeEvents' OperationEvent names it. */
export interface EventDetail {
  EventType?: 'STACK_EVENT' | 'PROGRESS_EVENT' | 'VALIDATION_ERROR' | 'PROVISIONING_ERROR' | 'HOOK_INVOCATION_ERROR';
  DetailedStatus?: string;
  ValidationFailureMode?: string;
  ValidationName?: string;
  ValidationStatus?: string;
  ValidationStatusReason?: string;
  ValidationPath?: string;
  HookType?: string;
  HookStatus?: string;
  HookStatusReason?: string;
  HookInvocationPoint?: string;
  HookFailureMode?: string;
  HookInvocationId?: string;
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
  operation_id: string | null;
  detail: string | null;
}

type PageRow = Omit<EventRow, 'stack_id' | 'account' | 'region'>;
type StackKey = Pick<EventRecord, 'stackId' | 'account' | 'region'>;

const EVENT = columns<Omit<EventRecord, 'seq'>>({
  stackId: ['stack_id'],
  account: ['account'],
  region: ['region'],
  eventId: ['event_id'],
  logicalId: ['logical_id'],
  physicalId: ['physical_id', 'optional'],
  type: ['type'],
  status: ['status'],
  reason: ['reason', 'optional'],
  properties: ['properties', 'optional'],
  token: ['token', 'optional'],
  timestamp: ['timestamp'],
  operationId: ['operation_id', 'optional'],
  detail: ['detail', 'optional'],
});

const PAGE_COLUMNS =
  'seq, event_id, logical_id, physical_id, type, status, reason, properties, token, timestamp, operation_id, detail';

/** A page row lacks the stack's own columns, which the caller knows. */
function fromRow(r: PageRow, stack: StackKey): EventRecord {
  const e = EVENT.fromRow(r, {
    seq: r.seq,
    stackId: stack.stackId,
    account: stack.account,
    region: stack.region,
  });
  if (typeof e.detail === 'string') e.detail = JSON.parse(e.detail) as EventDetail;
  return e;
}

/** Stacks whose events key is kept in memory: far more than run at once, ~2 MB at most. */
const KEYS_KEPT = 10_000;

export class EventStore {
  private readonly insertStmt;
  private readonly pageStmt;
  private readonly operationsPageStmt;
  private readonly keyStmt;
  private readonly stackOfStmt;
  /**
   * Stack ARN → the stack row's rowid, which keys the events index (migration 5): a cache of the stacks written or
   * read last, at most KEYS_KEPT of them (one lookup refills it), so a server that sees stacks come and go for
   * weeks does not keep an entry for every stack it ever had.
   */
  private readonly keys = new Map<string, number>();

  constructor(
    db: Db,
    private readonly feed?: ChangeFeed,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO events (${EVENT.names.join(', ')}, stack_key) VALUES (${EVENT.placeholders}, ?)`,
    );
    // The stack's own columns (a ~100-byte ARN, account, region) are known to the caller: reading them back for
    // every row of a page was a third of the page's cost (bench/README.md).
    this.pageStmt = withLimit(
      db,
      `SELECT ${PAGE_COLUMNS} FROM events WHERE stack_key = ? AND seq < ? ORDER BY seq DESC`,
    );
    this.operationsPageStmt = withLimit(
      db,
      `SELECT ${PAGE_COLUMNS} FROM events
       WHERE operation_id IN (SELECT value FROM json_each(?)) AND stack_key = ? AND seq < ? ORDER BY seq DESC`,
    );
    this.keyStmt = db.prepare('SELECT rowid AS key FROM stacks WHERE stack_id = ?').pluck();
    this.stackOfStmt = db.prepare('SELECT account, region FROM stacks WHERE rowid = ?');
  }

  private keyOf(stackId: string): number | undefined {
    let key = this.keys.get(stackId);
    if (key === undefined) {
      key = this.keyStmt.get(stackId) as number | undefined;
      if (key === undefined) return undefined;
      if (this.keys.size >= KEYS_KEPT) this.keys.delete(this.keys.keys().next().value!);
      this.keys.set(stackId, key);
    }
    return key;
  }

  /** A stack's events follow its row (storage/stacks.ts insert comes first, in the same unit). */
  append(e: EventRecord): void {
    const key = this.keyOf(e.stackId);
    if (key === undefined) throw new Error(`no stack row for the events of ${e.stackId}`);
    const values = EVENT.values(e.detail ? { ...e, detail: JSON.stringify(e.detail) as unknown as EventDetail } : e);
    values.push(key);
    const { lastInsertRowid } = this.insertStmt.run(values);
    if (this.feed?.active) this.feed.publish({ kind: 'event', event: { ...e, seq: Number(lastInsertRowid) } });
  }

  /** Newest first, strictly older than the `before` sequence. */
  page(stackId: string, before: number | undefined, limit: number): EventRecord[] {
    const key = this.keyOf(stackId);
    if (key === undefined) return [];
    const rows = this.pageStmt(limit).all(key, before ?? Number.MAX_SAFE_INTEGER) as PageRow[];
    if (!rows.length) return [];
    const { account, region } = this.stackOfStmt.get(key) as Pick<EventRow, 'account' | 'region'>;
    const stack = { stackId, account, region };
    return rows.map((r) => fromRow(r, stack));
  }

  /** The events of some of the stack's operations, newest first, strictly older than the `before` sequence. */
  pageOfOperations(stackId: string, operationIds: string[], before: number | undefined, limit: number): EventRecord[] {
    const key = this.keyOf(stackId);
    if (key === undefined || !operationIds.length) return [];
    const rows = this.operationsPageStmt(limit).all(
      JSON.stringify(operationIds),
      key,
      before ?? Number.MAX_SAFE_INTEGER,
    ) as PageRow[];
    if (!rows.length) return [];
    const { account, region } = this.stackOfStmt.get(key) as Pick<EventRow, 'account' | 'region'>;
    const stack = { stackId, account, region };
    return rows.map((r) => fromRow(r, stack));
  }

  /** Forgets the stack keys (the control API's reset empties the stacks, whose rowids may then be reused). */
  forgetKeys(): void {
    this.keys.clear();
  }
}
