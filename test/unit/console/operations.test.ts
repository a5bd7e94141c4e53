// The console's cut of a stack's events into operations, its root cause, and its timeline bars (console/src/operations.ts).
import { describe, expect, it } from 'vitest';
import { operations, rootCause, timelineBars } from '../../../console/src/operations.js';
import type { StackEvent } from '../../../console/src/api.js';

const STACK = 'arn:aws:cloudformation:us-east-1:000000000000:stack/app/1';
let seq = 0;
function ev(logicalId: string, status: string, reason?: string, extra: Partial<StackEvent> = {}): StackEvent {
  seq++;
  const own = logicalId === 'app';
  return {
    StackId: STACK,
    EventId: `e${seq}`,
    StackName: 'app',
    LogicalResourceId: logicalId,
    PhysicalResourceId: own ? STACK : `${logicalId}-id`,
    ResourceType: own ? 'AWS::CloudFormation::Stack' : 'AWS::SQS::Queue',
    Timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    ResourceStatus: status,
    ResourceStatusReason: reason,
    Seq: seq,
    ...extra,
  };
}

describe('operations', () => {
  it('cuts at the stack event that opens an operation; a rollback stays in the operation it undoes', () => {
    const events = [
      ev('app', 'CREATE_IN_PROGRESS', 'User Initiated'),
      ev('Queue', 'CREATE_IN_PROGRESS'),
      ev('Queue', 'CREATE_COMPLETE'),
      ev('app', 'CREATE_COMPLETE'),
      ev('app', 'UPDATE_IN_PROGRESS', 'User Initiated'),
      ev('Queue', 'UPDATE_IN_PROGRESS'),
      ev('Other', 'CREATE_FAILED', 'Resource creation cancelled'),
      ev('Queue', 'UPDATE_FAILED', 'boom'),
      ev('app', 'UPDATE_ROLLBACK_IN_PROGRESS', 'The following resource(s) failed to update: [Queue].'),
      ev('Queue', 'UPDATE_COMPLETE'),
      ev('app', 'UPDATE_ROLLBACK_COMPLETE'),
    ];
    const ops = operations([...events].reverse());
    expect(ops.map((o) => [o.title, o.events.length])).toEqual([
      ['UPDATE_IN_PROGRESS', 7],
      ['CREATE_IN_PROGRESS', 4],
    ]);
    // the first failure that is not a cancellation, though the cancellation came first
    expect(ops[0].rootCause?.LogicalResourceId).toBe('Queue');
    expect(ops[1].rootCause).toBeUndefined();
  });

  it('groups by OperationId when the events carry one', () => {
    const a = { OperationId: 'op-a' };
    const b = { OperationId: 'op-b' };
    const ops = operations([
      ev('app', 'CREATE_IN_PROGRESS', undefined, a),
      ev('app', 'CREATE_COMPLETE', undefined, a),
      ev('Queue', 'UPDATE_IN_PROGRESS', undefined, b),
      ev('app', 'UPDATE_COMPLETE', undefined, b),
    ]);
    expect(ops.map((o) => o.key)).toEqual(['op-b', 'op-a']);
  });

  it('takes the stack’s own failure as root cause when no resource failed', () => {
    expect(rootCause([ev('app', 'CREATE_FAILED', 'Template error')])?.ResourceStatusReason).toBe('Template error');
  });

  it('draws one bar per action, from IN_PROGRESS to the status that ends it', () => {
    const [op] = operations([
      ev('app', 'CREATE_IN_PROGRESS'),
      ev('Queue', 'CREATE_IN_PROGRESS'),
      ev('Queue', 'CREATE_IN_PROGRESS', 'Resource creation Initiated'),
      ev('Queue', 'CREATE_FAILED', 'boom'),
      ev('Queue', 'DELETE_IN_PROGRESS'),
      ev('Queue', 'DELETE_COMPLETE'),
      ev('Topic', 'CREATE_IN_PROGRESS'),
    ]);
    const bars = timelineBars(op);
    expect(bars.map((b) => [b.logicalId, b.action, b.status, b.end !== undefined])).toEqual([
      ['Queue', 'create', 'CREATE_FAILED', true],
      ['Queue', 'delete', 'DELETE_COMPLETE', true],
      ['Topic', 'create', 'CREATE_IN_PROGRESS', false],
    ]);
    expect(bars[0].end! - bars[0].start).toBe(2000);
  });
});
