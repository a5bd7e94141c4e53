// A new stack's first row: its template, the stack and its first event, in one transaction.
import type { StackRecord } from '../storage/index.js';
import { appendStackEvent, type OperationScope } from './transitions.js';

export function insertStack(scope: OperationScope, stack: StackRecord, body: string, reason?: string): void {
  const { store } = scope;
  store.transaction(() => {
    stack.templateId = store.templates.insert(stack.stackId, body, stack.createdAt);
    stack.statusReason = reason;
    store.stacks.insert(stack);
    appendStackEvent(scope, stack, stack.createdAt);
  });
  // the newest event time of a new stack is known: eventTime() need not read it back
  store.lastEventTime.set(stack.stackId, Date.parse(stack.createdAt));
}
