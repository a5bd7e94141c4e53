// A stack's events cut into operations (newest first), each with its root cause: by OperationId when events carry
// one, else at the stack's own event that starts an operation, as AWS's console groups them.
import type { StackEvent } from './api.js';

export interface Operation {
  key: string;
  /** The stack's first status in the operation (CREATE_IN_PROGRESS, UPDATE_IN_PROGRESS, …). */
  title: string;
  started: string;
  /** Oldest first. */
  events: StackEvent[];
  rootCause?: StackEvent;
}

/** The stack statuses that open an operation; rollbacks and cleanups belong to the operation they follow. */
const OPENS = new Set([
  'CREATE_IN_PROGRESS',
  'UPDATE_IN_PROGRESS',
  'DELETE_IN_PROGRESS',
  'IMPORT_IN_PROGRESS',
  'REVIEW_IN_PROGRESS',
]);

export const isStackEvent = (e: StackEvent) => e.PhysicalResourceId === e.StackId;

/** The first failure that is not a cancellation (AWS's "detect root cause"): a resource's, else the stack's. */
export function rootCause(events: StackEvent[]): StackEvent | undefined {
  const failed = events.filter(
    (e) => e.ResourceStatus.endsWith('_FAILED') && !/cancel/i.test(e.ResourceStatusReason ?? ''),
  );
  return failed.find((e) => !isStackEvent(e)) ?? failed[0];
}

export function operations(events: StackEvent[]): Operation[] {
  const ordered = [...events].sort((a, b) => a.Seq - b.Seq);
  const groups: Operation[] = [];
  let current: Operation | undefined;
  for (const e of ordered) {
    const opens = e.OperationId
      ? e.OperationId !== current?.key
      : !current || (isStackEvent(e) && OPENS.has(e.ResourceStatus));
    if (opens) {
      const title = isStackEvent(e) ? e.ResourceStatus : 'OPERATION';
      current = { key: e.OperationId ?? e.EventId, title, started: e.Timestamp, events: [] };
      groups.push(current);
    }
    current!.events.push(e);
  }
  for (const g of groups) g.rootCause = rootCause(g.events);
  return groups.reverse();
}

export interface Bar {
  logicalId: string;
  /** create, update, delete, import: the first word of the status that opened the bar. */
  action: string;
  type: string;
  start: number;
  end?: number;
  status: string;
}

/** Each resource's actions in an operation as bars from *_IN_PROGRESS to the status that ends it. */
export function timelineBars(op: Operation): Bar[] {
  const bars: Bar[] = [];
  const open = new Map<string, Bar>();
  for (const e of op.events) {
    if (isStackEvent(e)) continue;
    const at = Date.parse(e.Timestamp);
    const running = open.get(e.LogicalResourceId);
    if (e.ResourceStatus.endsWith('_IN_PROGRESS')) {
      if (running) continue;
      const bar = {
        logicalId: e.LogicalResourceId,
        action: e.ResourceStatus.split('_')[0].toLowerCase(),
        type: e.ResourceType,
        start: at,
        status: e.ResourceStatus,
      };
      bars.push(bar);
      open.set(e.LogicalResourceId, bar);
    } else if (running) {
      running.end = at;
      running.status = e.ResourceStatus;
      open.delete(e.LogicalResourceId);
    }
  }
  return bars;
}
