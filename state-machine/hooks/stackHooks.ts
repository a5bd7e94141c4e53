// The stack and change-set invocation points: a STACK-target hook runs before a stack's create, update or delete
// provisions anything (its events under the stack's own logical id and status), a CHANGE_SET-target hook when a
// change set is created. A FAIL-mode failure fails the operation (or the change set) with AWS's reason.
import type { StackRecord, Store } from '../../storage/index.js';
import { recordHookEvent, type OperationContext } from '../transitions.js';
import type { Runtime } from '../runtime.js';
import type { HookAction } from './configuration.js';
import { HOOK_REASONS, hooksAt, invokeHooks, type HookDoor, type InvocationPoint } from './invoke.js';

/** The stack's hooks before its operation provisions: the reason the operation fails with, when one failed. */
export function runStackHooks(rt: Runtime, action: HookAction): string | undefined {
  // a restart resuming the run has had its stack hooks already
  if (rt.resumedWaits) return undefined;
  const point: InvocationPoint = {
    targetType: 'STACK',
    action,
    stackName: rt.stack.name,
    account: rt.stack.account,
    region: rt.stack.region,
    targetId: rt.stack.name,
    executionTarget: rt.stack.stackId,
    metadata: rt.template.model.metadata,
  };
  const hooks = hooksAt(rt.hooks, rt.store, point);
  if (!hooks.length || !rt.hooks) return undefined;
  const { failedTypeNames } = invokeHooks(rt, rt.hooks, hooks, point, (detail) =>
    recordHookEvent(rt, { stack: rt.stack }, detail),
  );
  return failedTypeNames.length ? HOOK_REASONS.hooksFailed(failedTypeNames) : undefined;
}

/** What a change set's hooks need: where it is, its id, and the template Metadata that speaks for it. */
export interface ChangeSetHookTarget {
  scope: OperationContext;
  door: HookDoor | undefined;
  stack: StackRecord;
  changeSetId: string;
  metadata?: unknown;
}

/**
 * CreateChangeSet's hooks (the change set's target, recorded for ListHookResults with TargetType CHANGE_SET): the
 * StatusReason the change set fails with, when a FAIL-mode hook failed.
 */
export function runChangeSetHooks(target: ChangeSetHookTarget): string | undefined {
  const { stack, door } = target;
  const point: InvocationPoint = {
    targetType: 'CHANGE_SET',
    action: 'CREATE',
    stackName: stack.name,
    account: stack.account,
    region: stack.region,
    targetId: target.changeSetId,
    executionTarget: stack.stackId,
    metadata: target.metadata,
  };
  const store: Store = target.scope.store;
  const hooks = hooksAt(door, store, point);
  if (!hooks.length || !door) return undefined;
  const { failedTypeNames } = invokeHooks(target.scope, door, hooks, point, () => undefined);
  return failedTypeNames.length
    ? `Change set creation failed. ${HOOK_REASONS.hooksFailed(failedTypeNames)}`
    : undefined;
}
