// Change sets: CreateChangeSet plans the changes (a CREATE change set makes a REVIEW_IN_PROGRESS stack);
// ExecuteChangeSet starts the create or update it describes and follows it to EXECUTE_COMPLETE or EXECUTE_FAILED.
import { v4 as uuidv4 } from 'uuid';
import type { ChangeSetRecord, StackRecord } from '../storage/index.js';
import { awsError, validationError } from '../server/protocol/errors.js';
import { checkCapabilities } from '../template/index.js';
import { resourceChanges } from '../template/diff.js';
import type { GivenParameter } from '../template/parameters.js';
import { recreationOf } from '../resources/registry.js';
import { canStart, type StackStatus } from './statuses.js';
import { setStackStatus } from './transitions.js';
import { insertStack } from './stackRecords.js';
import { prepareForStack, prepareStored } from './prepare.js';
import { Engine, tagsOf, type Caller, type CreateStackInput, type StackTemplateInput } from './engine.js';

export interface CreateChangeSetInput extends StackTemplateInput {
  StackName: string;
  ChangeSetName: string;
  ChangeSetType?: 'CREATE' | 'UPDATE' | 'IMPORT';
  Description?: string;
}

const NO_CHANGES = "The submitted information didn't contain changes. Submit different information to create a change set.";
const SUCCEEDED = new Set(['CREATE_COMPLETE', 'UPDATE_COMPLETE']);

export function createChangeSet(engine: Engine, caller: Caller, input: CreateChangeSetInput, body: string) {
  const { store, clock } = engine.deps;
  const type = input.ChangeSetType ?? 'UPDATE';
  if (type === 'IMPORT') throw validationError('cfn-local does not support ChangeSetType IMPORT yet');
  let stack = input.StackName.startsWith('arn:') ? store.stacks.byId(input.StackName) : store.stacks.liveByName(caller.account, caller.region, input.StackName);
  if (type === 'CREATE' && stack && stack.status !== 'REVIEW_IN_PROGRESS') {
    throw validationError(`Stack [${input.StackName}] already exists and cannot be created again with the changeSet [${input.ChangeSetName}].`);
  }
  if (type === 'UPDATE') {
    if (!stack) throw validationError(`Stack [${input.StackName}] does not exist`);
    if (stack.status === 'REVIEW_IN_PROGRESS' || !canStart('CreateChangeSet', stack.status as StackStatus)) throw Engine.refuse('UpdateStack', stack);
  }
  if (stack && store.changeSets.byName(stack.stackId, input.ChangeSetName)) {
    throw awsError('AlreadyExistsException', `ChangeSet [${input.ChangeSetName}] already exists`);
  }
  const fresh = !stack;
  stack ??= engine.newStack(caller, input.StackName, 'REVIEW_IN_PROGRESS');
  const after = prepareForStack(store, stack, body, input.Parameters, stack.doc.parameters);
  checkCapabilities(after, input.Capabilities, true);
  const deployed = type === 'UPDATE' ? store.resources.byStack(stack.stackId) : [];
  const before = type === 'UPDATE' ? prepareStored(store, stack, stack.templateId, stack.doc.parameters) : undefined;
  const changes = resourceChanges(before, after, deployed.map((r) => ({ ...r, deletionPolicy: r.doc.deletionPolicy })), recreationOf);
  const paramsChanged = before && JSON.stringify(before.parameters.map((p) => p.raw)) !== JSON.stringify(after.parameters.map((p) => p.raw));
  const empty = type === 'UPDATE' && changes.length === 0 && !paramsChanged;
  if (fresh) insertStack({ store, clock, operationId: uuidv4() }, stack, body, 'User Initiated');
  const changeSetId = `arn:aws:cloudformation:${caller.region}:${caller.account}:changeSet/${input.ChangeSetName}/${uuidv4()}`;
  const record: ChangeSetRecord = {
    changeSetId, account: caller.account, region: caller.region, stackId: stack.stackId, name: input.ChangeSetName,
    status: empty ? 'FAILED' : 'CREATE_COMPLETE', executionStatus: empty ? 'UNAVAILABLE' : 'AVAILABLE',
    createdAt: clock.now().toISOString(), deleted: false,
    doc: {
      type, templateBody: body, parameters: input.Parameters ?? [], capabilities: input.Capabilities ?? [],
      tags: input.Tags ? tagsOf(input.Tags) : undefined, notificationARNs: input.NotificationARNs ?? [],
      description: input.Description, statusReason: empty ? NO_CHANGES : undefined, changes: empty ? [] : changes,
      parametersView: after.parameters.map((p) => ({ ParameterKey: p.key, ParameterValue: p.noEcho ? '****' : p.raw, ...(p.resolvedValue !== undefined ? { ResolvedValue: p.resolvedValue } : {}) })),
      roleARN: input.RoleARN,
    },
  };
  store.changeSets.save(record);
  return { Id: changeSetId, StackId: stack.stackId };
}

