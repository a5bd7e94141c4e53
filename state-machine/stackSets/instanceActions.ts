// What a stack set operation does in one account and region: each instance is a real stack there, created, updated
// or deleted through the stack operations (and so the engine's one door), and watched until it is idle.
import { v4 as uuidv4 } from 'uuid';
import { isAwsError } from '../../domain/errors.js';
import type { Engine } from '../engine.js';
import type { SetParameter, StackInstanceRecord, StackRecord, StackSetRecord } from '../../storage/index.js';
import { createStack, expandForCreate } from '../operations/create.js';
import { expandForUpdate, updateStack } from '../operations/update.js';
import { deleteStack } from '../operations/delete.js';
import { runStackDrift } from '../drift.js';
import type { Target } from './targets.js';

export interface InstanceOutcome {
  ok: boolean;
  reason?: string;
}

/** The set's parameters with the instance's overrides over them. */
export function parametersOf(set: StackSetRecord, overrides: SetParameter[]): SetParameter[] {
  const out = new Map(set.doc.parameters.map((p) => [p.ParameterKey!, p.ParameterValue]));
  for (const o of overrides)
    if (o.ParameterKey && o.ParameterValue !== undefined) out.set(o.ParameterKey, o.ParameterValue);
  return [...out].map(([ParameterKey, ParameterValue]) => ({ ParameterKey, ParameterValue }));
}

/**
 * Why an instance's stack failed, as a stack set reports it: the first resource failure that is not a
 * cancellation, `ResourceLogicalId:…, ResourceType:…, ResourceStatusReason:…`; else the stack's own reason.
 */
export function failureOf(engine: Engine, stack: StackRecord, since: string): string {
  const events = engine.deps.store.events.page(stack.stackId, undefined, 1000).reverse();
  const failed = events.find(
    (e) =>
      e.timestamp >= since &&
      e.logicalId !== stack.name &&
      e.status.endsWith('_FAILED') &&
      !/cancelled/.test(e.reason ?? ''),
  );
  if (failed) {
    return `ResourceLogicalId:${failed.logicalId}, ResourceType:${failed.type}, ResourceStatusReason:${failed.reason ?? ''}`;
  }
  return stack.statusReason ?? `Stack ${stack.stackId} is in ${stack.status} state`;
}

const messageOf = (err: unknown) => (isAwsError(err) ? err.message : (err as Error).message);

/**
 * The instance's stack once no operation runs on it. After a restart, the stack an interrupted set operation was
 * creating, updating or deleting is still being carried where the restart takes it (recovery.ts: a create or update
 * rolls back, a delete resumes); the set operation decides what to do with it once that has ended.
 */
async function settledStack(engine: Engine, instance: StackInstanceRecord): Promise<StackRecord | undefined> {
  return instance.doc.stackId ? engine.stackWhenIdle(instance.doc.stackId) : undefined;
}

/** A stack that can take an update: live, and not a create that rolled back. */
function updatable(stack: StackRecord | undefined): boolean {
  return (
    !!stack && !['DELETE_COMPLETE', 'ROLLBACK_COMPLETE', 'ROLLBACK_FAILED', 'CREATE_FAILED'].includes(stack.status)
  );
}

/** CREATE or UPDATE: the instance's stack gets the set's template and parameters (created if it has none). */
export async function deployInstance(
  engine: Engine,
  set: StackSetRecord,
  instance: StackInstanceRecord,
  onStack: (stackId: string) => void = () => undefined,
): Promise<InstanceOutcome & { stackId?: string }> {
  const previous = await settledStack(engine, instance);
  const since = engine.deps.clock.now().toISOString();
  const caller = { account: instance.account, region: instance.region };
  const input = {
    Parameters: parametersOf(set, instance.doc.parameterOverrides),
    Capabilities: set.doc.capabilities,
    Tags: set.doc.tags,
  };
  const body = set.doc.templateBody;
  try {
    if (previous && previous.status !== 'DELETE_COMPLETE' && !updatable(previous)) {
      // a create that failed leaves a stack that takes no update: it goes, and the instance starts again
      deleteStack(engine, previous, {});
      await engine.stackWhenIdle(previous.stackId);
    }
    let stackId: string;
    if (previous && updatable(previous)) {
      try {
        stackId = updateStack(engine, previous, input, await expandForUpdate(engine, previous, input, body));
      } catch (err) {
        if (messageOf(err) === 'No updates are to be performed.') return { ok: true, stackId: previous.stackId };
        throw err;
      }
    } else {
      const name = `StackSet-${set.name}-${uuidv4()}`;
      const create = { ...input, StackName: name };
      stackId = createStack(engine, caller, create, await expandForCreate(engine, caller, create, body));
      onStack(stackId);
    }
    const stack = await engine.stackWhenIdle(stackId);
    const ok = stack?.status === 'CREATE_COMPLETE' || stack?.status === 'UPDATE_COMPLETE';
    return { ok, stackId, reason: ok || !stack ? undefined : failureOf(engine, stack, since) };
  } catch (err) {
    return { ok: false, reason: messageOf(err), stackId: previous?.stackId };
  }
}

/** DELETE: the instance's stack is deleted (or left, with RetainStacks) and the instance goes. */
export async function deleteInstance(
  engine: Engine,
  instance: StackInstanceRecord,
  retainStacks: boolean,
): Promise<InstanceOutcome> {
  const stack = await settledStack(engine, instance);
  const since = engine.deps.clock.now().toISOString();
  if (retainStacks || !stack || stack.status === 'DELETE_COMPLETE') return { ok: true };
  try {
    deleteStack(engine, stack, {});
    const after = await engine.stackWhenIdle(stack.stackId);
    if (!after || after.status === 'DELETE_COMPLETE') return { ok: true };
    return { ok: false, reason: failureOf(engine, after, since) };
  } catch (err) {
    return { ok: false, reason: messageOf(err) };
  }
}

/** DETECT_DRIFT: the instance's stack is checked by the drift engine. */
export async function detectInstanceDrift(
  engine: Engine,
  instance: StackInstanceRecord,
): Promise<InstanceOutcome & { drift?: string }> {
  const stack = instance.doc.stackId ? engine.deps.store.stacks.byId(instance.doc.stackId) : undefined;
  if (!stack || stack.status === 'DELETE_COMPLETE') return { ok: false, reason: 'Stack not found' };
  const detection = await runStackDrift(engine.deps, stack);
  if (detection.status !== 'DETECTION_COMPLETE') return { ok: false, reason: detection.reason };
  return { ok: true, drift: detection.stackDriftStatus };
}

export const targetKey = (t: Pick<Target, 'account' | 'region'>) => `${t.account}/${t.region}`;
