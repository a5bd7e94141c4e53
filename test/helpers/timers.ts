// Timers a test moves by hand (startServer({ timers })): DelayMs and every wait's timeout then take no real time,
// and the test says exactly when each one falls due.
import type { Timers } from '../../resources/timers.js';

interface Pending {
  due: number;
  fire: () => void;
}

/** One turn of the event loop, so that what a fired timer set going (the engine's next step) runs. */
const turn = () => new Promise((r) => setImmediate(r));

export class ManualTimers implements Timers {
  private at = Date.now();
  private next = 0;
  private readonly pending = new Map<number, Pending>();

  now(): number {
    return this.at;
  }

  setTimeout(fire: () => void, ms: number): unknown {
    this.pending.set(++this.next, { due: this.at + Math.max(0, ms), fire });
    return this.next;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** How far from now each pending timer falls due, soonest first. */
  dueIn(): number[] {
    return [...this.pending.values()].map((p) => p.due - this.at).sort((a, b) => a - b);
  }

  /**
   * Resolves once a timer falls due `ms` from now: the engine has reached the delay or wait the test means to move
   * past. Bounded by real time, so a wait that is never armed fails the test rather than hanging it.
   */
  async armed(ms: number, timeoutMs = 10_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!this.dueIn().includes(ms)) {
      if (Date.now() > end) throw new Error(`no timer due in ${ms} ms (pending: ${this.dueIn().join(', ') || 'none'})`);
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  /** Moves time on by `ms`, firing the timers that fall due in order, each given a turn to act before the next. */
  async advance(ms: number): Promise<void> {
    const end = this.at + ms;
    for (let id = this.dueBy(end); id !== undefined; id = this.dueBy(end)) {
      const timer = this.pending.get(id)!;
      this.pending.delete(id);
      this.at = timer.due;
      timer.fire();
      await turn();
    }
    this.at = end;
    await turn();
  }

  /** The pending timer that falls due first, if it does by `end` (ties in the order they were set). */
  private dueBy(end: number): number | undefined {
    let first: [number, Pending] | undefined;
    for (const entry of this.pending) if (entry[1].due <= end && (!first || entry[1].due < first[1].due)) first = entry;
    return first?.[0];
  }
}
