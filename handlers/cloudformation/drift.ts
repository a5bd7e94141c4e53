// DetectStackDrift, DetectStackResourceDrift, DescribeStackDriftDetectionStatus and DescribeStackResourceDrifts.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DetectStackDrift.html
import { echo, stackIdNotFound, validationError } from '../../domain/errors.js';
import type { ResourceDriftRecord, StackRecord } from '../../storage/index.js';
import type { StackResourceDrift } from '../../generated/cloudformation.js';
import { detectResourceDrift, startStackDrift } from '../../state-machine/drift.js';
import { decodeToken, encodeToken, findStack, type Handler, type HandlerContext } from './context.js';

/** The stack statuses drift detection runs in (AWS's user guide, "Detect drift"; an import's ends as well). */
const DRIFT_STATUSES = new Set([
  'CREATE_COMPLETE',
  'UPDATE_COMPLETE',
  'UPDATE_ROLLBACK_COMPLETE',
  'UPDATE_ROLLBACK_FAILED',
  'IMPORT_COMPLETE',
  'IMPORT_ROLLBACK_COMPLETE',
]);
const MAX_RESULTS = 100;

/** The stack to check: it exists, is in a status drift detection runs in, and no detection of it is running. */
function checkedStack(ctx: HandlerContext, name: string): StackRecord {
  const stack = findStack(ctx, name);
  if (!stack) throw stackIdNotFound(name);
  if (!DRIFT_STATUSES.has(stack.status)) {
    throw validationError(`Stack ${echo(stack.stackId)} is in ${stack.status} state and cannot be checked for drift`);
  }
  if (ctx.store.drifts.latestDetection(stack.stackId)?.status === 'DETECTION_IN_PROGRESS') {
    throw validationError(`Drift detection is already in progress for stack ${echo(stack.stackId)}`);
  }
  return stack;
}

/** The state machine's side: detection writes its records through the engine's store. */
const depsOf = (ctx: HandlerContext) => ctx.engine.deps;

export const detectStackDrift: Handler<'DetectStackDrift'> = (ctx, input) => {
  const stack = checkedStack(ctx, input.StackName);
  for (const id of input.LogicalResourceIds ?? []) {
    if (!ctx.store.resources.one(stack.stackId, id)) {
      throw validationError(`Resource ${echo(id)} does not exist for stack ${echo(input.StackName)}`);
    }
  }
  return { StackDriftDetectionId: startStackDrift(depsOf(ctx), stack, input.LogicalResourceIds) };
};

export const detectStackResourceDrift: Handler<'DetectStackResourceDrift'> = async (ctx, input) => {
  const stack = checkedStack(ctx, input.StackName);
  const r = ctx.store.resources.one(stack.stackId, input.LogicalResourceId);
  const result = r && (await detectResourceDrift(depsOf(ctx), stack, r));
  if (!result) {
    throw validationError(
      `Resource ${echo(input.LogicalResourceId)} does not exist for stack ${echo(input.StackName)}`,
    );
  }
  return { StackResourceDrift: wireDrift(result) };
};

export const describeStackDriftDetectionStatus: Handler<'DescribeStackDriftDetectionStatus'> = (ctx, input) => {
  const d = ctx.store.drifts.detection(input.StackDriftDetectionId);
  const stack = d && ctx.store.stacks.byId(d.stackId);
  if (!d || !stack || stack.account !== ctx.caller.account || stack.region !== ctx.caller.region) {
    throw validationError(`Stack drift detection with id ${echo(input.StackDriftDetectionId)} does not exist`);
  }
  return {
    StackId: d.stackId,
    StackDriftDetectionId: d.detectionId,
    StackDriftStatus: d.stackDriftStatus,
    DetectionStatus: d.status,
    DetectionStatusReason: d.reason,
    DriftedStackResourceCount: d.driftedCount,
    Timestamp: new Date(d.startedAt),
  };
};

export const describeStackResourceDrifts: Handler<'DescribeStackResourceDrifts'> = (ctx, input) => {
  const stack = findStack(ctx, input.StackName);
  if (!stack) throw stackIdNotFound(input.StackName);
  const max = input.MaxResults ?? MAX_RESULTS;
  const filters = input.StackResourceDriftStatusFilters?.length
    ? new Set(input.StackResourceDriftStatusFilters)
    : undefined;
  const current = new Set(ctx.store.resources.byStack(stack.stackId).map((r) => r.logicalId));
  const all = ctx.store.drifts
    .resources(stack.stackId)
    .filter((d) => current.has(d.LogicalResourceId) && (!filters || filters.has(d.StackResourceDriftStatus)));
  const start = decodeToken(input.NextToken) ?? 0;
  return {
    StackResourceDrifts: all.slice(start, start + max).map(wireDrift),
    NextToken: start + max < all.length ? encodeToken(start + max) : undefined,
  };
};

function wireDrift(d: ResourceDriftRecord): StackResourceDrift {
  return { ...d, Timestamp: new Date(d.Timestamp) };
}
