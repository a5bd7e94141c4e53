// The doors through which a stack or resource status changes: each checks its table in statuses.ts and writes the
// status, its event and its journal row in one transaction. (Change sets have theirs in changeSetStatus.ts.)
import { v4 as uuidv4 } from 'uuid';
import type { Store, StackRecord, ResourceRecord, EventDetail } from '../storage/index.js';
import {
  actionInProgress,
  canBegin,
  canRecord,
  canTransition,
  isInProgress,
  ON_INTERNAL_FAILURE,
  RESOURCE_PHASES,
  type ResourceAction,
  type ResourcePhase,
  type StackStatus,
} from './statuses.js';
import type { ResourceStatus } from '../domain/statuses.js';
import { beginAutomaticRollback, eventOperationId } from './operationHistory.js';
import { EXPRESS_STATUS_REASON } from './deploymentConfig.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface OperationContext {
  store: Store;
  clock: Clock;
  operationId: string;
  token?: string;
  /** The automatic rollback the operation went on into: its events carry that operation's id (operationHistory.ts). */
  eventOperationId?: string;
  /** An operation run in EXPRESS mode (DeploymentConfig): its resources' completes carry AWS's Express reason. */
  express?: boolean;
}

/** AWS stamps DeletionTime when a rollback or delete starts, and LastUpdatedTime when an update or rollback does. */
const STAMPS_DELETION_TIME = new Set<StackStatus>(['ROLLBACK_IN_PROGRESS', 'DELETE_IN_PROGRESS']);
const STAMPS_UPDATED_TIME = new Set<StackStatus>(['ROLLBACK_IN_PROGRESS', 'UPDATE_IN_PROGRESS']);

/**
 * Event times strictly increase within a stack, so that resource EventIds (`<Logical>-<STATUS>-<timestamp>`, AWS's
 * format) stay unique even when two events of one resource fall in the same millisecond. They increase across a
 * tree of nested stacks too, as AWS's are causal: the parent's event for a nested stack, then the child's own events,
 * then the parent's completion of it. Every event of a tree also moves its root's time on.
 */
export function eventTime(operation: OperationContext, stackId: string): string {
  const { lastEventTime, eventTreeRoot } = operation.store;
  const own = newestTime(operation, stackId);
  const root = eventTreeRoot.get(stackId);
  const at = Math.max(
    operation.clock.now().getTime(),
    own + 1,
    root === undefined ? 0 : newestTime(operation, root) + 1,
  );
  lastEventTime.set(stackId, at);
  if (root !== undefined) lastEventTime.set(root, at);
  return new Date(at).toISOString();
}

/** A stack's newest event time: kept while its operation runs, else read back (with its tree's root, if nested). */
function newestTime(operation: OperationContext, stackId: string): number {
  const { lastEventTime, eventTreeRoot } = operation.store;
  const known = lastEventTime.get(stackId);
  if (known !== undefined) return known;
  const newest = operation.store.events.page(stackId, undefined, 1).at(0);
  const rootId = operation.store.stacks.byId(stackId)?.doc.rootId;
  if (rootId) eventTreeRoot.set(stackId, rootId);
  const at = newest ? Date.parse(newest.timestamp) : 0;
  lastEventTime.set(stackId, at);
  return at;
}

/** The one place a stack's status is written: StackRecord's status is readonly everywhere else. */
function write(stack: StackRecord, status: StackStatus, statusReason: string | undefined): void {
  Object.assign(stack, { status, statusReason });
}

/**
 * A new stack's first row, through the door too: its first status (FIRST_STACK_STATUSES), its template body and its
 * first event, in one transaction.
 */
export function insertStack(operation: OperationContext, stack: StackRecord, body: string, reason?: string): void {
  if (!canBegin(stack.status)) throw new Error(`a stack cannot begin in ${stack.status}: ${stack.stackId}`);
  const { store } = operation;
  const rootId = stack.doc.rootId;
  if (rootId) {
    // a nested stack begins after its parent's event for it (eventTime)
    store.eventTreeRoot.set(stack.stackId, rootId);
    const after = newestTime(operation, rootId) + 1;
    if (Date.parse(stack.createdAt) < after) stack.createdAt = new Date(after).toISOString();
    store.lastEventTime.set(rootId, Math.max(after, Date.parse(stack.createdAt)));
  }
  store.transaction(() => {
    stack.templateId = store.templates.insert(stack.stackId, body, stack.createdAt);
    write(stack, stack.status, reason);
    store.stacks.insert(stack);
    appendStackEvent(operation, stack, stack.createdAt);
  });
  // the newest event time of a new stack is known: eventTime() need not read it back
  store.lastEventTime.set(stack.stackId, Date.parse(stack.createdAt));
}

