// Change sets: CreateChangeSet plans the changes (a CREATE or new-stack IMPORT change set makes a REVIEW_IN_PROGRESS
// stack) and settles CREATE_PENDING → CREATE_IN_PROGRESS → CREATE_COMPLETE | FAILED after the call returns, as AWS
// does (finding, settling late and deleting one: changeSetLookup.ts; executing it: operations/executeChangeSet.ts).
// Error texts and shapes: AWS responses recorded in LocalStack's snapshot tests
// (cfn/api/test_changesets.py, test_stacks.py) and test/conformance/changeSets.test.ts.
import { v4 as uuidv4 } from 'uuid';
import type { ChangeSetRecord, StackRecord, Store } from '../storage/index.js';
import { awsError } from '../domain/errors.js';
import { checkCapabilities, type PreparedTemplate } from '../template/index.js';
import type { ChangeModel } from '../template/diff.js';
import type { GivenParameter } from '../template/parameters.js';
import { checkChangeSetTarget, type ChangeSetStatus, type ExecutionStatus } from './statuses.js';
import { byLiveName, insertChangeSet, outcomeOf, setChangeSetStatus } from './changeSetStatus.js';
import { tagsOf } from './stackRecords.js';
import { insertStack } from './transitions.js';
import { expandForStack, failedTemplate, prepareForStack, prepareStored } from './prepare.js';
import type { ExpandedTemplate } from './expansions.js';
import { isTransformFailure } from '../template/transforms/pending.js';
import { existingToImport, isEmpty, planChanges } from './changeSetPlan.js';
import { checkImport, checkOnlyImports, type ResourceToImport } from './operations/import.js';
import type { Engine, Caller } from './engine.js';
import type { CreateChangeSetInput } from './inputs.js';

export type { CreateChangeSetInput } from './inputs.js';
import type { DeploymentConfig, RollbackConfiguration } from '../generated/cloudformation.js';
import { checkDeploymentConfig, checkFollowUp, recordedConfig } from './deploymentConfig.js';
import { recordValidationEvents, validate, type ValidationOutcome } from './earlyValidation.js';
import { runChangeSetHooks } from './hooks/stackHooks.js';
import { REASONS } from './outcomes.js';

/** What a change set keeps beside its status: the request, and the plan DescribeChangeSet shows. */
export interface ChangeSetDoc {
  type: 'CREATE' | 'UPDATE' | 'IMPORT';
  templateBody: string;
  parameters: GivenParameter[];
  capabilities: string[];
  tags?: { Key: string; Value: string }[];
  notificationARNs: string[];
  description?: string;
  statusReason?: string;
  warnings?: ChangeModel['warnings'];
  changes: ChangeModel['changes'];
  parametersView: { ParameterKey: string; ParameterValue: string; ResolvedValue?: string }[];
  roleARN?: string;
  onStackFailure?: string;
  importExistingResources?: boolean;
  includeNestedStacks?: boolean;
  rollbackConfiguration?: RollbackConfiguration;
  /** The DeploymentConfig the change set was created with (its execution runs in that mode). */
  deploymentConfig?: DeploymentConfig;
  imports?: ResourceToImport[];
  /** ImportExistingResources: logical id → the unowned physical resource the execution imports instead of creating. */
  adoptions?: Record<string, string>;
  /** IncludeNestedStacks: the change sets made for the nested stacks this one modifies, and where this one sits. */
  nestedChangeSets?: string[];
  parentChangeSetId?: string;
  rootChangeSetId?: string;
  /** The CREATE_CHANGESET operation that created it (DescribeEvents by ChangeSetName). */
  operationId?: string;
  /** The outcome CREATE_IN_PROGRESS settles to. */
  pending?: { status: ChangeSetStatus; executionStatus: ExecutionStatus; statusReason?: string };
}

/** A stored change set's doc: storage keeps it as JSON, written from a ChangeSetDoc by createChangeSet. */
export const docOf = (cs: ChangeSetRecord): ChangeSetDoc => cs.doc as unknown as ChangeSetDoc;

export const NO_CHANGES =
  "The submitted information didn't contain changes. Submit different information to create a change set.";

