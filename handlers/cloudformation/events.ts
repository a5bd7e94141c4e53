// DescribeStackEvents: newest first, paginated with NextToken.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeStackEvents.html
import { stackNotFound } from '../../domain/errors.js';
import type { EventRecord } from '../../storage/index.js';
import type { StackEvent } from '../../generated/cloudformation.js';
import { decodeToken, encodeToken, findStack, type Handler } from './context.js';

const PAGE_SIZE = 100;

/** An event as DescribeStackEvents shows it (the console's feed shows the same). */
export function stackEventView(e: EventRecord, stackName: string): StackEvent {
  return {
    StackId: e.stackId,
    EventId: e.eventId,
    StackName: stackName,
    OperationId: e.operationId,
    LogicalResourceId: e.logicalId,
    PhysicalResourceId: e.physicalId,
    ResourceType: e.type,
    Timestamp: new Date(e.timestamp),
    ResourceStatus: e.status,
    ResourceStatusReason: e.reason,
    ResourceProperties: e.properties,
    ClientRequestToken: e.token,
    // a hook's invocation events (state-machine/hooks/) carry its fields
    HookType: e.detail?.HookType,
    HookStatus: e.detail?.HookStatus,
    HookStatusReason: e.detail?.HookStatusReason,
    HookInvocationPoint: e.detail?.HookInvocationPoint,
    HookInvocationId: e.detail?.HookInvocationId,
    HookFailureMode: e.detail?.HookFailureMode,
  };
}

/** Pre-deployment validation's VALIDATION_ERROR events are DescribeEvents' only (state-machine/earlyValidation.ts). */
export const shownInStackEvents = (e: EventRecord): boolean => e.detail?.EventType !== 'VALIDATION_ERROR';

export const describeStackEvents: Handler<'DescribeStackEvents'> = (ctx, input) => {
  const stack = findStack(ctx, input.StackName);
  if (!stack) throw stackNotFound(input.StackName);
  const events = ctx.store.events.page(stack.stackId, decodeToken(input.NextToken), PAGE_SIZE + 1);
  const page = events.slice(0, PAGE_SIZE);
  return {
    StackEvents: page.filter(shownInStackEvents).map((e) => stackEventView(e, stack.name)),
    NextToken: events.length > PAGE_SIZE ? encodeToken(page[page.length - 1].seq) : undefined,
  };
};
