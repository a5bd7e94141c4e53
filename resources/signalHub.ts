// Where the outside world's answers meet the providers waiting for them: wait condition signals, SignalResource
// calls and custom resource responses arrive over HTTP and wake the action that waits on their key. What a wait
// needs beyond this process (requests in flight and their responses, signals, when each wait began) is kept in a
// WaitBook, the database's `waits` table, so a restart resumes the wait (state-machine/resumeWaits.ts).
import { REAL_TIMERS, type Timers } from './timers.js';

export type WaitOutcome = 'notified' | 'timeout' | 'aborted';

/** One SignalResource call (or cfn-signal) for a resource under a CreationPolicy. */
export interface ResourceSignal {
  UniqueId: string;
  Status: 'SUCCESS' | 'FAILURE';
}

/** A custom resource request in flight: who sent it, when, and the handler's response once it arrives. */
export interface PendingRequest {
  stackId: string;
  logicalId: string;
  requestType: string;
  /** When the request went out (epoch ms): its deadline counts from here, across a restart too. */
  since: number;
  response?: Record<string, unknown>;
}

/** The rows a hub keeps (storage/waits.ts implements it over SQLite). */
export interface WaitBook {
  get(key: string): { stackId: string; doc: Record<string, unknown>; finished?: string } | undefined;
  put(key: string, stackId: string, doc: Record<string, unknown>): void;
  finish(key: string, why: string, keep: number): void;
  remove(key: string): void;
  openOf(stackId: string): { key: string; doc: Record<string, unknown> }[];
  clear(): void;
}

/** How many finished request ids are remembered, so a late response is told "finished" rather than "unknown". */
const FINISHED_MEMORY = 10_000;

const REQUEST = 'request:';
const SIGNALS = 'signals:';
const WAIT = 'wait:';
/** The stack of a `<stack-arn>|<logical id>` key (stack ARNs hold no `|`). */
const stackOf = (key: string) => key.slice(0, key.lastIndexOf('|'));

export class SignalHub {
  private readonly waiters = new Map<string, Set<() => void>>();
  /** Requests this process sent or took over: the others of the book are left over from before a restart. */
  private readonly live = new Set<string>();
  private generation = 0;

  constructor(
    private readonly timers: Timers = REAL_TIMERS,
    private readonly book: WaitBook = memoryBook(),
  ) {}

  /** Wakes every action waiting on `key`. */
  notify(key: string): void {
    for (const wake of this.waiters.get(key) ?? []) wake();
  }

