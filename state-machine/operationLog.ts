// One info line when a stack operation ends, read from the events it wrote: the stack, the operation, its final
// status, what it did to resources, how long it took and why it failed, so a person watching the terminal need not
// call DescribeStackEvents: `demo UPDATE_STACK → UPDATE_ROLLBACK_COMPLETE in 84 ms: Queue failed to update: …`.
import type { Logger } from 'pino';
import type { EventRecord, Store, StackRecord } from '../storage/index.js';

export interface OperationMark {
  /** The newest event before the operation's own (its resource events come after it). */
  afterSeq: number;
  startedAt: number;
}

export interface OperationSummary {
  stack: string;
  operation: string;
  status: string;
  created: number;
  updated: number;
  deleted: number;
  failed: number;
  durationMs: number;
  reason?: string;
}

const COUNTED: Partial<Record<string, 'created' | 'updated' | 'deleted'>> = {
  CREATE_COMPLETE: 'created',
  UPDATE_COMPLETE: 'updated',
  DELETE_COMPLETE: 'deleted',
};
const PAGE = 200;

export function markOperation(store: Store, stackId: string): OperationMark {
  return { afterSeq: store.events.page(stackId, undefined, 1)[0]?.seq ?? 0, startedAt: performance.now() };
}

/** The operation's events, oldest first, each marked when it is the stack's own. */
function operationEvents(store: Store, stack: StackRecord, afterSeq: number): { e: EventRecord; own: boolean }[] {
  const found: { e: EventRecord; own: boolean }[] = [];
  for (let before: number | undefined; ;) {
    const page = store.events.page(stack.stackId, before, PAGE);
    for (const e of page) {
      if (e.seq! <= afterSeq) return found.reverse();
      found.push({ e, own: e.physicalId === stack.stackId && e.type === 'AWS::CloudFormation::Stack' });
    }
    if (page.length < PAGE) return found.reverse();
    before = page.at(-1)!.seq;
  }
}

/**
 * Why an event is a failure, or undefined: a resource's `*_FAILED`, or the stack's own `*_FAILED` or rollback with
 * a reason (an update refused at the stack level, an export still in use, has no failed resource to name).
 */
function failureOf(e: EventRecord, own: boolean): string | undefined {
  if (own) {
    const failing = e.status.endsWith('_FAILED') || e.status.endsWith('ROLLBACK_IN_PROGRESS');
    return failing && e.reason ? e.reason : undefined;
  }
  if (!e.status.endsWith('_FAILED')) return undefined;
  const action = e.status.slice(0, -'_FAILED'.length).toLowerCase();
  return `${e.logicalId} failed to ${action}${e.reason ? `: ${e.reason}` : ''}`;
}

export function summarize(store: Store, stack: StackRecord, operation: string, mark: OperationMark): OperationSummary {
  const summary: OperationSummary = {
    stack: stack.name,
    operation,
    status: stack.status,
    created: 0,
    updated: 0,
    deleted: 0,
    failed: 0,
    durationMs: Math.round(performance.now() - mark.startedAt),
  };
  for (const { e, own } of operationEvents(store, stack, mark.afterSeq)) {
    summary.reason ??= failureOf(e, own);
    if (own) continue;
    const counted = COUNTED[e.status];
    if (counted) summary[counted] += 1;
    else if (e.status.endsWith('_FAILED')) summary.failed += 1;
  }
  return summary;
}

export function describeOperation(s: OperationSummary): string {
  const counts = (['created', 'updated', 'deleted', 'failed'] as const)
    .filter((k) => s[k] > 0)
    .map((k) => `${s[k]} ${k}`);
  return `${s.stack} ${s.operation} → ${s.status} in ${s.durationMs} ms${counts.length ? ` (${counts.join(', ')})` : ''}${s.reason ? `: ${s.reason}` : ''}`;
}

/** Logs the summary at info, or at warn when the operation failed or rolled back. */
export function logOperationEnd(
  log: Logger,
  store: Store,
  stack: StackRecord,
  operation: string,
  mark: OperationMark,
): void {
  if (!log.isLevelEnabled('warn')) return;
  const failed = /(FAILED|ROLLBACK)/.test(stack.status);
  if (!failed && !log.isLevelEnabled('info')) return;
  try {
    const summary = summarize(store, stack, operation, mark);
    log[failed ? 'warn' : 'info']({ operation: summary }, describeOperation(summary));
  } catch (err) {
    // a summary is never worth failing an operation's end for (the store may be closing)
    log.debug({ err }, 'no summary for this operation');
  }
}
