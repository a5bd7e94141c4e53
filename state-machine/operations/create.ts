// CREATE_STACK: CreateStack (or ExecuteChangeSet on a REVIEW_IN_PROGRESS stack) starts it; its run creates resources
// in dependency order; on a failure it cancels what is in flight and rolls back (ROLLBACK_IN_PROGRESS →
// ROLLBACK_COMPLETE | ROLLBACK_FAILED), or keeps CREATE_FAILED when rollback is disabled.
import type { StackRecord } from '../../storage/index.js';
import { awsError } from '../../domain/errors.js';
import { checkCapabilities, type PreparedTemplate } from '../../template/index.js';
import { createResource } from '../resourceActions.js';
import type { Runtime } from '../runtime.js';
import type { Caller, Engine, RunOptions } from '../engine.js';
import type { CreateStackInput } from '../inputs.js';
import { expandForStack, prepareForCreate, prepareForStack } from '../prepare.js';
import type { ExpandedTemplate } from '../expansions.js';
import { describeTemplate, tagsOf } from '../stackRecords.js';
import { markObsolete } from '../changeSetStatus.js';
import { parseStackPolicy } from '../stackPolicy.js';
import { repeatOf } from '../tokens.js';
import { evaluateOutputs } from './outputs.js';
import { runOperation, type RunRow } from './run.js';
import { deleteInOrder, failedToDelete, standing } from './deletePlan.js';
import { runDelete } from './delete.js';
import { checkAttributes } from './attributes.js';
import { recordValidationEvents, validate } from '../earlyValidation.js';
import { checkDeploymentConfig, modeOf, recordedConfig, rollbackDisabled } from '../deploymentConfig.js';
import { reachOutcome, rollbackRequested } from '../outcomes.js';

/** ROLLBACK, DELETE or DO_NOTHING as AWS names them; any other value rolls back (see failCreate). */
type OnFailure = NonNullable<Runtime['onFailure']>;

/** CreateStack. AWS accepts it over a stack still in review: that stack's pending change sets become OBSOLETE. */
export function createStack(
  engine: Engine,
  caller: Caller,
  input: CreateStackInput,
  expanded: ExpandedTemplate,
): string {
  const { store } = engine.deps;
  const { body } = expanded;
  const name = input.StackName!;
  const existing = store.stacks.liveByName(caller.account, caller.region, name);
  if (existing && repeatOf(existing, input.ClientRequestToken, 'CreateStack')) return existing.stackId;
  if (existing && existing.status !== 'REVIEW_IN_PROGRESS') {
    throw awsError('AlreadyExistsException', `Stack [${name}] already exists`);
  }
  checkDeploymentConfig(input.DeploymentConfig);
  const stack = existing ?? engine.newStack(caller, name, 'CREATE_IN_PROGRESS');
  applyCreateOptions(stack, input);
  if (input.StackPolicyBody !== undefined) parseStackPolicy(input.StackPolicyBody);
  const template = prepareForCreate(store, stack, expanded, input.Parameters);
  checkCapabilities(template, input.Capabilities);
  describeTemplate(stack, template);
  const validation = input.DisableValidation ? undefined : validate({ store, stack, after: template });
  const operation = engine.operationContext(input.ClientRequestToken);
  if (existing) {
    stack.templateId = store.templates.insert(stack.stackId, body, engine.deps.clock.now().toISOString());
    markObsolete(store, stack.stackId);
  }
  engine.startOperation('CREATE_STACK', {
    operation: operation,
    stack,
    template,
    resources: new Map(),
    options: runOptions(input),
    tokenAction: 'CreateStack',
    ...(existing ? { first: 'CREATE_IN_PROGRESS' } : { insertBody: body }),
    begin: (rt) => recordValidationEvents(rt, rt.stack, validation?.problems ?? []),
    onFailure: input.OnFailure,
    // a FAIL validation fails the create before anything is provisioned
    run: (rt) => (validation?.failure ? CREATE_RUN.fail(rt, `${validation.failure} `) : runOperation(rt, CREATE_RUN)),
  });
  return stack.stackId;
}

/** CreateStack's transform step (expandTransforms), for the stack in review it takes over or a new one. */
export function expandForCreate(engine: Engine, caller: Caller, input: CreateStackInput, body: string) {
  const name = input.StackName!;
  const stack =
    engine.deps.store.stacks.liveByName(caller.account, caller.region, name) ??
    engine.newStack(caller, name, 'CREATE_IN_PROGRESS');
  return expandForStack(engine.deps, stack, body, input.Parameters);
}

function applyCreateOptions(stack: StackRecord, input: CreateStackInput): void {
  Object.assign(stack.doc, {
    tags: tagsOf(input.Tags),
    capabilities: input.Capabilities,
    notificationARNs: input.NotificationARNs ?? [],
    disableRollback: runOptions(input).disableRollback ?? input.OnFailure === 'DO_NOTHING',
    deploymentConfig: recordedConfig(input.DeploymentConfig),
    onFailure: input.OnFailure,
    terminationProtection: input.EnableTerminationProtection ?? false,
    timeoutInMinutes: input.TimeoutInMinutes,
    roleARN: input.RoleARN,
    retainExceptOnCreate: input.RetainExceptOnCreate,
    stackPolicyBody: input.StackPolicyBody,
  });
}

/** The run's options; DeploymentConfig decides rollback (state-machine/deploymentConfig.ts). */
const runOptions = (input: CreateStackInput): RunOptions => ({
  disableRollback: rollbackDisabled(input.DeploymentConfig, input.DisableRollback),
  retainExceptOnCreate: input.RetainExceptOnCreate,
  express: modeOf(input.DeploymentConfig) === 'EXPRESS',
});

