// DescribeStackEvents: newest first, paginated with NextToken.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeStackEvents.html
import { stackNotFound } from '../../domain/errors.js';
import { decodeToken, encodeToken, findStack, type Handler } from './context.js';

const PAGE_SIZE = 100;

export const describeStackEvents: Handler<'DescribeStackEvents'> = (ctx, input) => {
  const stack = findStack(ctx, input.StackName);
  if (!stack) throw stackNotFound(input.StackName);
  const events = ctx.store.events.page(stack.stackId, decodeToken(input.NextToken), PAGE_SIZE + 1);
  const page = events.slice(0, PAGE_SIZE);
  return {
    // pre-deployment validation's VALIDATION_ERROR events are DescribeEvents' only (state-machine/earlyValidation.ts)
    StackEvents: page
      .filter((e) => e.detail?.EventType !== 'VALIDATION_ERROR')
      .map((e) => ({
        StackId: e.stackId,
        EventId: e.eventId,
        StackName: stack.name,
        OperationId: e.operationId,
        LogicalResourceId: e.logicalId,
        PhysicalResourceId: e.physicalId,
        ResourceType: e.type,
        Timestamp: new Date(e.timestamp),
        ResourceStatus: e.status,
        ResourceStatusReason: e.reason,
        ResourceProperties: e.properties,
        ClientRequestToken: e.token,
      })),
    NextToken: events.length > PAGE_SIZE ? encodeToken(page[page.length - 1].seq) : undefined,
  };
};
