// CreateStackSet, UpdateStackSet, DeleteStackSet, DescribeStackSet and ListStackSets.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_CreateStackSet.html
import { awsError, echo, stackSetExists, validationError } from '../../../domain/errors.js';
import type { SetParameter, StackSetDoc, StackSetRecord } from '../../../storage/index.js';
import type { Caller } from '../../../state-machine/engine.js';
import { createSet, deleteSet, updateSet } from '../../../state-machine/stackSets/sets.js';
import { checkPreferences } from '../../../state-machine/stackSets/preferences.js';
import { resolveTargets, type Target } from '../../../state-machine/stackSets/targets.js';
import { tagsOf } from '../../../state-machine/stackRecords.js';
import { staticModel } from '../../../template/summary.js';
import { findStack, type Handler, type HandlerContext } from '../context.js';
import { templateBody } from '../stacks.js';
import { summaryWorld } from '../templates.js';
import { activeSet, findSet, ownerOf } from './lookup.js';
import { describeSet, summarizeSet } from './views.js';
import { pageOf } from './paging.js';
import { organizationFor } from './organizations.js';

const NAME = /^[a-zA-Z][-a-zA-Z0-9]*$/;
const PERMISSION_MODELS = ['SERVICE_MANAGED', 'SELF_MANAGED'];

function checkName(name: string): void {
  if (name.length > 128) {
    throw validationError(
      `1 validation error detected: Value '${echo(name)}' at 'stackSetName' failed to satisfy constraint: Member must have length less than or equal to 128`,
    );
  }
  if (!NAME.test(name)) {
    throw validationError(
      `1 validation error detected: Value '${echo(name)}' at 'stackSetName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*`,
    );
  }
}

/** The template is checked as CreateStack's would be, before anything is kept. */
async function setTemplate(
  ctx: HandlerContext,
  input: { TemplateBody?: string; TemplateURL?: string; UsePreviousTemplate?: boolean },
  previous?: string,
): Promise<string> {
  const body = await templateBody(ctx, input, () => previous);
  staticModel(body, summaryWorld(ctx));
  return body;
}

/** Roles a self-managed set runs with when the call names none (AWS's defaults). */
function roles(owner: Caller, model: string, admin?: string, execution?: string) {
  if (model === 'SERVICE_MANAGED') return {};
  return {
    administrationRoleARN: admin ?? `arn:aws:iam::${owner.account}:role/AWSCloudFormationStackSetAdministrationRole`,
    executionRoleName: execution ?? 'AWSCloudFormationStackSetExecutionRole',
  };
}

function checkPermissionModel(ctx: HandlerContext, owner: Caller, model: string, autoDeployment: unknown): void {
  if (!PERMISSION_MODELS.includes(model)) {
    throw validationError(
      `1 validation error detected: Value '${echo(model)}' at 'permissionModel' failed to satisfy constraint: Member must satisfy enum value set: [${PERMISSION_MODELS.join(', ')}]`,
    );
  }
  if (model === 'SELF_MANAGED' && autoDeployment !== undefined) {
    throw validationError('AutoDeployment is only supported for stack sets with SERVICE_MANAGED permission model');
  }
  if (model === 'SERVICE_MANAGED' && organizationFor(ctx, owner)?.access !== 'ENABLED') {
    throw validationError('You must enable organizations access to operate a service managed stack set');
  }
}

export const createStackSet: Handler<'CreateStackSet'> = async (ctx, input) => {
  const owner = ownerOf(ctx, input.CallAs);
  checkName(input.StackSetName);
  const model = input.PermissionModel ?? 'SELF_MANAGED';
  const existing = ctx.store.stackSets.activeByName(owner.account, owner.region, input.StackSetName);
  if (existing) {
    if (input.ClientRequestToken && existing.doc.clientRequestToken === input.ClientRequestToken)
      return { StackSetId: existing.stackSetId };
    throw stackSetExists(input.StackSetName);
  }
  checkPermissionModel(ctx, owner, model, input.AutoDeployment);
  let body: string;
  if (input.StackId !== undefined) {
    // a stack set made from an existing stack (to import it): that stack's template
    const stack = findStack(ctx, input.StackId);
    if (!stack || stack.status === 'DELETE_COMPLETE')
      throw awsError('StackNotFoundException', `Stack with id ${echo(input.StackId)} does not exist`);
    body = ctx.store.templates.body(stack.templateId) ?? '';
  } else body = await setTemplate(ctx, input);
  const doc: StackSetDoc = {
    description: input.Description,
    templateBody: body,
    parameters: (input.Parameters ?? []).map((p) => ({
      ParameterKey: p.ParameterKey,
      ParameterValue: p.ParameterValue,
    })),
    capabilities: input.Capabilities ?? [],
    tags: tagsOf(input.Tags),
    ...roles(owner, model, input.AdministrationRoleARN, input.ExecutionRoleName),
    permissionModel: model as StackSetDoc['permissionModel'],
    autoDeployment: model === 'SERVICE_MANAGED' ? (input.AutoDeployment ?? { Enabled: false }) : undefined,
    managedExecution: { Active: input.ManagedExecution?.Active ?? false },
    deployedUnits: [],
    clientRequestToken: input.ClientRequestToken,
  };
  return { StackSetId: createSet(ctx.engine, owner, input.StackSetName, doc).stackSetId };
};

