// A new stack's first row: its template, the stack and its first event, in one transaction.
import { v4 as uuidv4 } from 'uuid';
import type { StackRecord } from '../storage/index.js';
import type { OperationScope } from './transitions.js';

export function insertStack(scope: OperationScope, stack: StackRecord, body: string, reason?: string): void {
  const { store } = scope;
  store.transaction(() => {
    stack.templateId = store.templates.insert(stack.stackId, body, stack.createdAt);
    stack.statusReason = reason;
    store.stacks.insert(stack);
    store.events.append({
      stackId: stack.stackId,
      account: stack.account,
      region: stack.region,
      eventId: uuidv4(),
      logicalId: stack.name,
      physicalId: stack.stackId,
      type: 'AWS::CloudFormation::Stack',
      status: stack.status,
      reason,
      token: scope.token,
      timestamp: stack.createdAt,
    });
  });
}