export function findChangeSet(engine: Engine, caller: Caller, name: string, stackName?: string): ChangeSetRecord {
  const { store } = engine.deps;
  if (name.startsWith('arn:')) {
    const cs = store.changeSets.byId(name);
    if (!cs || cs.deleted || cs.account !== caller.account || cs.region !== caller.region) {
      throw awsError('ChangeSetNotFound', `ChangeSet [${name}] does not exist`);
    }
    return cs;
  }
  if (stackName === undefined) throw validationError('StackName must be specified if ChangeSetName is not specified as an ARN.');
  const stack = stackName.startsWith('arn:') ? store.stacks.byId(stackName) : store.stacks.liveByName(caller.account, caller.region, stackName);
  if (!stack) throw validationError(`Stack [${stackName}] does not exist`);
  const cs = store.changeSets.byName(stack.stackId, name);
  if (!cs) throw awsError('ChangeSetNotFound', `ChangeSet [${name}] does not exist`);
  return cs;
}

export function executeChangeSet(engine: Engine, cs: ChangeSetRecord, options: { DisableRollback?: boolean; RetainExceptOnCreate?: boolean; ClientRequestToken?: string }) {
  const { store } = engine.deps;
  if (cs.status !== 'CREATE_COMPLETE') {
    throw awsError('InvalidChangeSetStatus', `ChangeSet [${cs.changeSetId}] cannot be executed in its current status of [${cs.status}]`);
  }
  if (cs.executionStatus !== 'AVAILABLE') {
    throw awsError('InvalidChangeSetStatus', `ChangeSet [${cs.changeSetId}] cannot be executed in its current execution status of [${cs.executionStatus}]`);
  }
  const stack = store.stacks.byId(cs.stackId)!;
  const doc = cs.doc as { templateBody: string; parameters: GivenParameter[]; capabilities: string[]; tags?: { Key: string; Value: string }[]; notificationARNs: string[]; roleARN?: string };
  const input: CreateStackInput = {
    // Executing a reviewed change set acknowledges its transforms (CAPABILITY_AUTO_EXPAND).
    StackName: stack.name, Parameters: doc.parameters, Capabilities: [...doc.capabilities, 'CAPABILITY_AUTO_EXPAND'], Tags: doc.tags,
    NotificationARNs: doc.notificationARNs, RoleARN: doc.roleARN, ClientRequestToken: options.ClientRequestToken,
    DisableRollback: options.DisableRollback, RetainExceptOnCreate: options.RetainExceptOnCreate,
  };
  const executing = { ...cs, executionStatus: 'EXECUTE_IN_PROGRESS' };
  store.changeSets.save(executing);
  const onEnd = () => {
    const final = store.stacks.byId(stack.stackId)!;
    store.changeSets.save({ ...executing, executionStatus: SUCCEEDED.has(final.status) ? 'EXECUTE_COMPLETE' : 'EXECUTE_FAILED' });
  };
  try {
    if (stack.status === 'REVIEW_IN_PROGRESS') executeCreate(engine, stack, input, doc.templateBody, cs.changeSetId, onEnd);
    else {
      stack.doc.viaChangeSet = true;
      engine.updateStack(stack, input, doc.templateBody, onEnd);
      stack.doc.changeSetId = cs.changeSetId;
      store.stacks.save(stack);
    }
  } catch (err) {
    store.changeSets.save(cs);
    throw err;
  }
}

function executeCreate(engine: Engine, stack: StackRecord, input: CreateStackInput, body: string, changeSetId: string, onEnd: () => void) {
  const { store, clock } = engine.deps;
  const template = prepareForStack(store, stack, body, input.Parameters);
  Object.assign(stack.doc, {
    tags: input.Tags ?? [], capabilities: input.Capabilities, notificationARNs: input.NotificationARNs ?? [],
    disableRollback: input.DisableRollback ?? false, retainExceptOnCreate: input.RetainExceptOnCreate,
    changeSetId, viaChangeSet: true, roleARN: input.RoleARN,
    description: template.model.description,
    parameters: template.parameters.map((p) => ({ ParameterKey: p.key, ParameterValue: p.raw, ...(p.resolvedValue !== undefined ? { ResolvedValue: p.resolvedValue } : {}) })),
    noEchoKeys: template.parameters.filter((p) => p.noEcho).map((p) => p.key),
  });
  stack.templateId = store.templates.insert(stack.stackId, body, clock.now().toISOString());
  const scope = { store, clock, operationId: uuidv4(), token: input.ClientRequestToken };
  for (const other of store.changeSets.byStack(stack.stackId)) {
    if (other.changeSetId !== changeSetId && other.executionStatus === 'AVAILABLE') store.changeSets.save({ ...other, executionStatus: 'OBSOLETE' });
  }
  stack.updatedAt = clock.now().toISOString();
  setStackStatus(scope, stack, 'CREATE_IN_PROGRESS', 'User Initiated');
  engine.startCreate(scope, stack, template, input, onEnd);
}
