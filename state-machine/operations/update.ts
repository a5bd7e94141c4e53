// UPDATE_STACK: UpdateStack (or ExecuteChangeSet) starts it; its run adds, updates in place or replaces in
// dependency order; then UPDATE_COMPLETE_CLEANUP_IN_PROGRESS deletes what was removed and the old copies of
// replacements. A failure rolls the update back (UPDATE_ROLLBACK_IN_PROGRESS → UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS
// → UPDATE_ROLLBACK_COMPLETE). CancelUpdateStack stops it.
import type { ResourceRecord, StackRecord } from '../../storage/index.js';
import { validationError } from '../../domain/errors.js';
import { checkCapabilities, type PreparedTemplate } from '../../template/index.js';
import { createResource, updateResource } from '../resourceActions.js';
import type { DeleteTarget } from '../resourceDelete.js';
import { checkCancel, checkStart } from '../statuses.js';
import { reachOutcome } from '../outcomes.js';
import type { Runtime } from '../runtime.js';
import type { Engine } from '../engine.js';
import type { StackTemplateInput } from '../inputs.js';
import { expandForStack, leavesUnchanged, prepareForStack, resolvedValues } from '../prepare.js';
import type { ExpandedTemplate } from '../expansions.js';
import { describeTemplate, tagsOf } from '../stackRecords.js';
import { markObsolete } from '../changeSetStatus.js';
import { repeatOf } from '../tokens.js';
import { evaluateOutputs, exportsInUse } from './outputs.js';
import { keepPrevious, runOperation, type RunRow } from './run.js';
import { deleteInOrder } from './deletePlan.js';
import { checkAttributes } from './attributes.js';
import { failedToCreate } from './create.js';
import { rollbackUpdate } from './updateRollback.js';
import { parseStackPolicy, policyRefusal } from '../stackPolicy.js';
import { recordValidationEvents, validate } from '../earlyValidation.js';
import { checkDeploymentConfig, checkFollowUp, modeOf, recordedConfig, rollbackDisabled } from '../deploymentConfig.js';

/** What ExecuteChangeSet passes on besides the change set's request (none of it is an API member). */
export interface UpdateExtras {
  /** Executing a reviewed change set acknowledges its transforms (no CAPABILITY_AUTO_EXPAND needed). */
  reviewed?: boolean;
  adopt?: Record<string, string>;
  onEnd?: () => void;
}

// AWS's refusals of UpdateStack on a stack kept in CREATE_FAILED or UPDATE_FAILED, as recorded from the API
// (ansible-collections/amazon.aws#1655; code-dot-org/code-dot-org#68524): the update must itself disable rollback,
// and a stack created with OnFailure DO_NOTHING (rather than DisableRollback) cannot be updated at all.
export const FAILED_STATE_REFUSALS = {
  onFailure: (status: string) =>
    `This stack cannot be updated from [${status}] state because it contains [on-failure: DO_NOTHING]. Please use disable-rollback option instead during stack creation.`,
  rollbackNotDisabled: (status: string) =>
    `This stack is currently in a non-terminal [${status}] state. To update the stack from this state, please use the disable-rollback parameter with update-stack API. To rollback to the last known good state, use the rollback-stack API`,
};

/** The UpdateStack call's own checks on a stack kept in a failed state (see FAILED_STATE_REFUSALS). */
export function checkFailedStateUpdate(stack: StackRecord, input: StackTemplateInput): void {
  checkDeploymentConfig(input.DeploymentConfig);
  checkFollowUp('UpdateStack', stack, input.DeploymentConfig);
  if (stack.status !== 'CREATE_FAILED' && stack.status !== 'UPDATE_FAILED') return;
  if (stack.status === 'CREATE_FAILED' && stack.doc.onFailure === 'DO_NOTHING')
    throw validationError(FAILED_STATE_REFUSALS.onFailure(stack.status));
  if (rollbackDisabled(input.DeploymentConfig, input.DisableRollback) !== true)
    throw validationError(FAILED_STATE_REFUSALS.rollbackNotDisabled(stack.status));
}

