// The scheduler starts ready actions in plan order (deterministic), however wide the plan; see state-machine/scheduler.ts.
import { describe, expect, it } from 'vitest';
import { runPlan } from '../../../state-machine/scheduler.js';

function recordStarts(order: string[], deps: Record<string, string[]>, concurrency: number) {
  const started: string[] = [];
  return runPlan({
    order,
    waitsOn: (id) => deps[id] ?? [],
    run: async (id) => {
      started.push(id);
      return true;
    },
    stopOnFailure: true,
    concurrency,
  }).then((outcome) => ({ started, outcome }));
}

describe('runPlan order', () => {
  it('starts independent actions in plan order, not in the order they became ready', async () => {
    // c and a become ready when z finishes; plan order puts a before c.
    const { started } = await recordStarts(['z', 'a', 'b', 'c'], { a: ['z'], c: ['z'] }, 1);
    expect(started).toEqual(['z', 'a', 'b', 'c']);
  });

  it('runs a wide plan of 2,000 independent actions exactly once each, in plan order', async () => {
    const order = Array.from({ length: 2000 }, (_, i) => `r${(i * 7919) % 2000}`);
    const { started, outcome } = await recordStarts(order, {}, 1);
    expect(started).toEqual(order);
    expect(outcome.succeeded.size).toBe(2000);
  });

  it('starts a dependant once all its prerequisites succeeded, and the waiting ones by plan position', async () => {
    // Concurrency 1: a finishes first and releases y; b then releases x (before w in the plan).
    const order = ['a', 'b', 'w', 'x', 'y'];
    const deps = { x: ['a', 'b'], y: ['a'], w: ['b', 'y'] };
    const { started } = await recordStarts(order, deps, 1);
    expect(started).toEqual(['a', 'b', 'x', 'y', 'w']);
  });
});
