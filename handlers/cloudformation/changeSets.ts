// Change set actions: CreateChangeSet, DescribeChangeSet, ExecuteChangeSet, DeleteChangeSet, ListChangeSets.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_CreateChangeSet.html
import { AwsError, stackNotFound, validationError } from '../../domain/errors.js';
import * as changeSets from '../../state-machine/changeSets.js';
import * as changeSetLookup from '../../state-machine/changeSetLookup.js';
import * as execution from '../../state-machine/operations/executeChangeSet.js';
import type { ChangeSetDoc } from '../../state-machine/changeSets.js';
import type { Detail, ResourceChange } from '../../template/diff.js';
import type { ChangeSetRecord } from '../../storage/index.js';
import { decodeToken, encodeToken, findStack, type Handler, type HandlerContext } from './context.js';
import { CHANGE_SET_TYPE } from './inputRules.js';
import { templateBody } from './stacks.js';
import { createNestedChangeSets } from '../../state-machine/nestedChangeSets.js';

/** DescribeChangeSet returns Changes a page at a time. */
export const CHANGES_PAGE_SIZE = 100;

export const createChangeSet: Handler<'CreateChangeSet'> = async (ctx, input) => {
  // INPUT_RULES has refused any other ChangeSetType.
  const cs = { ...input, ChangeSetType: CHANGE_SET_TYPE.enum.find((t) => t === input.ChangeSetType) };
  const stack = findStack(ctx, input.StackName);
  const previous = () =>
    stack && stack.status !== 'REVIEW_IN_PROGRESS' ? ctx.store.templates.body(stack.templateId) : undefined;
  const body = await templateBody(ctx, cs, previous);
  const template = await changeSets.expandForChangeSet(ctx.engine, ctx.caller, cs, body);
  const created = changeSets.createChangeSet(ctx.engine, ctx.caller, cs, template);
  await createNestedChangeSets(ctx.engine, ctx.caller, created.Id);
  return created;
};

function find(ctx: HandlerContext, input: { ChangeSetName: string; StackName?: string }): ChangeSetRecord {
  return changeSetLookup.findChangeSet(ctx.engine, ctx.caller, input.ChangeSetName, input.StackName);
}

export const describeChangeSet: Handler<'DescribeChangeSet'> = (ctx, input) => {
  const cs = find(ctx, input);
  const stack = ctx.store.stacks.byId(cs.stackId)!;
  const doc = changeSets.docOf(cs);
  const withValues = input.IncludePropertyValues === true;
  const start = decodeToken(input.NextToken) ?? 0;
  const page = doc.changes.slice(start, start + CHANGES_PAGE_SIZE);
  const more = start + CHANGES_PAGE_SIZE < doc.changes.length;
  return {
    ChangeSetName: cs.name,
    ChangeSetId: cs.changeSetId,
    StackId: stack.stackId,
    StackName: stack.name,
    Description: doc.description,
    Parameters: doc.parametersView.length ? doc.parametersView : undefined,
    CreationTime: new Date(cs.createdAt),
    ExecutionStatus: cs.executionStatus,
    Status: cs.status,
    StatusReason: doc.statusReason ?? (withValues ? warningReason(cs, doc) : undefined),
    NotificationARNs: doc.notificationARNs,
    RollbackConfiguration: doc.rollbackConfiguration ?? {},
    Capabilities: doc.capabilities,
    Tags: doc.tags,
    Changes: page.map((c) => ({ Type: 'Resource', ResourceChange: renderChange(c, withValues) })),
    NextToken: more ? encodeToken(start + CHANGES_PAGE_SIZE) : undefined,
    IncludeNestedStacks: doc.includeNestedStacks ?? false,
    ParentChangeSetId: doc.parentChangeSetId,
    RootChangeSetId: doc.rootChangeSetId,
    OnStackFailure: doc.onStackFailure,
    ImportExistingResources: doc.importExistingResources,
    DeploymentConfig: doc.deploymentConfig,
  };
};

/** values that could not be previewed turn into a WARN StatusReason when property values are asked for. */
function warningReason(cs: ChangeSetRecord, doc: ChangeSetDoc): string | undefined {
  const first = doc.warnings?.[0];
  if (!first || cs.status !== 'CREATE_COMPLETE') return undefined;
  return `[WARN] --include-property-values option can return incomplete ChangeSet data because: ChangeSet creation failed for resource [${first.logicalId}] because: ${first.message}`;
}