/** What ExecuteChangeSet passes on besides the change set's request. */
export interface ExecuteExtras {
  changeSetId: string;
  adopt?: Record<string, string>;
  onEnd: () => void;
}

/** ExecuteChangeSet on a REVIEW_IN_PROGRESS stack: the create its CREATE change set describes. */
export function executeCreate(
  engine: Engine,
  stack: StackRecord,
  input: CreateStackInput,
  body: string,
  extras: ExecuteExtras,
): void {
  const { store, clock } = engine.deps;
  const template = prepareForStack(store, stack, body, input.Parameters);
  Object.assign(stack.doc, {
    tags: tagsOf(input.Tags),
    capabilities: input.Capabilities,
    notificationARNs: input.NotificationARNs ?? [],
    disableRollback: runOptions(input).disableRollback ?? input.OnFailure === 'DO_NOTHING',
    deploymentConfig: recordedConfig(input.DeploymentConfig, stack.doc.deploymentConfig),
    onFailure: input.OnFailure,
    retainExceptOnCreate: input.RetainExceptOnCreate,
    changeSetId: extras.changeSetId,
    viaChangeSet: true,
    roleARN: input.RoleARN,
  });
  describeTemplate(stack, template);
  stack.templateId = store.templates.insert(stack.stackId, body, clock.now().toISOString());
  // a stack created through a change set shows LastUpdatedTime at once
  stack.updatedAt = clock.now().toISOString();
  engine.startOperation('CREATE_STACK', {
    operation: engine.operationContext(input.ClientRequestToken),
    stack,
    template,
    resources: new Map(),
    options: { ...runOptions(input), adopt: extras.adopt },
    first: 'CREATE_IN_PROGRESS',
    onFailure: input.OnFailure,
    run: (rt) => runOperation(rt, CREATE_RUN),
    onEnd: extras.onEnd,
  });
}

/** A nested stack's create, started by its parent's resource (state-machine/nestedStacks.ts): a new stack row. */
export function createNestedStack(
  engine: Engine,
  stack: StackRecord,
  template: PreparedTemplate,
  body: string,
  onFailure: OnFailure,
  after?: Promise<void>,
): void {
  engine.startOperation('CREATE_STACK', {
    operation: engine.operationContext(),
    stack,
    template,
    resources: new Map(),
    insertBody: body,
    onFailure,
    after,
    run: (rt) => runOperation(rt, CREATE_RUN),
  });
}

export const failedToCreate = (ids: Iterable<string>) =>
  `The following resource(s) failed to create: [${[...ids].sort().join(', ')}]. `;

/** What a failed create does: its OnFailure (a nested stack's says whether its rollback is disabled). */
const onFailureOf = (rt: Runtime): OnFailure => rt.onFailure ?? 'ROLLBACK';

/** The create's row of the run skeleton: also what a restart resumes when the create was caught waiting. */
export const CREATE_RUN: RunRow = {
  kind: 'CREATE',
  action: 'Create',
  check: (rt) => (rt.template.failure ? rt.template.failure : checkAttributes(rt)),
  plan: (rt) => ({
    ids: rt.template.graph.order,
    act: (id, signal) => createResource(rt, id, signal),
    failed: failedToCreate,
  }),
  stopped: (rt) => {
    // DeleteStack during the create: the stack is DELETE_IN_PROGRESS already; delete what was made, no rollback.
    if (rt.stopReason === 'deleted') return runDelete(rt, 'CREATE_IN_PROGRESS');
    // AWS's reason when TimeoutInMinutes runs out during a create
    if (rt.stopReason === 'timed-out') return 'Stack creation time exceeded the specified timeout. ';
    return undefined;
  },
  outputs: evaluateOutputs,
  complete: async (rt) => reachOutcome(rt, 'CREATE', 'complete'),
  fail: (rt, reason) => failCreate(rt, reason, onFailureOf(rt)),
  rollBack: async (rt) => {
    await rollbackCreated(rt);
  },
  // a restart rolls a create it cut short back, whatever its OnFailure
  interrupted: async (rt, cancelled) => {
    reachOutcome(rt, 'CREATE', 'rollbackInProgress', rollbackRequested(failedToCreate(cancelled)));
    await rollbackCreated(rt);
  },
};

export async function failCreate(rt: Runtime, reason: string, onFailure: OnFailure) {
  if (rt.options.disableRollback || onFailure === 'DO_NOTHING') {
    reachOutcome(rt, 'CREATE', 'failedKept', reason);
    return;
  }
  reachOutcome(rt, 'CREATE', 'rollbackInProgress', rollbackRequested(reason));
  const rolledBack = await rollbackCreated(rt);
  if (!rolledBack) return;
  if (onFailure === 'DELETE') {
    reachOutcome(rt, 'DELETE', 'inProgress');
    reachOutcome(rt, 'DELETE', 'complete');
  }
}

/** Deletes what the create made; ROLLBACK_COMPLETE, or ROLLBACK_FAILED listing what could not be deleted. */
export async function rollbackCreated(rt: Runtime): Promise<boolean> {
  const targets = standing(rt.resources.values()).map((record) => ({ record }));
  const { failed } = await deleteInOrder(rt, targets, 'rollback');
  if (failed.length) {
    reachOutcome(rt, 'CREATE', 'rollbackFailed', failedToDelete(failed));
    return false;
  }
  rt.store.exports.removeByStack(rt.stack.stackId);
  reachOutcome(rt, 'CREATE', 'rollbackComplete');
  return true;
}