export function setStackStatus(
  operation: OperationContext,
  stack: StackRecord,
  to: StackStatus,
  reason?: string,
): void {
  const from = stack.status;
  if (!canTransition(from, to)) {
    throw new Error(`illegal stack transition ${from} → ${to} for ${stack.stackId}`);
  }
  const timestamp = eventTime(operation, stack.stackId);
  beginAutomaticRollback(operation, stack, to, timestamp);
  write(stack, to, reason);
  if (STAMPS_DELETION_TIME.has(to)) stack.doc.deletionTime = timestamp;
  if (STAMPS_UPDATED_TIME.has(to)) stack.updatedAt = timestamp;
  if (to === 'DELETE_COMPLETE') {
    stack.deletedAt = timestamp;
    operation.store.lastEventTime.delete(stack.stackId);
  }
  operation.store.transaction(() => {
    operation.store.stacks.writeStatus(stack);
    appendStackEvent(operation, stack, timestamp);
    operation.store.journal.append({
      operationId: operation.operationId,
      stackId: stack.stackId,
      action: 'stack',
      phase: to,
      detail: reason,
      timestamp,
    });
  });
}

/** After an unexpected error the stack takes its operation's failed status rather than staying *_IN_PROGRESS. */
export function failInternally(operation: OperationContext, stack: StackRecord): void {
  if (!isInProgress(stack.status)) return;
  const to = ON_INTERNAL_FAILURE[stack.status];
  try {
    setStackStatus(operation, stack, to, 'Internal Failure');
  } catch {
    // the store itself failed: keep the settled status in memory so no further operation hangs on it
    write(stack, to, stack.statusReason);
  }
}

/** A resource left in an action's start status by an error takes that action's failed status, with the reason. */
export function failResource(operation: OperationContext, resource: ResourceRecord, reason: string): void {
  const action = actionInProgress(resource.status);
  if (!action) return;
  try {
    setResourceStatus(operation, resource, action, 'failed', { reason });
  } catch {
    // the store itself failed: at least the operation sees a settled resource
    resource.status = RESOURCE_PHASES[action].failed;
  }
}

/** The stack's own event for its current status (LogicalResourceId = name, PhysicalResourceId = stack id). */
export function appendStackEvent(operation: OperationContext, stack: StackRecord, timestamp: string): void {
  operation.store.events.append({
    stackId: stack.stackId,
    account: stack.account,
    region: stack.region,
    eventId: uuidv4(),
    logicalId: stack.name,
    physicalId: stack.stackId,
    type: 'AWS::CloudFormation::Stack',
    status: stack.status,
    reason: stack.statusReason,
    token: operation.token,
    timestamp,
    operationId: eventOperationId(operation),
  });
}

export interface ResourceEventOptions {
  reason?: string;
  /** Omit ResourceProperties from the event (cleanup deletes). */
  withoutProperties?: boolean;
  /** Cleanup-phase deletes use `<LogicalId>-<uuid>` event ids, as AWS does. */
  uuidEventId?: boolean;
  /** Extra writes (the world change) that must commit with this status. */
  alongside?: () => void;
  /** Drop the resource row (a resource removed from the stack). */
  removeRow?: boolean;
  /** An event inside an action ("Resource creation Initiated"): no journal row of its own. */
  midAction?: boolean;
}

/** A resource's events repeat its properties: serialise each properties object once. */
const PROPERTIES_JSON = new WeakMap<object, string>();

function propertiesJson(properties: Record<string, unknown> | undefined): string {
  if (!properties) return '{}';
  let json = PROPERTIES_JSON.get(properties);
  if (json === undefined) {
    json = JSON.stringify(properties);
    PROPERTIES_JSON.set(properties, json);
  }
  return json;
}

/** In EXPRESS mode AWS ends a resource's create, update and delete with its Express reason. */
const EXPRESS_ACTIONS = new Set<ResourceAction>(['Create', 'Update', 'Delete']);
const expressReason = (operation: OperationContext, action: ResourceAction, phase: ResourcePhase) =>
  operation.express && phase === 'complete' && EXPRESS_ACTIONS.has(action) ? EXPRESS_STATUS_REASON : undefined;

