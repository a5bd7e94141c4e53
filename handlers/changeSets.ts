// Change set actions: CreateChangeSet, DescribeChangeSet, ExecuteChangeSet, DeleteChangeSet, ListChangeSets.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_CreateChangeSet.html
import { validationError } from '../server/protocol/errors.js';
import * as changeSets from '../state-machine/changeSets.js';
import { checkStackName, findStack, required, type Handler } from './context.js';
import { templateBody } from './stacks.js';

const CHANGE_SET_NAME = /^[a-zA-Z][-a-zA-Z0-9]*$/;

export const createChangeSet: Handler = (ctx, input) => {
  const stackName = required<string>(input, 'StackName');
  const name = required<string>(input, 'ChangeSetName');
  checkStackName(stackName);
  if (!CHANGE_SET_NAME.test(name) || name.length > 128) {
    throw validationError(`1 validation error detected: Value '${name}' at 'changeSetName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*`);
  }
  const cs = input as unknown as changeSets.CreateChangeSetInput;
  const stack = findStack(ctx, stackName);
  const body = templateBody(ctx, cs, () => (stack ? ctx.store.templates.body(stack.templateId) : undefined));
  return changeSets.createChangeSet(ctx.engine, ctx.caller, cs, body);
};

export const describeChangeSet: Handler = (ctx, input) => {
  const cs = changeSets.findChangeSet(ctx.engine, ctx.caller, required<string>(input, 'ChangeSetName'), input.StackName as string | undefined);
  const stack = ctx.store.stacks.byId(cs.stackId)!;
  const doc = cs.doc as Record<string, unknown>;
  const parameters = doc.parametersView as unknown[];
  return {
    ChangeSetName: cs.name,
    ChangeSetId: cs.changeSetId,
    StackId: stack.stackId,
    StackName: stack.name,
    Description: doc.description,
    Parameters: parameters.length ? parameters : undefined,
    CreationTime: new Date(cs.createdAt),
    ExecutionStatus: cs.executionStatus,
    Status: cs.status,
    StatusReason: doc.statusReason,
    NotificationARNs: doc.notificationARNs,
    RollbackConfiguration: {},
    Capabilities: doc.capabilities,
    Tags: doc.tags,
    Changes: doc.changes,
    IncludeNestedStacks: false,
  };
};

export const executeChangeSet: Handler = (ctx, input) => {
  const cs = changeSets.findChangeSet(ctx.engine, ctx.caller, required<string>(input, 'ChangeSetName'), input.StackName as string | undefined);
  changeSets.executeChangeSet(ctx.engine, cs, input);
  return {};
};

export const deleteChangeSet: Handler = (ctx, input) => {
  const cs = changeSets.findChangeSet(ctx.engine, ctx.caller, required<string>(input, 'ChangeSetName'), input.StackName as string | undefined);
  if (cs.executionStatus === 'EXECUTE_IN_PROGRESS') {
    throw validationError(`Cannot delete ChangeSet [${cs.changeSetId}] while it is in EXECUTE_IN_PROGRESS`);
  }
  ctx.store.changeSets.save({ ...cs, deleted: true });
  return {};
};

export const listChangeSets: Handler = (ctx, input) => {
  const name = required<string>(input, 'StackName');
  const stack = findStack(ctx, name);
  if (!stack) throw validationError(`Stack [${name}] does not exist`);
  return {
    Summaries: ctx.store.changeSets
      .byStack(stack.stackId)
      .filter((cs) => !cs.executionStatus.startsWith('EXECUTE'))
      .map((cs) => ({
        StackId: stack.stackId, StackName: stack.name, ChangeSetId: cs.changeSetId, ChangeSetName: cs.name,
        ExecutionStatus: cs.executionStatus, Status: cs.status, StatusReason: (cs.doc as Record<string, unknown>).statusReason,
        CreationTime: new Date(cs.createdAt), Description: (cs.doc as Record<string, unknown>).description,
        IncludeNestedStacks: false,
      })),
  };
};
