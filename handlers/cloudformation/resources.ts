// DescribeStackResource, DescribeStackResources and ListStackResources.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeStackResources.html
import { echo, validationError, stackIdNotFound, stackResourceStackNotFound } from '../../domain/errors.js';
import type { ResourceDriftRecord, ResourceRecord, StackRecord } from '../../storage/index.js';
import { decodeToken, encodeToken, findStack, type Handler, type HandlerContext } from './context.js';

const NOT_CHECKED = { StackResourceDriftStatus: 'NOT_CHECKED' };
const PAGE_SIZE = 100;

type Drifts = Map<string, ResourceDriftRecord>;

/** Each resource's latest drift result, by logical id: one read per call. */
const driftsOf = (ctx: HandlerContext, stack: StackRecord): Drifts =>
  new Map(ctx.store.drifts.resources(stack.stackId).map((d) => [d.LogicalResourceId, d]));

/** The members every resource view shares; DriftInformation is the latest detection's, if one checked it. */
function resourceFields(r: ResourceRecord, drifts: Drifts) {
  const drift = drifts.get(r.logicalId);
  return {
    LogicalResourceId: r.logicalId,
    PhysicalResourceId: r.physicalId ?? '',
    ResourceType: r.type,
    ResourceStatus: r.status,
    ResourceStatusReason: r.statusReason,
    DriftInformation: drift
      ? { StackResourceDriftStatus: drift.StackResourceDriftStatus, LastCheckTimestamp: new Date(drift.Timestamp) }
      : NOT_CHECKED,
  };
}

/** Resources a stack lists: not the ones a rollback removed (AWS drops them from the stack). */
function listed(ctx: HandlerContext, stack: StackRecord): ResourceRecord[] {
  return ctx.store.resources.byStack(stack.stackId);
}

export const describeStackResource: Handler<'DescribeStackResource'> = (ctx, input) => {
  const { StackName: name, LogicalResourceId: logicalId } = input;
  const stack = findStack(ctx, name);
  if (!stack) throw stackResourceStackNotFound(name);
  const r = ctx.store.resources.one(stack.stackId, logicalId);
  if (!r || (r.status === 'DELETE_COMPLETE' && stack.status !== 'DELETE_COMPLETE')) {
    throw validationError(`Resource ${echo(logicalId)} does not exist for stack ${echo(name)}`);
  }
  return {
    StackResourceDetail: {
      StackName: stack.name,
      StackId: stack.stackId,
      ...resourceFields(r, driftsOf(ctx, stack)),
      LastUpdatedTimestamp: new Date(r.updatedAt),
      Metadata: JSON.stringify(r.doc.metadata ?? {}),
    },
  };
};

export const describeStackResources: Handler<'DescribeStackResources'> = (ctx, input) => {
  const { StackName: name, PhysicalResourceId: physicalId, LogicalResourceId: logicalId } = input;
  let stack: StackRecord | undefined;
  if (name !== undefined) {
    stack = findStack(ctx, name);
    if (!stack) throw stackIdNotFound(name);
  } else if (physicalId !== undefined) {
    const owner = ctx.store.resources.byPhysicalId(ctx.caller.account, ctx.caller.region, physicalId);
    stack = owner && ctx.store.stacks.byId(owner.stackId);
    if (!stack) throw validationError(`Stack for ${echo(physicalId)} does not exist`);
  } else throw validationError('Either StackName or PhysicalResourceId must be specified.');
  const drifts = driftsOf(ctx, stack);
  return {
    StackResources: listed(ctx, stack)
      .filter((r) => logicalId === undefined || r.logicalId === logicalId)
      .map((r) => ({
        StackName: stack.name,
        StackId: stack.stackId,
        ...resourceFields(r, drifts),
        Timestamp: new Date(r.updatedAt),
      })),
  };
};

export const listStackResources: Handler<'ListStackResources'> = (ctx, input) => {
  const stack = findStack(ctx, input.StackName);
  if (!stack) throw stackIdNotFound(input.StackName);
  const start = decodeToken(input.NextToken) ?? 0;
  const all = listed(ctx, stack);
  const page = all.slice(start, start + PAGE_SIZE);
  const drifts = driftsOf(ctx, stack);
  return {
    StackResourceSummaries: page.map((r) => ({
      ...resourceFields(r, drifts),
      LastUpdatedTimestamp: new Date(r.updatedAt),
    })),
    NextToken: start + PAGE_SIZE < all.length ? encodeToken(start + PAGE_SIZE) : undefined,
  };
};