/** UpdateStack; ExecuteChangeSet of an UPDATE change set comes here too, with its extras. */
export function updateStack(
  engine: Engine,
  stack: StackRecord,
  input: StackTemplateInput,
  expanded: ExpandedTemplate,
  extras: UpdateExtras = {},
): string {
  const { store } = engine.deps;
  const { body } = expanded;
  if (repeatOf(stack, input.ClientRequestToken, 'UpdateStack')) return stack.stackId;
  checkStart('UpdateStack', stack);
  if (input.StackPolicyDuringUpdateBody !== undefined) parseStackPolicy(input.StackPolicyDuringUpdateBody);
  const template = prepareForStack(store, stack, expanded, input.Parameters, stack.doc.parameters);
  checkCapabilities(template, input.Capabilities, extras.reviewed);
  const resources = new Map(store.resources.byStack(stack.stackId).map((r) => [r.logicalId, r]));
  if (isNoOp(engine, stack, expanded, template, input)) throw validationError('No updates are to be performed.');
  // a change set was validated when it was created
  const validation =
    input.DisableValidation || extras.reviewed
      ? undefined
      : validate({ store, stack, existing: resources, after: template });
  const operation = engine.operationContext(input.ClientRequestToken);
  keepPrevious(stack, operation.operationId);
  stack.templateId = store.templates.insert(stack.stackId, body, engine.deps.clock.now().toISOString());
  applyUpdateOptions(stack, input);
  markObsolete(store, stack.stackId);
  describeTemplate(stack, template);
  engine.startOperation('UPDATE_STACK', {
    operation: operation,
    stack,
    template,
    resources,
    tokenAction: 'UpdateStack',
    first: 'UPDATE_IN_PROGRESS',
    options: {
      disableRollback: rollbackDisabled(input.DeploymentConfig, input.DisableRollback),
      retainExceptOnCreate: input.RetainExceptOnCreate,
      adopt: extras.adopt,
      express: modeOf(input.DeploymentConfig) === 'EXPRESS',
    },
    begin: (rt) => recordValidationEvents(rt, rt.stack, validation?.problems ?? []),
    run: (rt) => (validation?.failure ? failUpdate(rt, `${validation.failure} `) : runOperation(rt, UPDATE_RUN)),
    onEnd: extras.onEnd,
  });
  return stack.stackId;
}

/** UpdateStack's transform step (expandTransforms), with the stack's parameter values for UsePreviousValue. */
export function expandForUpdate(engine: Engine, stack: StackRecord, input: StackTemplateInput, body: string) {
  return expandForStack(engine.deps, stack, body, input.Parameters, stack.doc.parameters);
}

function applyUpdateOptions(stack: StackRecord, input: StackTemplateInput): void {
  if (input.Capabilities) stack.doc.capabilities = input.Capabilities;
  if (input.Tags) stack.doc.tags = tagsOf(input.Tags);
  if (input.NotificationARNs) stack.doc.notificationARNs = input.NotificationARNs;
  stack.doc.disableRollback = rollbackDisabled(input.DeploymentConfig, input.DisableRollback) ?? false;
  stack.doc.deploymentConfig = recordedConfig(input.DeploymentConfig, stack.doc.deploymentConfig);
  stack.doc.retainExceptOnCreate = input.RetainExceptOnCreate;
  stack.doc.changeSetId = undefined;
  stack.doc.duringUpdatePolicyBody = input.StackPolicyDuringUpdateBody;
  if (input.StackPolicyBody !== undefined) stack.doc.stackPolicyBody = input.StackPolicyBody;
}

/** The stored template with its stored values, compared with the new one (see leavesUnchanged). */
function isNoOp(
  engine: Engine,
  stack: StackRecord,
  expanded: ExpandedTemplate,
  template: PreparedTemplate,
  input: StackTemplateInput,
): boolean {
  const { store } = engine.deps;
  const previousBody = store.templates.body(stack.templateId);
  if (previousBody === undefined) return false;
  let previous;
  try {
    // read with this call's expansions only: a stored template that needs others is not compared; it was checked
    // when it was accepted, so its rules and dynamic references are not checked (nor read) again
    previous = prepareForStack(
      store,
      stack,
      { body: previousBody, expansions: expanded.expansions },
      stack.doc.parameters.map((p) => ({ ParameterKey: p.ParameterKey, ParameterValue: p.ParameterValue })),
      undefined,
      { resolved: resolvedValues(stack.doc.parameters) },
    );
  } catch {
    return false;
  }
  return leavesUnchanged(stack, previous, template, input.Tags);
}

/** CancelUpdateStack: stops a running update; in-flight resources are cancelled and the update rolls back. */
export function cancelUpdateStack(engine: Engine, stack: StackRecord): void {
  const rt = engine.running.get(stack.stackId);
  checkCancel(stack, rt);
  rt.stopReason = 'cancelled';
  rt.stop.abort();
}