/** The one door for a resource's status: the action's phase, taken from RESOURCE_PHASES and checked against it. */
export function setResourceStatus(
  operation: OperationContext,
  resource: ResourceRecord,
  action: ResourceAction,
  phase: ResourcePhase,
  options: ResourceEventOptions = {},
): void {
  if (!canRecord(resource.status, action, phase)) {
    throw new Error(
      `illegal resource transition ${resource.status} → ${action} ${phase} for ${resource.logicalId} of ${resource.stackId}`,
    );
  }
  const status = RESOURCE_PHASES[action][phase];
  const timestamp = eventTime(operation, resource.stackId);
  resource.status = status;
  resource.statusReason = options.reason ?? expressReason(operation, action, phase);
  resource.updatedAt = timestamp;
  const eventId = options.uuidEventId
    ? `${resource.logicalId}-${uuidv4()}`
    : `${resource.logicalId}-${status}-${timestamp}`;
  operation.store.transaction(() => {
    options.alongside?.();
    if (options.removeRow) operation.store.resources.remove(resource.stackId, resource.logicalId);
    else operation.store.resources.save(resource);
    appendResourceEvent(operation, resource, { eventId, timestamp, ...options, reason: resource.statusReason });
    // the journal marks where an action starts and ends, not the events in between
    if (!options.midAction)
      operation.store.journal.append({
        operationId: operation.operationId,
        stackId: resource.stackId,
        logicalId: resource.logicalId,
        action: 'resource',
        phase: status,
        detail: resource.physicalId,
        timestamp,
      });
  });
}

/** A resource's event for its current status (the status itself is written by the caller, or left as it is). */
function appendResourceEvent(
  operation: OperationContext,
  resource: ResourceRecord,
  event: { eventId: string; timestamp: string; reason?: string; withoutProperties?: boolean },
): void {
  operation.store.events.append({
    stackId: resource.stackId,
    account: resource.account,
    region: resource.region,
    eventId: event.eventId,
    logicalId: resource.logicalId,
    physicalId: resource.physicalId ?? '',
    type: resource.type,
    status: resource.status,
    reason: event.reason,
    properties: event.withoutProperties ? undefined : propertiesJson(resource.doc.properties),
    token: operation.token,
    timestamp: event.timestamp,
    operationId: eventOperationId(operation),
  });
}

/**
 * An event that changes no status: what happened to a resource in the middle of its action (a received signal),
 * under the action's in-progress status, with no journal row. Outside an action it is a bug, as an illegal
 * transition is.
 */
export function recordResourceEvent(operation: OperationContext, resource: ResourceRecord, reason: string): void {
  if (!actionInProgress(resource.status)) {
    throw new Error(`no event of ${resource.logicalId} of ${resource.stackId} outside an action (${resource.status})`);
  }
  const timestamp = eventTime(operation, resource.stackId);
  const eventId = `${resource.logicalId}-${resource.status}-${timestamp}`;
  operation.store.transaction(() => appendResourceEvent(operation, resource, { eventId, timestamp, reason }));
}

/**
 * A hook invocation's event (state-machine/hooks/): it changes no status. A resource's shows the status of the
 * action the hook runs before (CREATE_IN_PROGRESS of a resource not yet created, with no physical id); a stack's,
 * the stack's status. The event carries the Hook* fields.
 */
export function recordHookEvent(
  scope: OperationContext,
  target: { stack: StackRecord } | { resource: ResourceRecord; status: ResourceStatus },
  detail: EventDetail,
): void {
  const stackId = 'stack' in target ? target.stack.stackId : target.resource.stackId;
  const timestamp = eventTime(scope, stackId);
  const shown =
    'stack' in target
      ? {
          account: target.stack.account,
          region: target.stack.region,
          logicalId: target.stack.name,
          physicalId: target.stack.stackId,
          type: 'AWS::CloudFormation::Stack',
          status: target.stack.status,
        }
      : {
          account: target.resource.account,
          region: target.resource.region,
          logicalId: target.resource.logicalId,
          physicalId: target.resource.physicalId ?? '',
          type: target.resource.type,
          status: target.status,
        };
  scope.store.transaction(() =>
    scope.store.events.append({
      stackId,
      ...shown,
      eventId: `${shown.logicalId}-${uuidv4()}`,
      token: scope.token,
      timestamp,
      operationId: eventOperationId(scope),
      detail,
    }),
  );
}
