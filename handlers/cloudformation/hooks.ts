// Hook actions: DescribeChangeSetHooks (which hooks a change set's resources will invoke), GetHookResult and
// ListHookResults (the invocations state-machine/hooks/ recorded).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeChangeSetHooks.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_GetHookResult.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ListHookResults.html
import { hookResultNotFound, hookTargetWithoutResults, validationError } from '../../domain/errors.js';
import * as changeSetLookup from '../../state-machine/changeSetLookup.js';
import { docOf } from '../../state-machine/changeSets.js';
import { hooksAt } from '../../state-machine/hooks/invoke.js';
import type { HookAction } from '../../state-machine/hooks/configuration.js';
import type { HookResultRecord, HookTargetType } from '../../storage/index.js';
import type { ChangeSetHook, HookResultSummary } from '../../generated/cloudformation.js';
import { decodeToken, encodeToken, type Handler, type HandlerContext } from './context.js';

const PAGE_SIZE = 100;

/** A planned change's action as a hook sees it: an Import or Dynamic change invokes no pre-provision hook. */
const HOOK_ACTION_OF: Partial<Record<string, HookAction>> = { Add: 'CREATE', Modify: 'UPDATE', Remove: 'DELETE' };

/** PLANNING while the change set is being created, PLANNED once it is, UNAVAILABLE when its creation failed. */
function hooksStatus(status: string): string {
  if (status === 'CREATE_PENDING' || status === 'CREATE_IN_PROGRESS') return 'PLANNING';
  return status === 'FAILED' ? 'UNAVAILABLE' : 'PLANNED';
}

function page<T>(items: T[], token: string | undefined): { items: T[]; next?: string } {
  const start = decodeToken(token) ?? 0;
  const more = start + PAGE_SIZE < items.length;
  return { items: items.slice(start, start + PAGE_SIZE), next: more ? encodeToken(start + PAGE_SIZE) : undefined };
}

export const describeChangeSetHooks: Handler<'DescribeChangeSetHooks'> = (ctx, input) => {
  const cs = changeSetLookup.findChangeSet(ctx.engine, ctx.caller, input.ChangeSetName, input.StackName);
  const stack = ctx.store.stacks.byId(cs.stackId)!;
  const hooks: ChangeSetHook[] = [];
  for (const change of docOf(cs).changes) {
    const action = HOOK_ACTION_OF[change.Action];
    if (!action || (input.LogicalResourceId !== undefined && change.LogicalResourceId !== input.LogicalResourceId))
      continue;
    const point = {
      targetType: 'RESOURCE' as const,
      action,
      stackName: stack.name,
      resourceType: change.ResourceType,
      account: cs.account,
      region: cs.region,
      targetId: change.LogicalResourceId,
      executionTarget: stack.stackId,
    };
    for (const { hook, failureMode } of hooksAt(ctx.engine.deps.hooks, ctx.store, point)) {
      hooks.push({
        InvocationPoint: 'PRE_PROVISION',
        FailureMode: failureMode,
        TypeName: hook.typeName,
        TypeVersionId: hook.typeVersionId,
        TypeConfigurationVersionId: hook.configurationVersionId,
        TargetDetails: {
          TargetType: 'RESOURCE',
          ResourceTargetDetails: {
            LogicalResourceId: change.LogicalResourceId,
            ResourceType: change.ResourceType,
            ResourceAction: change.Action,
          },
        },
      });
    }
  }
  const shown = page(hooks, input.NextToken);
  return {
    ChangeSetId: cs.changeSetId,
    ChangeSetName: cs.name,
    Hooks: shown.items,
    Status: hooksStatus(cs.status),
    NextToken: shown.next,
    StackId: stack.stackId,
    StackName: stack.name,
  };
};

export const getHookResult: Handler<'GetHookResult'> = (ctx, input) => {
  const id = input.HookResultId ?? '';
  const r = ctx.store.hookResults.byId(ctx.caller.account, ctx.caller.region, id);
  if (!r) throw hookResultNotFound(id);
  return {
    HookResultId: r.id,
    InvocationPoint: 'PRE_PROVISION',
    FailureMode: r.failureMode,
    TypeName: r.typeName,
    TypeVersionId: r.typeVersionId,
    TypeConfigurationVersionId: r.typeConfigurationVersionId,
    TypeArn: r.typeArn,
    Status: r.status,
    HookStatusReason: r.statusReason,
    InvokedAt: new Date(r.invokedAt),
    Target: { TargetType: r.targetType, TargetTypeName: r.targetTypeName, TargetId: r.targetId, Action: r.action },
    Annotations: [],
  };
};

/** ListHookResults' parameter combinations, as the API reference lists them; any other is refused. */
function checkCombination(input: { TargetType?: string; TargetId?: string; TypeArn?: string; Status?: string }) {
  const byTarget = input.TargetType !== undefined || input.TargetId !== undefined;
  if (byTarget && (input.TargetType === undefined || input.TargetId === undefined))
    throw validationError('TargetType and TargetId must be specified together');
  if (byTarget && (input.TypeArn !== undefined || input.Status !== undefined))
    throw validationError('TypeArn and Status cannot be used together with TargetType and TargetId');
  if (input.Status !== undefined && input.TypeArn === undefined)
    throw validationError('Status can only be used in combination with TypeArn');
}

/** A stack target may be named by its name (its logical id) or its ARN. */
function ofTarget(ctx: HandlerContext, targetType: HookTargetType, targetId: string): HookResultRecord[] {
  const { account, region } = ctx.caller;
  return ctx.store.hookResults
    .list(account, region, { targetType })
    .filter((r) => r.targetId === targetId || (targetType === 'STACK' && r.executionTarget === targetId));
}

export const listHookResults: Handler<'ListHookResults'> = (ctx, input) => {
  checkCombination(input);
  const { account, region } = ctx.caller;
  const targetType = input.TargetType as HookTargetType | undefined;
  const results =
    targetType !== undefined && input.TargetId !== undefined
      ? ofTarget(ctx, targetType, input.TargetId)
      : ctx.store.hookResults.list(account, region, { typeArn: input.TypeArn, status: input.Status });
  if (targetType !== undefined && input.TargetId !== undefined && !results.length)
    throw hookTargetWithoutResults(targetType, input.TargetId);
  const shown = page(results, input.NextToken);
  return {
    TargetType: input.TargetType,
    TargetId: input.TargetId,
    HookResults: shown.items.map((r) => summary(r, targetType === undefined)),
    NextToken: shown.next,
  };
};

/** HookExecutionTarget and InvokedAt are shown only when the call names no target. */
function summary(r: HookResultRecord, unfiltered: boolean): HookResultSummary {
  return {
    HookResultId: r.id,
    InvocationPoint: 'PRE_PROVISION',
    FailureMode: r.failureMode,
    TypeName: r.typeName,
    TypeVersionId: r.typeVersionId,
    TypeConfigurationVersionId: r.typeConfigurationVersionId,
    Status: r.status,
    HookStatusReason: r.statusReason,
    TargetType: r.targetType,
    TargetId: r.targetId,
    TypeArn: r.typeArn,
    ...(unfiltered ? { InvokedAt: new Date(r.invokedAt), HookExecutionTarget: r.executionTarget } : {}),
  };
}