export const failedToUpdate = (ids: Iterable<string>) =>
  `The following resource(s) failed to update: [${[...ids].sort().join(', ')}]. `;
const UPDATE_CLEANUP_FAILED = 'Update successful. One or more resources could not be deleted.';

/** The update's row of the run skeleton: also what a restart resumes when the update was caught waiting. */
export const UPDATE_RUN: RunRow = {
  kind: 'UPDATE',
  action: 'Update',
  check: (rt) => checkAttributes(rt) ?? removalRefused(rt),
  plan: (rt) => {
    const existing = new Set(
      [...rt.resources.values()].filter((r) => r.physicalId || r.status !== 'CREATE_FAILED').map((r) => r.logicalId),
    );
    return {
      ids: rt.template.graph.order,
      act: (id, signal) => (existing.has(id) ? updateResource(rt, id, signal) : createResource(rt, id, signal)),
      failed: (ids) => ([...ids].every((id) => !existing.has(id)) ? failedToCreate(ids) : failedToUpdate(ids)),
    };
  },
  stopped: (rt) =>
    rt.stopReason === 'cancelled' ? 'Stack update cancelled' : 'Stack update time exceeded the specified timeout. ',
  outputs: (rt) => {
    const outputs = evaluateOutputs(rt);
    const inUse = exportsInUse(
      rt,
      new Map(outputs.filter((o) => o.ExportName).map((o) => [o.ExportName!, o.OutputValue])),
    );
    if (inUse) throw new Error(inUse);
    return outputs;
  },
  complete: async (rt) => {
    reachOutcome(rt, 'UPDATE', 'cleanupInProgress');
    await finishUpdate(rt);
  },
  fail: failUpdate,
  rollBack: rollbackUpdate,
  interrupted: (rt, cancelled) => failUpdate(rt, failedToUpdate(cancelled)),
};

/** The cleanup phase and the end of a successful update (also what recovery resumes). */
export async function finishUpdate(rt: Runtime): Promise<void> {
  const failed = await cleanUp(rt);
  rt.stack.doc.previous = undefined;
  reachOutcome(rt, 'UPDATE', 'complete', failed.length ? UPDATE_CLEANUP_FAILED : undefined);
}

/** A stack policy may forbid Update:Delete of a resource the new template drops. */
function removalRefused(rt: Runtime): string | undefined {
  const policy = rt.stack.doc.duringUpdatePolicyBody ?? rt.stack.doc.stackPolicyBody;
  for (const r of rt.resources.values()) {
    if (rt.template.active.has(r.logicalId)) continue;
    const refusal = policyRefusal(policy, r.logicalId, r.type, 'Delete');
    if (refusal) return refusal;
  }
  return undefined;
}

/** Deletes resources removed from the template and old copies of replaced ones; failures leave the stack. */
async function cleanUp(rt: Runtime): Promise<string[]> {
  const removed = [...rt.resources.values()].filter((r) => !rt.template.active.has(r.logicalId));
  const replaced: DeleteTarget[] = [...rt.resources.values()]
    .filter((r) => r.doc.replaced)
    .map((r) => ({ record: r, physicalId: r.doc.replaced!.physicalId, properties: r.doc.replaced!.properties }));
  const removedOutcome = await deleteInOrder(
    rt,
    removed.map((record) => ({ record })),
    'cleanup',
  );
  const replacedOutcome = await deleteInOrder(rt, replaced, 'replaced-copy');
  rt.store.transaction(() => {
    for (const r of removed) {
      rt.resources.delete(r.logicalId);
      rt.store.resources.remove(r.stackId, r.logicalId);
    }
    for (const r of rt.resources.values()) forgetPreviousState(rt, r);
  });
  return [...removedOutcome.failed, ...replacedOutcome.failed];
}

/** After an update ends, a resource keeps no trace of its previous state. */
function forgetPreviousState(rt: Runtime, r: ResourceRecord): void {
  if (!r.doc.before && !r.doc.replaced) return;
  r.doc.before = undefined;
  r.doc.replaced = undefined;
  rt.store.resources.save(r);
}

export async function failUpdate(rt: Runtime, reason: string): Promise<void> {
  if (rt.options.disableRollback) {
    reachOutcome(rt, 'UPDATE', 'failedKept', reason);
    return;
  }
  reachOutcome(rt, 'UPDATE', 'rollbackInProgress', reason);
  await rollbackUpdate(rt);
}
