// CreateStackInstances, UpdateStackInstances, DeleteStackInstances, ListStackInstances, DescribeStackInstance and
// ListStackInstanceResourceDrifts.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_CreateStackInstances.html
import { echo, setOperationNotFound, stackInstanceNotFound, validationError } from '../../../domain/errors.js';
import type { StackInstanceRecord } from '../../../storage/index.js';
import { createInstances, deleteInstances, updateInstances } from '../../../state-machine/stackSets/sets.js';
import { checkPreferences } from '../../../state-machine/stackSets/preferences.js';
import { resolveTargets, type Target } from '../../../state-machine/stackSets/targets.js';
import type { Handler } from '../context.js';
import { activeSet, findSet } from './lookup.js';
import { organizationFor } from './organizations.js';
import { describeInstance, summarizeInstance } from './views.js';
import { pageOf } from './paging.js';

const INSTANCE_FILTERS = ['DETAILED_STATUS', 'LAST_OPERATION_ID', 'DRIFT_STATUS'];

export const createStackInstances: Handler<'CreateStackInstances'> = (ctx, input) => {
  const set = activeSet(ctx, input.StackSetName, input.CallAs);
  const preferences = checkPreferences(input.OperationPreferences);
  const targets = resolveTargets(set, input, organizationFor(ctx, set));
  const { OperationId, ...request } = input;
  return {
    OperationId: createInstances(ctx.engine, set, targets, input.ParameterOverrides, {
      operationId: OperationId,
      preferences,
      deploymentTargets: input.DeploymentTargets,
      request: { action: 'CreateStackInstances', ...request },
      units: input.DeploymentTargets?.OrganizationalUnitIds,
    }),
  };
};

export const updateStackInstances: Handler<'UpdateStackInstances'> = (ctx, input) => {
  const set = activeSet(ctx, input.StackSetName, input.CallAs);
  const preferences = checkPreferences(input.OperationPreferences);
  let targets = resolveTargets(set, input, organizationFor(ctx, set));
  const exists = (t: Target) => !!ctx.store.stackSets.instance(set.stackSetId, t.account, t.region);
  if (set.doc.permissionModel === 'SELF_MANAGED') {
    const missing = targets.find((t) => !exists(t));
    if (missing) throw stackInstanceNotFound(set.name, missing.account, missing.region);
  } else targets = targets.filter(exists);
  const { OperationId, ...request } = input;
  return {
    OperationId: updateInstances(ctx.engine, set, targets, input.ParameterOverrides, {
      operationId: OperationId,
      preferences,
      deploymentTargets: input.DeploymentTargets,
      request: { action: 'UpdateStackInstances', ...request },
    }),
  };
};

export const deleteStackInstances: Handler<'DeleteStackInstances'> = (ctx, input) => {
  const set = activeSet(ctx, input.StackSetName, input.CallAs);
  const preferences = checkPreferences(input.OperationPreferences);
  const targets = resolveTargets(set, input, organizationFor(ctx, set)).filter(
    (t) => !!ctx.store.stackSets.instance(set.stackSetId, t.account, t.region),
  );
  const { OperationId, ...request } = input;
  return {
    OperationId: deleteInstances(ctx.engine, set, targets, input.RetainStacks, {
      operationId: OperationId,
      preferences,
      deploymentTargets: input.DeploymentTargets,
      request: { action: 'DeleteStackInstances', ...request },
      units: input.DeploymentTargets?.OrganizationalUnitIds,
      regions: input.Regions,
    }),
  };
};

function matches(i: StackInstanceRecord, filter: { Name?: string; Values?: string }): boolean {
  if (!filter.Name || !INSTANCE_FILTERS.includes(filter.Name)) {
    throw validationError(
      `1 validation error detected: Value '${echo(filter.Name)}' at 'filters.member.name' failed to satisfy constraint: Member must satisfy enum value set: [${INSTANCE_FILTERS.join(', ')}]`,
    );
  }
  const value =
    filter.Name === 'DETAILED_STATUS'
      ? i.doc.detailedStatus
      : filter.Name === 'DRIFT_STATUS'
        ? i.doc.driftStatus
        : i.doc.lastOperationId;
  return value === filter.Values;
}

export const listStackInstances: Handler<'ListStackInstances'> = (ctx, input) => {
  const set = findSet(ctx, input.StackSetName, input.CallAs);
  const instances = ctx.store.stackSets
    .instances(set.stackSetId)
    .filter((i) => input.StackInstanceAccount === undefined || i.account === input.StackInstanceAccount)
    .filter((i) => input.StackInstanceRegion === undefined || i.region === input.StackInstanceRegion)
    .filter((i) => (input.Filters ?? []).every((f) => matches(i, f)));
  const { page, NextToken } = pageOf(instances, input.NextToken, input.MaxResults);
  return { Summaries: page.map(summarizeInstance), NextToken };
};

export const describeStackInstance: Handler<'DescribeStackInstance'> = (ctx, input) => {
  const set = findSet(ctx, input.StackSetName, input.CallAs);
  const instance = ctx.store.stackSets.instance(set.stackSetId, input.StackInstanceAccount, input.StackInstanceRegion);
  if (!instance) throw stackInstanceNotFound(set.name, input.StackInstanceAccount, input.StackInstanceRegion);
  return { StackInstance: describeInstance(instance) };
};

export const listStackInstanceResourceDrifts: Handler<'ListStackInstanceResourceDrifts'> = (ctx, input) => {
  const set = findSet(ctx, input.StackSetName, input.CallAs);
  if (!ctx.store.stackSets.operation(set.stackSetId, input.OperationId)) throw setOperationNotFound(input.OperationId);
  const instance = ctx.store.stackSets.instance(set.stackSetId, input.StackInstanceAccount, input.StackInstanceRegion);
  if (!instance) throw stackInstanceNotFound(set.name, input.StackInstanceAccount, input.StackInstanceRegion);
  const statuses = input.StackInstanceResourceDriftStatuses;
  const drifts = (instance.doc.stackId ? ctx.store.drifts.resources(instance.doc.stackId) : []).filter(
    (d) => !statuses?.length || statuses.includes(d.StackResourceDriftStatus),
  );
  const { page, NextToken } = pageOf(drifts, input.NextToken, input.MaxResults);
  return {
    Summaries: page.map((d) => ({
      StackId: d.StackId,
      LogicalResourceId: d.LogicalResourceId,
      PhysicalResourceId: d.PhysicalResourceId,
      ResourceType: d.ResourceType,
      PropertyDifferences: d.PropertyDifferences,
      StackResourceDriftStatus: d.StackResourceDriftStatus,
      Timestamp: new Date(d.Timestamp),
    })),
    NextToken,
  };
};
