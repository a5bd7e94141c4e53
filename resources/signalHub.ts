// Where the outside world's answers meet the providers waiting for them: wait condition signals, SignalResource
// calls and custom resource responses arrive over HTTP and wake the action that waits on their key.
import { REAL_TIMERS, type Timers } from './timers.js';

export type WaitOutcome = 'notified' | 'timeout' | 'aborted';

/** One SignalResource call (or cfn-signal) for a resource under a CreationPolicy. */
export interface ResourceSignal {
  UniqueId: string;
  Status: 'SUCCESS' | 'FAILURE';
}

/** A custom resource request in flight: who sent it, and the handler's response once it arrives. */
export interface PendingRequest {
  stackId: string;
  logicalId: string;
  response?: Record<string, unknown>;
}

/** How many finished request ids are remembered, so a late response is told "finished" rather than "unknown". */
const FINISHED_MEMORY = 10_000;

export class SignalHub {
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly requests = new Map<string, PendingRequest>();
  private readonly finished = new Map<string, string>();
  private readonly resourceSignals = new Map<string, ResourceSignal[]>();
  private generation = 0;

  constructor(private readonly timers: Timers = REAL_TIMERS) {}

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
    this.requests.clear();
    this.finished.clear();
    this.resourceSignals.clear();
  }

  // Custom resource requests.

  open(requestId: string, request: PendingRequest): void {
    this.requests.set(requestId, request);
  }

  request(requestId: string): PendingRequest | undefined {
    return this.requests.get(requestId);
  }

  /** Why a request id no longer takes responses ('answered', 'timed out'), if it ever existed. */
  finishedReason(requestId: string): string | undefined {
    return this.finished.get(requestId);
  }

  respond(requestId: string, response: Record<string, unknown>): void {
    const pending = this.requests.get(requestId);
    if (!pending) return;
    pending.response = response;
    this.notify(requestId);
  }

  close(requestId: string, why: string): void {
    this.requests.delete(requestId);
    this.finished.set(requestId, why);
    if (this.finished.size > FINISHED_MEMORY) this.finished.delete(this.finished.keys().next().value!);
  }

  // Resource signals (CreationPolicy / SignalResource).

  /**
   * Records a signal for a resource being created (the caller checked its status); a repeated UniqueId replaces
   * the earlier one. Signals sent before the wait starts count, as on AWS.
   */
  signalResource(key: string, signal: ResourceSignal): void {
    const list = (this.resourceSignals.get(key) ?? []).filter((s) => s.UniqueId !== signal.UniqueId);
    list.push(signal);
    this.resourceSignals.set(key, list);
    this.notify(key);
  }

  signalsOf(key: string): readonly ResourceSignal[] {
    return this.resourceSignals.get(key) ?? [];
  }

  /** Forgets a resource's signals once its wait has ended. */
  forgetSignals(key: string): void {
    this.resourceSignals.delete(key);
  }
}
