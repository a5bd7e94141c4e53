// The resource invocation points: a resource's pre-create, pre-update and pre-delete hooks, run by the operation
// just before the action's first status. Their events show the action's in-progress status; a FAIL-mode failure
// fails the resource with AWS's reason, before anything is provisioned.
import type { ResourceRecord } from '../../storage/index.js';
import { RESOURCE_PHASES } from '../statuses.js';
import { recordHookEvent } from '../transitions.js';
import type { Runtime } from '../runtime.js';
import type { HookAction } from './configuration.js';
import { HOOK_REASONS, hooksAt, invokeHooks, type InvocationOutcome, type InvocationPoint } from './invoke.js';

const PHASE_OF = { CREATE: 'Create', UPDATE: 'Update', DELETE: 'Delete' } as const;

/** Runs the resource's hooks for the action: which ran, and the reason it fails when a FAIL-mode hook failed. */
export function runResourceHooks(
  rt: Runtime,
  r: ResourceRecord,
  action: HookAction,
): InvocationOutcome & { failure?: string } {
  const point: InvocationPoint = {
    targetType: 'RESOURCE',
    action,
    stackName: rt.stack.name,
    resourceType: r.type,
    account: rt.stack.account,
    region: rt.stack.region,
    targetId: r.logicalId,
    executionTarget: rt.stack.stackId,
    logicalId: r.logicalId,
    metadata: rt.template.model.resources.get(r.logicalId)?.metadata ?? r.doc.metadata,
  };
  const hooks = hooksAt(rt.hooks, rt.store, point);
  if (!hooks.length || !rt.hooks) return { invoked: false, failedTypeNames: [] };
  const status = RESOURCE_PHASES[PHASE_OF[action]].start;
  const outcome = invokeHooks(rt, rt.hooks, hooks, point, (detail) =>
    recordHookEvent(rt, { resource: r, status }, detail),
  );
  const failure = outcome.failedTypeNames.length ? HOOK_REASONS.hooksFailed(outcome.failedTypeNames) : undefined;
  return { ...outcome, failure };
}
