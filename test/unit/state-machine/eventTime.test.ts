// Event times strictly increase within a stack (state-machine/transitions.ts) also across operations: the newest
// time is kept in memory only while an operation runs, and the next one reads it back from the stack's events.
import { describe, expect, it } from 'vitest';
import { Store, type StackRecord } from '../../../storage/index.js';
import { setStackStatus, type OperationContext } from '../../../state-machine/transitions.js';
import { insertStack, newStackRecord } from '../../../state-machine/stackRecords.js';

const AT = '2026-01-01T00:00:00.000Z';

const newStack = (): StackRecord => ({
  ...newStackRecord({ account: '123456789012', region: 'us-east-1' }, 'demo', 'CREATE_IN_PROGRESS', new Date(AT)),
  stackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/demo/1',
});

describe('event times across operations', () => {
  it('go on from the newest stored event once the in-memory time is dropped, with a clock standing still', () => {
    const store = Store.open(':memory:');
    const operation: OperationContext = { store, clock: { now: () => new Date(AT) }, operationId: 'op-1' };
    const stack = newStack();
    insertStack(operation, stack, '{}');
    setStackStatus(operation, stack, 'CREATE_COMPLETE');
    store.lastEventTime.delete(stack.stackId); // the operation's end (state-machine/engine.ts)
    setStackStatus({ ...operation, operationId: 'op-2' }, stack, 'UPDATE_IN_PROGRESS');
    const times = store.events
      .page(stack.stackId, undefined, 10)
      .map((e) => e.timestamp)
      .reverse();
    expect(times).toEqual([AT, '2026-01-01T00:00:00.001Z', '2026-01-01T00:00:00.002Z']);
  });
});