  /** Resolves when `key` is notified, at `deadline` (epoch ms), or when `signal` aborts, whichever comes first. */
  wait(key: string, deadline: number, signal?: AbortSignal): Promise<WaitOutcome> {
    if (signal?.aborted) return Promise.resolve('aborted');
    const generation = this.generation;
    return new Promise((resolve) => {
      const set = this.waiters.get(key) ?? this.waiters.set(key, new Set()).get(key)!;
      const done = (outcome: WaitOutcome) => {
        this.timers.clearTimeout(timer);
        set.delete(wake);
        if (set.size === 0) this.waiters.delete(key);
        signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const wake = () => done(this.generation === generation ? 'notified' : 'aborted');
      const onAbort = () => done('aborted');
      const timer = this.timers.setTimeout(() => done('timeout'), Math.max(0, deadline - this.timers.now()));
      set.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Ends every wait at once (reset of the account): waiting actions see 'aborted'. */
  cancelAll(): void {
    this.generation++;
    for (const key of [...this.waiters.keys()]) this.notify(key);
    this.book.clear();
    this.live.clear();
  }

  /**
   * When the wait `what` of a resource began (epoch ms): now for a new wait, or the stored start of a wait that a
   * restart interrupted, so its deadline stays where it was.
   */
  beginWait(stackId: string, logicalId: string, what: string): number {
    const key = `${WAIT}${stackId}|${logicalId}|${what}`;
    const since = this.book.get(key)?.doc.since;
    if (typeof since === 'number') return since;
    const now = this.timers.now();
    this.book.put(key, stackId, { since: now, logicalId });
    return now;
  }

  endWait(stackId: string, logicalId: string, what: string): void {
    this.book.remove(`${WAIT}${stackId}|${logicalId}|${what}`);
  }

  /** The logical ids of a stack with a wait a restart can resume: one begun, or a custom resource request open. */
  waitingOn(stackId: string): Set<string> {
    const ids = new Set<string>();
    for (const row of this.book.openOf(stackId)) {
      if (row.key.startsWith(WAIT) || row.key.startsWith(REQUEST)) ids.add(String(row.doc.logicalId));
    }
    return ids;
  }

  /** Ends the open waits of a stack that a restart does not resume; their requests take no late response. */
  abandon(stackId: string, why: string): void {
    for (const row of this.book.openOf(stackId)) {
      if (row.key.startsWith(REQUEST)) this.close(row.key.slice(REQUEST.length), why);
      else this.book.remove(row.key);
    }
  }

  // Custom resource requests.

  open(requestId: string, request: PendingRequest): void {
    this.live.add(requestId);
    this.book.put(REQUEST + requestId, request.stackId, { ...request });
  }

  request(requestId: string): PendingRequest | undefined {
    const row = this.book.get(REQUEST + requestId);
    return row && !row.finished ? (row.doc as unknown as PendingRequest) : undefined;
  }

  /**
   * The request of this resource and RequestType that a process before a restart sent and that is still open: the
   * action takes it over rather than send a second one (AWS sends one request per action).
   */
  adopt(stackId: string, logicalId: string, requestType: string): string | undefined {
    for (const row of this.book.openOf(stackId)) {
      const id = row.key.slice(REQUEST.length);
      if (!row.key.startsWith(REQUEST) || this.live.has(id)) continue;
      if (row.doc.logicalId !== logicalId || row.doc.requestType !== requestType) continue;
      this.live.add(id);
      return id;
    }
    return undefined;
  }

  /** Why a request id no longer takes responses ('answered', 'timed out'), if it ever existed. */
  finishedReason(requestId: string): string | undefined {
    return this.book.get(REQUEST + requestId)?.finished;
  }

  respond(requestId: string, response: Record<string, unknown>): void {
    const pending = this.request(requestId);
    if (!pending) return;
    this.book.put(REQUEST + requestId, pending.stackId, { ...pending, response });
    this.notify(requestId);
  }

  close(requestId: string, why: string): void {
    this.live.delete(requestId);
    this.book.finish(REQUEST + requestId, why, FINISHED_MEMORY);
  }

  // Resource signals (CreationPolicy / SignalResource), keyed `<stack-arn>|<logical id>`.

  /**
   * Records a signal for a resource being created (the caller checked its status); a repeated UniqueId replaces
   * the earlier one. Signals sent before the wait starts count, as on AWS.
   */
  signalResource(key: string, signal: ResourceSignal): void {
    const list = this.signalsOf(key).filter((s) => s.UniqueId !== signal.UniqueId);
    list.push(signal);
    this.book.put(SIGNALS + key, stackOf(key), { signals: list });
    this.notify(key);
  }

  signalsOf(key: string): ResourceSignal[] {
    return (this.book.get(SIGNALS + key)?.doc.signals as ResourceSignal[] | undefined) ?? [];
  }

  /** Forgets a resource's signals once its wait has ended. */
  forgetSignals(key: string): void {
    this.book.remove(SIGNALS + key);
  }
}

/** A book in memory, for a hub without a database (unit tests). */
export function memoryBook(): WaitBook {
  const rows = new Map<string, { stackId: string; doc: Record<string, unknown>; finished?: string }>();
  return {
    get: (key) => rows.get(key),
    put: (key, stackId, doc) => void rows.set(key, { stackId, doc }),
    finish(key, why, keep) {
      const row = rows.get(key);
      rows.delete(key);
      rows.set(key, { stackId: row?.stackId ?? '', doc: row?.doc ?? {}, finished: why });
      const finished = [...rows].filter(([, r]) => r.finished);
      for (const [k] of finished.slice(0, Math.max(0, finished.length - keep))) rows.delete(k);
    },
    remove: (key) => void rows.delete(key),
    openOf: (stackId) =>
      [...rows].filter(([, r]) => r.stackId === stackId && !r.finished).map(([key, r]) => ({ key, doc: r.doc })),
    clear: () => rows.clear(),
  };
}