/** CreateChangeSet's transform step (expandTransforms), for the stack it names or the one it would create. */
export function expandForChangeSet(engine: Engine, caller: Caller, input: CreateChangeSetInput, body: string) {
  const stack =
    stackFor(engine.deps.store, caller, input.StackName) ??
    engine.newStack(caller, input.StackName, 'REVIEW_IN_PROGRESS');
  const reviewing = stack.status === 'REVIEW_IN_PROGRESS';
  return expandForStack(engine.deps, stack, body, input.Parameters, reviewing ? undefined : stack.doc.parameters);
}

export function createChangeSet(
  engine: Engine,
  caller: Caller,
  input: CreateChangeSetInput,
  template: ExpandedTemplate,
) {
  const { store, clock } = engine.deps;
  const { body } = template;
  const type = input.ChangeSetType ?? 'UPDATE';
  let stack = stackFor(store, caller, input.StackName);
  checkTarget(store, type, stack, input);
  checkDeploymentConfig(input.DeploymentConfig);
  if (stack) checkFollowUp('CreateChangeSet', stack, input.DeploymentConfig);
  const fresh = !stack;
  stack ??= engine.newStack(caller, input.StackName, 'REVIEW_IN_PROGRESS');
  const reviewing = stack.status === 'REVIEW_IN_PROGRESS';
  const prepared = prepareAfter(store, stack, template, input, reviewing);
  const { after } = prepared;
  let model: ChangeModel = { changes: [], warnings: [] };
  let imports: ReturnType<typeof checkImport> | undefined;
  let adoptions: Map<string, string> | undefined;
  let validation: ValidationOutcome | undefined;
  if (!prepared.failure) {
    checkCapabilities(after, input.Capabilities, true);
    const before = reviewing ? undefined : prepareStored(store, stack, stack.templateId, stack.doc.parameters);
    imports = type === 'IMPORT' ? checkImport(store, stack, after, before, input.ResourcesToImport) : undefined;
    adoptions = type === 'IMPORT' ? undefined : existingToImport(store, stack, before, after, input);
    model = planChanges(store, stack, before, after, input, imports?.physicalIds ?? adoptions);
    if (imports) checkOnlyImports(model);
    const imported = [...(imports?.physicalIds ?? adoptions ?? new Map<string, string>()).keys()];
    validation = input.DisableValidation
      ? undefined
      : validate({ store, stack, existing: before?.active, after, imported });
    if (validation?.failure) prepared.failure = validation.failure;
    else if (isEmpty(stack, before, after, model, input)) prepared.failure = NO_CHANGES;
  }
  // creating a change set is an operation of its own (CREATE_CHANGESET): a new stack's first event is its
  const operationId = uuidv4();
  const changeSetId = `arn:aws:cloudformation:${caller.region}:${caller.account}:changeSet/${input.ChangeSetName}/${uuidv4()}`;
  // the change set's own hooks run once it is planned (state-machine/hooks/stackHooks.ts)
  if (!prepared.failure && !imports?.failure) {
    const door = engine.deps.hooks;
    const scope = { store, clock, operationId };
    prepared.failure = runChangeSetHooks({ scope, door, stack, changeSetId, metadata: after.model.metadata });
  }
  const outcome = outcomeOf(imports?.failure ?? prepared.failure);
  if (fresh) insertStack({ store, clock, operationId }, stack, body, REASONS.userInitiated);
  const doc = changeSetDoc(type, input, body, after, model, outcome);
  doc.operationId = operationId;
  store.history.begin({
    operationId,
    stackId: stack.stackId,
    kind: 'CREATE_CHANGESET',
    status: 'IN_PROGRESS',
    startedAt: clock.now().toISOString(),
    changeSetId,
  });
  if (adoptions) doc.adoptions = Object.fromEntries(adoptions);
  insertChangeSet(store, {
    changeSetId,
    account: caller.account,
    region: caller.region,
    stackId: stack.stackId,
    name: input.ChangeSetName,
    createdAt: clock.now().toISOString(),
    deleted: false,
    doc: doc as unknown as Record<string, unknown>,
  });
  if (validation) recordValidationEvents({ store, clock, operationId }, stack, validation.problems);
  reachPlannedOutcomeLater(store, changeSetId);
  return { Id: changeSetId, StackId: stack.stackId };
}