/** The set's parameters after an update: UsePreviousValue keeps the set's value. */
function updatedParameters(set: StackSetRecord, given: SetParameter[] | undefined): SetParameter[] {
  if (given === undefined) return set.doc.parameters;
  return given.map((p) =>
    p.UsePreviousValue
      ? (set.doc.parameters.find((q) => q.ParameterKey === p.ParameterKey) ?? { ParameterKey: p.ParameterKey })
      : { ParameterKey: p.ParameterKey, ParameterValue: p.ParameterValue },
  );
}

/** Which instances an update acts on: those the call names (that exist), else every one. */
function updateTargets(
  ctx: HandlerContext,
  set: StackSetRecord,
  input: { Accounts?: string[]; DeploymentTargets?: object; Regions?: string[] },
): Target[] {
  const instances = ctx.store.stackSets.instances(set.stackSetId);
  const all = instances.map((i) => ({ account: i.account, region: i.region, ou: i.doc.organizationalUnitId }));
  if (!input.Accounts?.length && !input.DeploymentTargets && !input.Regions?.length) return all;
  if (!input.Regions?.length) throw validationError('Regions should be specified');
  const named = resolveTargets(set, input, organizationFor(ctx, set));
  return all.filter((t) => named.some((n) => n.account === t.account && n.region === t.region));
}

export const updateStackSet: Handler<'UpdateStackSet'> = async (ctx, input) => {
  const set = activeSet(ctx, input.StackSetName, input.CallAs);
  const preferences = checkPreferences(input.OperationPreferences);
  const model = input.PermissionModel ?? set.doc.permissionModel;
  if (model !== set.doc.permissionModel) checkPermissionModel(ctx, set, model, input.AutoDeployment);
  const body = await setTemplate(ctx, input, set.doc.templateBody);
  const doc: StackSetDoc = {
    ...set.doc,
    description: input.Description ?? set.doc.description,
    templateBody: body,
    parameters: updatedParameters(set, input.Parameters),
    capabilities: input.Capabilities ?? set.doc.capabilities,
    tags: input.Tags ? tagsOf(input.Tags) : set.doc.tags,
    ...roles(
      set,
      model,
      input.AdministrationRoleARN ?? set.doc.administrationRoleARN,
      input.ExecutionRoleName ?? set.doc.executionRoleName,
    ),
    permissionModel: model as StackSetDoc['permissionModel'],
    autoDeployment: model === 'SERVICE_MANAGED' ? (input.AutoDeployment ?? set.doc.autoDeployment) : undefined,
    managedExecution: { Active: input.ManagedExecution?.Active ?? set.doc.managedExecution.Active },
  };
  const targets = updateTargets(ctx, set, input);
  const { OperationId, ...request } = input;
  return {
    OperationId: updateSet(ctx.engine, set, doc, targets, {
      operationId: OperationId,
      preferences,
      deploymentTargets: input.DeploymentTargets,
      request: { action: 'UpdateStackSet', ...request },
    }),
  };
};

export const deleteStackSet: Handler<'DeleteStackSet'> = (ctx, input) => {
  const set = findSet(ctx, input.StackSetName, input.CallAs);
  if (set.status === 'ACTIVE') deleteSet(ctx.engine, set);
  return {};
};

export const describeStackSet: Handler<'DescribeStackSet'> = (ctx, input) => {
  const set = findSet(ctx, input.StackSetName, input.CallAs);
  return { StackSet: describeSet(set, ctx.store.stackSets.instances(set.stackSetId)) };
};

const SET_STATUSES = ['ACTIVE', 'DELETED'];

export const listStackSets: Handler<'ListStackSets'> = (ctx, input) => {
  const owner = ownerOf(ctx, input.CallAs);
  if (input.Status !== undefined && !SET_STATUSES.includes(input.Status)) {
    throw validationError(
      `1 validation error detected: Value '${echo(input.Status)}' at 'status' failed to satisfy constraint: Member must satisfy enum value set: [${SET_STATUSES.join(', ')}]`,
    );
  }
  const sets = ctx.store.stackSets
    .sets(owner.account, owner.region)
    .filter((s) => input.Status === undefined || s.status === input.Status)
    .filter((s) => input.CallAs !== 'DELEGATED_ADMIN' || s.doc.permissionModel === 'SERVICE_MANAGED');
  const { page, NextToken } = pageOf(sets, input.NextToken, input.MaxResults);
  return { Summaries: page.map(summarizeSet), NextToken };
};
