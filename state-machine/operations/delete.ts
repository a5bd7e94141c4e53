// DELETE_STACK: DeleteStack starts it; its run deletes resources in reverse dependency order, independent branches
// continuing past a failure; DELETE_COMPLETE, or DELETE_FAILED listing every resource that could not be deleted
// (a retry resumes).
import type { ResourceRecord, StackRecord } from '../../storage/index.js';
import { validationError } from '../../domain/errors.js';
import { templateWithNothing } from '../prepare.js';
import { setStackStatus } from '../transitions.js';
import { checkStart, REFUSALS, type StackStatus } from '../statuses.js';
import type { Runtime } from '../runtime.js';
import type { Engine } from '../engine.js';
import type { DeleteStackInput } from '../inputs.js';
import { rememberToken, repeatOf } from '../tokens.js';
import { exportsInUse } from './outputs.js';
import { deleteInOrder, failedToDelete, standing } from './deletePlan.js';
import { checkDeploymentConfig, modeOf, recordedConfig } from '../deploymentConfig.js';
import { REASONS, reachOutcome } from '../outcomes.js';
import { runStackHooks } from '../hooks/stackHooks.js';

/** Who asks beyond the call: a parent deleting its nested stack, which the root's termination protection does not stop. */
export interface DeleteExtras {
  byParent?: boolean;
}

/** DeleteStack: nothing to do for a deleted stack, a repeated call, or a delete already running. */
export function deleteStack(
  engine: Engine,
  stack: StackRecord,
  input: DeleteStackInput,
  extras: DeleteExtras = {},
): void {
  const { store } = engine.deps;
  checkDeploymentConfig(input.DeploymentConfig);
  if (stack.status === 'DELETE_COMPLETE' || repeatOf(stack, input.ClientRequestToken, 'DeleteStack')) return;
  if (stack.doc.terminationProtection && !extras.byParent) {
    throw validationError(`Stack [${stack.name}] cannot be deleted while TerminationProtection is enabled`);
  }
  if (input.RetainResources?.length && stack.status !== 'DELETE_FAILED') {
    throw validationError(
      `Invalid operation on stack [${stack.stackId}]. RetainResources can only be specified when a stack is in the DELETE_FAILED state`,
    );
  }
  if (stack.status === 'DELETE_IN_PROGRESS') return;
  checkStart('DeleteStack', stack);
  if (stack.status === 'CREATE_IN_PROGRESS') return deleteWhileCreating(engine, stack, input);
  const resources = new Map(store.resources.byStack(stack.stackId).map((r) => [r.logicalId, r]));
  checkRetainable(resources, input.RetainResources);
  const statusBefore = stack.status;
  stack.doc.deploymentConfig = recordedConfig(input.DeploymentConfig, stack.doc.deploymentConfig);
  engine.startOperation('DELETE_STACK', {
    operation: engine.operationContext(input.ClientRequestToken),
    stack,
    template: templateWithNothing(),
    resources,
    options: { retainResources: input.RetainResources, express: modeOf(input.DeploymentConfig) === 'EXPRESS' },
    tokenAction: 'DeleteStack',
    first: 'DELETE_IN_PROGRESS',
    run: (rt) => runDelete(rt, statusBefore),
  });
}

/**
 * DeleteStack during a create: the stack goes DELETE_IN_PROGRESS at once ("User Initiated"), the create's in-flight
 * resources are cancelled (CREATE_FAILED "Resource creation cancelled"), and the create's own run then deletes what
 * it made (CREATE_RUN stopped → runDelete), with no rollback in between.
 */
function deleteWhileCreating(engine: Engine, stack: StackRecord, input: DeleteStackInput): void {
  const rt = engine.running.get(stack.stackId);
  if (!rt) throw validationError(REFUSALS.DeleteStack(stack));
  rememberToken(rt.stack, input.ClientRequestToken, 'DeleteStack');
  rt.stopReason = 'deleted';
  reachOutcome(rt, 'DELETE', 'inProgress', REASONS.userInitiated);
  rt.stop.abort();
}

function checkRetainable(resources: Map<string, ResourceRecord>, retain: string[] | undefined): void {
  for (const id of retain ?? []) {
    if (resources.get(id)?.status === 'DELETE_COMPLETE') {
      throw validationError(
        'The specified resources to retain must be in a valid state. Do not specify resources that are in the DELETE_COMPLETE state.',
      );
    }
  }
}

export async function runDelete(rt: Runtime, statusBefore: StackStatus): Promise<void> {
  const inUse = exportsInUse(rt, new Map());
  if (inUse) {
    // AWS sends the stack back to where it was rather than to DELETE_FAILED.
    setStackStatus(rt, rt.stack, statusBefore, inUse);
    return;
  }
  const hookFailure = runStackHooks(rt, 'DELETE');
  if (hookFailure) {
    reachOutcome(rt, 'DELETE', 'failed', hookFailure);
    return;
  }
  const targets = standing(rt.resources.values()).map((record) => ({ record }));
  const { failed } = await deleteInOrder(rt, targets, 'stack-delete');
  if (failed.length) {
    reachOutcome(rt, 'DELETE', 'failed', failedToDelete(failed));
    return;
  }
  rt.store.transaction(() => {
    rt.store.exports.removeByStack(rt.stack.stackId);
    rt.store.exports.setImports(rt.stack.account, rt.stack.region, rt.stack.stackId, []);
    reachOutcome(rt, 'DELETE', 'complete');
  });
}