/** The change set's template; a transform that fails makes a FAILED change set with its reason (AWS's text). */
function prepareAfter(
  store: Store,
  stack: StackRecord,
  template: ExpandedTemplate,
  input: CreateChangeSetInput,
  reviewing: boolean,
): { after: PreparedTemplate; failure?: string } {
  try {
    return {
      after: prepareForStack(store, stack, template, input.Parameters, reviewing ? undefined : stack.doc.parameters),
    };
  } catch (err) {
    if (!isTransformFailure(err)) throw err;
    return { after: failedTemplate(template.body, err.message), failure: err.message };
  }
}

function changeSetDoc(
  type: ChangeSetDoc['type'],
  input: CreateChangeSetInput,
  body: string,
  after: PreparedTemplate,
  model: ChangeModel,
  outcome: NonNullable<ChangeSetDoc['pending']>,
): ChangeSetDoc {
  return {
    type,
    templateBody: body,
    parameters: input.Parameters ?? [],
    capabilities: input.Capabilities ?? [],
    tags: input.Tags ? tagsOf(input.Tags) : undefined,
    notificationARNs: input.NotificationARNs ?? [],
    description: input.Description,
    changes: outcome.status === 'FAILED' ? [] : model.changes,
    warnings: model.warnings,
    parametersView: after.parameters.map((p) => ({
      ParameterKey: p.key,
      ParameterValue: p.noEcho ? '****' : p.raw,
      ...(p.resolvedValue !== undefined ? { ResolvedValue: p.resolvedValue } : {}),
    })),
    roleARN: input.RoleARN,
    onStackFailure: input.OnStackFailure,
    importExistingResources: input.ImportExistingResources,
    includeNestedStacks: input.IncludeNestedStacks ?? false,
    rollbackConfiguration: input.RollbackConfiguration,
    deploymentConfig: recordedConfig(input.DeploymentConfig),
    imports: input.ResourcesToImport,
    pending: outcome,
  };
}

export function stackFor(store: Store, caller: Caller, name: string): StackRecord | undefined {
  return name.startsWith('arn:')
    ? store.stacks.byId(name)
    : store.stacks.liveByName(caller.account, caller.region, name);
}

/** AWS's refusals of a change set's type against the stack it names. */
function checkTarget(store: Store, type: string, stack: StackRecord | undefined, input: CreateChangeSetInput): void {
  checkChangeSetTarget(type, stack, input);
  if (stack && byLiveName(store, stack.stackId, input.ChangeSetName)) {
    throw awsError('AlreadyExistsException', `ChangeSet [${input.ChangeSetName}] already exists`);
  }
}

/** CREATE_PENDING → CREATE_IN_PROGRESS → the planned outcome, each a turn of the event loop after the call. */
function reachPlannedOutcomeLater(store: Store, changeSetId: string): void {
  const step = (apply: (cs: ChangeSetRecord) => boolean) => {
    try {
      const cs = store.changeSets.byId(changeSetId);
      return cs !== undefined && !cs.deleted && apply(cs);
    } catch {
      return false; // the store closed under us (server stopping)
    }
  };
  setImmediate(() => {
    if (
      !step((cs) => cs.status === 'CREATE_PENDING' && !!setChangeSetStatus(store, cs, { status: 'CREATE_IN_PROGRESS' }))
    )
      return;
    setImmediate(() => step((cs) => cs.status === 'CREATE_IN_PROGRESS' && reachPlannedOutcome(store, cs) !== cs));
  });
}

/**
 * The planned outcome of a change set still being created. A change set whose stack moved on while it was being
 * created is born OBSOLETE.
 */
export function reachPlannedOutcome(store: Store, cs: ChangeSetRecord): ChangeSetRecord {
  const { pending, operationId } = docOf(cs);
  if (!pending) return cs;
  if (operationId) {
    store.history.end(operationId, pending.status === 'FAILED' ? 'FAILED' : 'SUCCEEDED', new Date().toISOString());
  }
  return setChangeSetStatus(store, cs, {
    status: pending.status,
    executionStatus: cs.executionStatus === 'OBSOLETE' ? 'OBSOLETE' : pending.executionStatus,
    doc: { ...cs.doc, pending: undefined, statusReason: pending.statusReason },
  });
}
