// The Cloud Control invocation point: hooks whose configuration targets CLOUD_CONTROL run before a CreateResource,
// UpdateResource or DeleteResource request provisions anything. The request's ProgressEvent carries a
// HooksRequestToken (ListHookResults' TargetId for CLOUD_CONTROL), GetResourceRequestStatus lists the invocations as
// HooksProgressEvent, and a FAIL-mode failure fails the request before its handler runs.
// https://docs.aws.amazon.com/cloudcontrolapi/latest/userguide/security-hooks.html
// https://docs.aws.amazon.com/cloudcontrolapi/latest/APIReference/API_HookProgressEvent.html
import type { ReadonlyStore, Store } from '../../storage/index.js';
import type { Clock } from '../transitions.js';
import type { ApplicableHook, HookAction } from './configuration.js';
import { HOOK_REASONS, hooksAt, invokeHooks, type HookDoor, type InvocationPoint } from './invoke.js';

/** One Cloud Control request as its hooks see it. */
export interface CloudControlRequest {
  account: string;
  region: string;
  typeName: string;
  action: HookAction;
  /** The request's RequestToken (HookExecutionTarget). */
  requestToken: string;
  /** The request's HooksRequestToken (TargetId). */
  hooksToken: string;
}

/** One entry of GetResourceRequestStatus' HooksProgressEvent. */
export interface HookProgress {
  HookTypeName: string;
  HookTypeVersionId?: string;
  HookTypeArn: string;
  InvocationPoint: 'PRE_PROVISION';
  HookStatus: string;
  HookEventTime?: Date;
  HookStatusMessage?: string;
  FailureMode: string;
}

/** A Cloud Control request has no stack: StackFilters, which name stacks, do not apply to it (configuration.ts). */
function pointOf(request: CloudControlRequest): InvocationPoint {
  return {
    targetType: 'CLOUD_CONTROL',
    action: request.action,
    stackName: '',
    resourceType: request.typeName,
    account: request.account,
    region: request.region,
    targetId: request.hooksToken,
    executionTarget: request.requestToken,
  };
}

/** The hooks the request will invoke, decided when it is made (its ProgressEvent shows a HooksRequestToken if any). */
export function cloudControlHooks(
  door: HookDoor | undefined,
  store: ReadonlyStore,
  request: CloudControlRequest,
): ApplicableHook[] {
  return hooksAt(door, store, pointOf(request));
}

/** Runs the request's hooks in order; the reason the request fails when a FAIL-mode hook did not succeed. */
export function runCloudControlHooks(
  ctx: { store: Store; clock: Clock },
  door: HookDoor,
  hooks: readonly ApplicableHook[],
  request: CloudControlRequest,
): string | undefined {
  const outcome = invokeHooks(ctx, door, hooks, pointOf(request), () => undefined);
  return outcome.failedTypeNames.length ? HOOK_REASONS.hooksFailed(outcome.failedTypeNames) : undefined;
}

/**
 * GetResourceRequestStatus' HooksProgressEvent: each hook the request planned, in the order they run, with its
 * invocation once it has run and HOOK_PENDING before (while the request waits to start).
 */
export function hookProgressOf(
  store: ReadonlyStore,
  request: Pick<CloudControlRequest, 'account' | 'region' | 'hooksToken'>,
  planned: readonly ApplicableHook[],
): HookProgress[] {
  const invoked = store.hookResults.list(request.account, request.region, {
    targetType: 'CLOUD_CONTROL',
    targetId: request.hooksToken,
  });
  return planned.map(({ hook, failureMode }) => {
    const base = {
      HookTypeName: hook.typeName,
      HookTypeVersionId: hook.typeVersionId,
      HookTypeArn: hook.typeArn,
      InvocationPoint: 'PRE_PROVISION' as const,
      FailureMode: failureMode,
    };
    const r = invoked.find((i) => i.typeName === hook.typeName);
    if (!r) return { ...base, HookStatus: 'HOOK_PENDING' };
    return { ...base, HookStatus: r.status, HookEventTime: new Date(r.invokedAt), HookStatusMessage: r.statusReason };
  });
}