/** One stored change as DescribeChangeSet shows it, with or without IncludePropertyValues. */
export function renderChange(c: ResourceChange, withValues: boolean): Record<string, unknown> {
  const { BeforeContext, AfterContext, Details, ...rest } = c;
  let details = Details.filter((d) => withValues || !d.valuesOnly).map((d) => renderDetail(d, withValues));
  // Recorded order: a parameter-caused pair lists the Dynamic twin first only when values are shown.
  if (withValues && Details.some((d) => d.ChangeSource === 'ParameterReference')) {
    details = [
      ...details.filter((d) => d.Evaluation === 'Dynamic'),
      ...details.filter((d) => d.Evaluation !== 'Dynamic'),
    ];
  }
  return {
    ...rest,
    Details: details,
    ...(withValues && c.Action !== 'Add' && c.Action !== 'Import' ? { BeforeContext } : {}),
    ...(withValues && c.Action !== 'Remove' ? { AfterContext } : {}),
  };
}

function renderDetail(d: Detail, withValues: boolean): Record<string, unknown> {
  const { valuesOnly: _ignored, Target, ...rest } = d;
  const { Path, BeforeValue, AfterValue, AttributeChangeType, ...bare } = Target;
  return { ...rest, Target: withValues ? { ...bare, Path, BeforeValue, AfterValue, AttributeChangeType } : bare };
}

/** Nested change sets are executed and deleted through their root change set (AWS's text is not documented). */
function refuseNested(cs: ChangeSetRecord, action: string): void {
  const root = changeSets.docOf(cs).rootChangeSetId;
  if (root)
    throw validationError(
      `ChangeSet [${cs.changeSetId}] is a nested change set: it can only be ${action} through its root change set [${root}].`,
    );
}

export const executeChangeSet: Handler<'ExecuteChangeSet'> = (ctx, input) => {
  const cs = find(ctx, input);
  refuseNested(cs, 'executed');
  execution.executeChangeSet(ctx.engine, cs, input);
  return {};
};

// "The delete request is successful as long as the stack exists (even if the change set does not exist)":
// the CDK CLI deletes `cdk-deploy-change-set` before every deploy and diff and relies on this
// (aws/aws-cdk-cli packages/@aws-cdk/toolkit-lib/lib/api/deployments/deploy-stack.ts, cleanupOldChangeset).
export const deleteChangeSet: Handler<'DeleteChangeSet'> = (ctx, input) => {
  let cs: ChangeSetRecord;
  try {
    cs = find(ctx, input);
  } catch (err) {
    const stackName = input.StackName;
    if (!isChangeSetNotFound(err) || stackName === undefined || !liveStack(ctx, stackName)) throw err;
    return {};
  }
  refuseNested(cs, 'deleted');
  changeSetLookup.deleteChangeSet(ctx.engine, cs);
  return {};
};

function isChangeSetNotFound(err: unknown): boolean {
  return err instanceof AwsError && err.code === 'ChangeSetNotFound';
}

function liveStack(ctx: HandlerContext, stackName: string): boolean {
  const stack = findStack(ctx, stackName);
  return stack !== undefined && stack.status !== 'DELETE_COMPLETE';
}

/** ListChangeSets pages by 100, with an opaque NextToken. */
const LIST_PAGE_SIZE = 100;

export const listChangeSets: Handler<'ListChangeSets'> = (ctx, input) => {
  const stack = findStack(ctx, input.StackName);
  if (!stack) throw stackNotFound(input.StackName);
  // executed change sets (and deleted ones) are not listed.
  const pending = ctx.store.changeSets
    .byStack(stack.stackId)
    .map((cs) => changeSetLookup.endStaleCreation(ctx.engine, cs))
    .filter((cs) => !cs.executionStatus.startsWith('EXECUTE'));
  const start = decodeToken(input.NextToken) ?? 0;
  const page = pending.slice(start, start + LIST_PAGE_SIZE);
  return {
    NextToken: start + LIST_PAGE_SIZE < pending.length ? encodeToken(start + LIST_PAGE_SIZE) : undefined,
    Summaries: page.map((cs) => {
      const doc = changeSets.docOf(cs);
      return {
        StackId: stack.stackId,
        StackName: stack.name,
        ChangeSetId: cs.changeSetId,
        ChangeSetName: cs.name,
        ExecutionStatus: cs.executionStatus,
        Status: cs.status,
        StatusReason: doc.statusReason,
        CreationTime: new Date(cs.createdAt),
        Description: doc.description,
        IncludeNestedStacks: doc.includeNestedStacks ?? false,
        ImportExistingResources: doc.importExistingResources,
      };
    }),
  };
};
