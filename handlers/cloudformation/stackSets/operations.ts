// DescribeStackSetOperation, ListStackSetOperations, ListStackSetOperationResults, StopStackSetOperation,
// DetectStackSetDrift, ImportStacksToStackSet and ListStackSetAutoDeploymentTargets.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeStackSetOperation.html
import { awsError, echo, setOperationNotFound, validationError } from '../../../domain/errors.js';
import type { StackRecord } from '../../../storage/index.js';
import { detectSetDrift, importStacks, stopOperation } from '../../../state-machine/stackSets/sets.js';
import { checkPreferences } from '../../../state-machine/stackSets/preferences.js';
import { accountsIn } from '../../../state-machine/stackSets/organization.js';
import type { Handler, HandlerContext } from '../context.js';
import { activeSet, findSet } from './lookup.js';
import { organizationFor } from './organizations.js';
import { describeOperation, summarizeOperation, summarizeResult } from './views.js';
import { pageOf } from './paging.js';

const RESULT_STATUSES = ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'];

function operationOf(ctx: HandlerContext, stackSetId: string, operationId: string) {
  const op = ctx.store.stackSets.operation(stackSetId, operationId);
  if (!op) throw setOperationNotFound(operationId);
  return op;
}

export const describeStackSetOperation: Handler<'DescribeStackSetOperation'> = (ctx, input) => {
  const set = findSet(ctx, input.StackSetName, input.CallAs);
  return { StackSetOperation: describeOperation(operationOf(ctx, set.stackSetId, input.OperationId)) };
};

export const listStackSetOperations: Handler<'ListStackSetOperations'> = (ctx, input) => {
  const set = findSet(ctx, input.StackSetName, input.CallAs);
  const { page, NextToken } = pageOf(ctx.store.stackSets.operations(set.stackSetId), input.NextToken, input.MaxResults);
  return { Summaries: page.map(summarizeOperation), NextToken };
};

export const listStackSetOperationResults: Handler<'ListStackSetOperationResults'> = (ctx, input) => {
  const set = findSet(ctx, input.StackSetName, input.CallAs);
  operationOf(ctx, set.stackSetId, input.OperationId);
  const wanted = new Set<string>();
  for (const f of input.Filters ?? []) {
    if (f.Name !== 'OPERATION_RESULT_STATUS') {
      throw validationError(
        `1 validation error detected: Value '${echo(f.Name)}' at 'filters.member.name' failed to satisfy constraint: Member must satisfy enum value set: [OPERATION_RESULT_STATUS]`,
      );
    }
    if (f.Values === undefined || !RESULT_STATUSES.includes(f.Values)) {
      throw validationError(`Invalid value ${echo(f.Values)} for filter OPERATION_RESULT_STATUS`);
    }
    wanted.add(f.Values);
  }
  const results = ctx.store.stackSets
    .results(set.stackSetId, input.OperationId)
    .filter((r) => !wanted.size || wanted.has(r.doc.status));
  const { page, NextToken } = pageOf(results, input.NextToken, input.MaxResults);
  return { Summaries: page.map(summarizeResult), NextToken };
};

export const stopStackSetOperation: Handler<'StopStackSetOperation'> = (ctx, input) => {
  const set = findSet(ctx, input.StackSetName, input.CallAs);
  stopOperation(ctx.engine, operationOf(ctx, set.stackSetId, input.OperationId));
  return {};
};

export const detectStackSetDrift: Handler<'DetectStackSetDrift'> = (ctx, input) => {
  const set = activeSet(ctx, input.StackSetName, input.CallAs);
  const preferences = checkPreferences(input.OperationPreferences);
  const { OperationId, ...request } = input;
  return {
    OperationId: detectSetDrift(ctx.engine, set, {
      operationId: OperationId,
      preferences,
      request: { action: 'DetectStackSetDrift', ...request },
    }),
  };
};

/** A stack to import: a live stack, by its id, in whichever account and region it lives. */
function stackToImport(ctx: HandlerContext, stackId: string): StackRecord {
  const stack = stackId.startsWith('arn:') ? ctx.store.stacks.byId(stackId) : undefined;
  if (!stack || stack.status === 'DELETE_COMPLETE') {
    throw awsError('StackNotFoundException', `Stack with id ${echo(stackId)} does not exist`);
  }
  return stack;
}

export const importStacksToStackSet: Handler<'ImportStacksToStackSet'> = (ctx, input) => {
  const set = activeSet(ctx, input.StackSetName, input.CallAs);
  const preferences = checkPreferences(input.OperationPreferences);
  if (input.StackIdsUrl !== undefined && input.StackIds !== undefined) {
    throw validationError('StackIds and StackIdsUrl cannot both be specified');
  }
  if (!input.StackIds?.length) throw validationError('StackIds should be specified');
  const units = input.OrganizationalUnitIds ?? [];
  const service = set.doc.permissionModel === 'SERVICE_MANAGED';
  if (service && !units.length) throw validationError('OrganizationalUnitIds should be specified');
  const org = organizationFor(ctx, set);
  const stacks = input.StackIds.map((id) => {
    const stack = stackToImport(ctx, id);
    if (ctx.store.stackSets.instance(set.stackSetId, stack.account, stack.region)) {
      throw validationError(
        `Stack instance for account ${stack.account} and region ${stack.region} already exists in StackSet ${set.name}`,
      );
    }
    const ou =
      service && org ? units.find((u) => accountsIn(org, u).some((a) => a.account === stack.account)) : undefined;
    if (service && !ou) {
      throw validationError(`Account ${stack.account} is not in any of the organizational units ${units.join(', ')}`);
    }
    return { stack, ou };
  });
  const { OperationId, ...request } = input;
  return {
    OperationId: importStacks(ctx.engine, set, stacks, {
      operationId: OperationId,
      preferences,
      request: { action: 'ImportStacksToStackSet', ...request },
    }),
  };
};

export const listStackSetAutoDeploymentTargets: Handler<'ListStackSetAutoDeploymentTargets'> = (ctx, input) => {
  const set = findSet(ctx, input.StackSetName, input.CallAs);
  const units = set.doc.autoDeployment?.Enabled ? set.doc.deployedUnits : [];
  const { page, NextToken } = pageOf(units, input.NextToken, input.MaxResults);
  return { Summaries: page.map((u) => ({ OrganizationalUnitId: u.ou, Regions: u.regions })), NextToken };
};
