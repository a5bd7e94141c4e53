// DescribeEvents: the events of one operation (by OperationId), of a change set's creation and execution (by
// ChangeSetName), or of a stack's newest operation (by StackName), newest first, with each operation's type,
// status and times, and Filters.FailedEvents.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeEvents.html
import { stackNotFound, validationError } from '../../domain/errors.js';
import type { EventRecord, StackOperationRecord, StackRecord } from '../../storage/index.js';
import type { OperationEvent } from '../../generated/cloudformation.js';
import { findChangeSet } from '../../state-machine/changeSetLookup.js';
import { decodeToken, encodeToken, findStack, type Handler, type HandlerContext } from './context.js';

const PAGE_SIZE = 100;
/** Rows read per step while FailedEvents skips the others. */
const SCAN_STEP = 500;
const ERROR_EVENT_TYPES = new Set(['VALIDATION_ERROR', 'PROVISIONING_ERROR', 'HOOK_INVOCATION_ERROR']);
const NONE_GIVEN = 'One of ChangeSetName, OperationId or StackName must be specified';

interface AskedAbout {
  stack: StackRecord;
  operations: StackOperationRecord[];
}

export const describeEvents: Handler<'DescribeEvents'> = (ctx, input) => {
  const asked = operationsAskedAbout(ctx, input.StackName, input.ChangeSetName, input.OperationId);
  if (!asked) return { OperationEvents: [] };
  const failedOnly = input.Filters?.FailedEvents === true;
  const ids = asked.operations.map((op) => op.operationId);
  const page: EventRecord[] = [];
  let before = decodeToken(input.NextToken);
  let more = false;
  for (;;) {
    const rows = ctx.store.events.pageOfOperations(asked.stack.stackId, ids, before, SCAN_STEP);
    for (const e of rows) {
      if (failedOnly && !isFailure(asked.stack, e)) continue;
      if (page.length === PAGE_SIZE) {
        more = true;
        break;
      }
      page.push(e);
    }
    if (more || rows.length < SCAN_STEP) break;
    before = rows[rows.length - 1].seq;
  }
  const byId = new Map(asked.operations.map((op) => [op.operationId, op]));
  return {
    OperationEvents: page.map((e) => operationEvent(asked.stack, e, byId.get(e.operationId ?? ''))),
    NextToken: more ? encodeToken(page[page.length - 1].seq) : undefined,
  };
};

/** Which stack and operations the call asks about; undefined when an OperationId names none of the caller's. */
function operationsAskedAbout(ctx: HandlerContext, stackName?: string, changeSetName?: string, operationId?: string) {
  // AWS's check: a change set given by name alone names nothing (it says so with this text)
  if (!stackName && !operationId && (!changeSetName || !changeSetName.startsWith('arn:'))) {
    throw validationError(NONE_GIVEN);
  }
  if (changeSetName) {
    const cs = findChangeSet(ctx.engine, ctx.caller, changeSetName, stackName);
    const stack = ctx.store.stacks.byId(cs.stackId)!;
    const operations = ctx.store.history.ofChangeSet(cs.changeSetId);
    return { stack, operations: operationId ? operations.filter((o) => o.operationId === operationId) : operations };
  }
  if (operationId) {
    const op = ctx.store.history.byId(operationId);
    const stack = op && ctx.store.stacks.byId(op.stackId);
    if (!stack || stack.account !== ctx.caller.account || stack.region !== ctx.caller.region) return undefined;
    if (stackName && stackName !== stack.name && stackName !== stack.stackId) return undefined;
    return { stack, operations: [op] } satisfies AskedAbout;
  }
  const stack = findStack(ctx, stackName!);
  if (!stack) throw stackNotFound(stackName!);
  const newest = ctx.store.history.latestOf(stack.stackId);
  return { stack, operations: newest ? [newest] : [] } satisfies AskedAbout;
}

/** A failure: a status that failed, or an event whose type is one of AWS's error types. */
function isFailure(stack: StackRecord, e: EventRecord): boolean {
  return e.status.endsWith('_FAILED') || ERROR_EVENT_TYPES.has(eventTypeOf(stack, e));
}

/** The stack's own events are STACK_EVENTs, a resource's failure a PROVISIONING_ERROR, the rest PROGRESS_EVENTs. */
function eventTypeOf(stack: StackRecord, e: EventRecord): string {
  if (e.detail?.EventType) return e.detail.EventType;
  if (e.physicalId === stack.stackId) return 'STACK_EVENT';
  return e.status.endsWith('_FAILED') ? 'PROVISIONING_ERROR' : 'PROGRESS_EVENT';
}

function operationEvent(stack: StackRecord, e: EventRecord, op: StackOperationRecord | undefined): OperationEvent {
  return {
    EventId: e.eventId,
    StackId: e.stackId,
    OperationId: e.operationId,
    OperationType: op?.kind,
    OperationStatus: op?.status,
    EventType: eventTypeOf(stack, e),
    LogicalResourceId: e.logicalId,
    PhysicalResourceId: e.physicalId,
    ResourceType: e.type,
    Timestamp: new Date(e.timestamp),
    StartTime: op ? new Date(op.startedAt) : undefined,
    EndTime: op?.endedAt ? new Date(op.endedAt) : undefined,
    // a validation event has no status
    ResourceStatus: e.status || undefined,
    ResourceStatusReason: e.reason,
    ResourceProperties: e.properties,
    ClientRequestToken: e.token,
    ...e.detail,
  };
}
