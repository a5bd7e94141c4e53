// Runs a plan of resource actions over a dependency graph: every action whose prerequisites succeeded starts,
// in plan order among the ready ones, with bounded parallelism. Knows nothing of statuses or AWS.
import { setMaxListeners } from 'node:events';

export interface PlanRun {
  /** Action ids in plan order (a dependency-respecting order). */
  order: string[];
  /** The actions that must succeed before this one may start. */
  waitsOn(id: string): Iterable<string>;
  /** Performs the action; resolves true on success. The signal aborts when the plan stops. */
  run(id: string, signal: AbortSignal): Promise<boolean>;
  /** Stop starting new actions after the first failure (create/update), or keep going (delete). */
  stopOnFailure: boolean;
  concurrency?: number;
  /** Stops the plan from outside (CancelUpdateStack, TimeoutInMinutes): nothing new starts, in-flight work aborts. */
  stop?: AbortSignal;
}

export interface PlanOutcome {
  succeeded: Set<string>;
  failed: Set<string>;
  /** Never started: blocked by a failed prerequisite, or stopped. */
  notStarted: Set<string>;
}

/** Yield to the event loop every so many synchronous completions so API calls stay answered during big plans. */
const YIELD_EVERY = 64;

export async function runPlan(plan: PlanRun): Promise<PlanOutcome> {
  const succeeded = new Set<string>();
  const failed = new Set<string>();
  const position = new Map(plan.order.map((id, i) => [id, i]));
  const waiting = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const id of plan.order) {
    let count = 0;
    for (const dep of plan.waitsOn(id)) {
      if (!position.has(dep)) continue;
      count++;
      (dependents.get(dep) ?? dependents.set(dep, []).get(dep)!).push(id);
    }
    waiting.set(id, count);
  }
  const ready = new ReadyQueue((id) => position.get(id)!);
  for (const id of plan.order) if (waiting.get(id) === 0) ready.push(id);
  const controller = new AbortController();
  const limit = plan.concurrency ?? 32;
  // Each running action may listen on the signal (a delay, a wait) until it ends: up to `limit` at once is expected,
  // not the leak Node's default bound of ten listeners warns about.
  setMaxListeners(Math.max(10, limit * 2), controller.signal);
  let running = 0;
  let sinceYield = 0;
  let stopped = false;
  const stopFromOutside = () => {
    stopped = true;
    controller.abort();
  };
  if (plan.stop?.aborted) stopFromOutside();
  plan.stop?.addEventListener('abort', stopFromOutside, { once: true });

  await new Promise<void>((resolveAll) => {
    const pump = (): void => {
      while (!stopped && running < limit && ready.size) {
        const id = ready.pop();
        running++;
        plan.run(id, controller.signal).then(
          (ok) => finish(id, ok),
          () => finish(id, false),
        );
      }
      if (running === 0) resolveAll();
    };
    const finish = (id: string, ok: boolean): void => {
      running--;
      if (ok) {
        succeeded.add(id);
        for (const next of dependents.get(id) ?? []) {
          const left = waiting.get(next)! - 1;
          waiting.set(next, left);
          if (left === 0) ready.push(next);
        }
      } else {
        failed.add(id);
        if (plan.stopOnFailure && !stopped) {
          stopped = true;
          controller.abort();
        }
      }
      if (++sinceYield >= YIELD_EVERY) {
        sinceYield = 0;
        setImmediate(pump);
      } else pump();
    };
    pump();
  });
  plan.stop?.removeEventListener('abort', stopFromOutside);
  const notStarted = new Set(plan.order.filter((id) => !succeeded.has(id) && !failed.has(id)));
  return { succeeded, failed, notStarted };
}

/**
 * The ready actions, taken in plan order: a binary min-heap on plan position. (Sorting the ready list before every
 * start was quadratic for wide plans: 500 independent resources meant 500 sorts of up to 500 ids.)
 */
class ReadyQueue {
  private readonly heap: string[] = [];

  constructor(private readonly rank: (id: string) => number) {}

  get size(): number {
    return this.heap.length;
  }

  push(id: string): void {
    const { heap, rank } = this;
    heap.push(id);
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (rank(heap[parent]) <= rank(heap[i])) break;
      [heap[parent], heap[i]] = [heap[i], heap[parent]];
      i = parent;
    }
  }

  pop(): string {
    const { heap, rank } = this;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let min = i;
        if (l < heap.length && rank(heap[l]) < rank(heap[min])) min = l;
        if (r < heap.length && rank(heap[r]) < rank(heap[min])) min = r;
        if (min === i) break;
        [heap[min], heap[i]] = [heap[i], heap[min]];
        i = min;
      }
    }
    return top;
  }
}
