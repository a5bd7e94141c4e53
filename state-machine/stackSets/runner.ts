// The run of a stack set operation, in the background as AWS's: region by region (or all at once with PARALLEL),
// a bounded number of accounts at a time, each account's result recorded; once a region's failures pass its
// tolerance, what is left there and in later regions is cancelled. One operation runs per set at a time; the next
// waits (QUEUED) when the set's managed execution or automatic deployment asks for it, else it is refused.
import { v4 as uuidv4 } from 'uuid';
import { setOperationIdExists, setOperationInProgress } from '../../domain/errors.js';
import type { Engine } from '../engine.js';
import type {
  OperationResultRecord,
  SetOperationDoc,
  SetOperationRecord,
  StackInstanceRecord,
  StackSetRecord,
  Store,
} from '../../storage/index.js';
import { partitionOf } from '../../resources/regions.js';
import { concurrencyOf, regionOrder, toleranceOf, type Preferences } from './preferences.js';
import { deleteInstance, deployInstance, detectInstanceDrift } from './instanceActions.js';
import { isFinal, setOperationStatus } from './statuses.js';
import { driftDetailsOf } from './drift.js';
import type { Target } from './targets.js';

export const CANCELLED_BY_TOLERANCE = 'Cancelled since failure tolerance has exceeded';
export const CANCELLED_BY_STOP = 'Cancelled since the operation was stopped';

export interface StartSpec {
  set: StackSetRecord;
  operationId?: string;
  action: SetOperationDoc['action'];
  targets: Target[];
  preferences: Preferences;
  retainStacks?: boolean;
  deploymentTargets?: SetOperationDoc['deploymentTargets'];
  /** What identifies the call, for OperationId idempotency. */
  request: unknown;
  /** Automatic deployment's operations wait for the running one instead of being refused. */
  queue?: boolean;
  /** The call's own writes, made once every check has passed and before the operation is recorded. */
  begin?(operationId: string): void;
}

/** Per engine: the tail of each set's chain of operations, and how many of them have not ended. */
interface Chain {
  tail: Promise<void>;
  open: number;
}
const CHAINS = new WeakMap<Engine, Map<string, Chain>>();
/** Engines that are stopping: their operations start no more accounts and stay unfinished, for a restart. */
const CLOSING = new WeakSet<Engine>();

function chainsOf(engine: Engine) {
  let chains = CHAINS.get(engine);
  if (!chains) CHAINS.set(engine, (chains = new Map<string, Chain>()));
  return chains;
}

export const stackSetArn = (set: StackSetRecord) =>
  `arn:${partitionOf(set.region)}:cloudformation:${set.region}:${set.account}:stackset/${set.stackSetId}`;

/** Whether an operation of the set has not ended yet. */
export function busy(engine: Engine, set: StackSetRecord): boolean {
  return (chainsOf(engine).get(set.stackSetId)?.open ?? 0) > 0;
}

/** Resolves when every stack set operation of the engine has ended (tests). */
export async function setOperationsIdle(engine: Engine): Promise<void> {
  for (const chain of chainsOf(engine).values()) await chain.tail;
}

/**
 * A graceful stop: the accounts in flight end, no other starts, and the operations stay RUNNING with their PENDING
 * results, which the next start resumes (resumeSetOperations).
 */
export async function stopSetOperations(engine: Engine): Promise<void> {
  CLOSING.add(engine);
  await setOperationsIdle(engine);
}

/** On start: the operations a stop or a crash left unfinished run on from their results not yet ended. */
export function resumeSetOperations(engine: Engine): void {
  for (const op of engine.deps.store.stackSets.unfinished()) enqueue(engine, op.stackSetId, op.operationId);
}

/** Records the operation (RUNNING, or QUEUED behind another) and its PENDING results, and runs it in the background. */
export function startSetOperation(engine: Engine, spec: StartSpec): string {
  const { store, clock } = engine.deps;
  const { set } = spec;
  const operationId = spec.operationId ?? uuidv4();
  const request = JSON.stringify(spec.request);
  const existing = store.stackSets.operation(set.stackSetId, operationId);
  if (existing) {
    if (existing.doc.request === request) return operationId;
    throw setOperationIdExists(operationId);
  }
  const waiting = busy(engine, set);
  if (waiting && !spec.queue && !set.doc.managedExecution.Active) throw setOperationInProgress(stackSetArn(set));
  spec.begin?.(operationId);
  const op: SetOperationRecord = {
    stackSetId: set.stackSetId,
    operationId,
    createdAt: clock.now().toISOString(),
    doc: {
      action: spec.action,
      status: waiting ? 'QUEUED' : 'RUNNING',
      preferences: spec.preferences as Record<string, unknown>,
      retainStacks: spec.action === 'DELETE' ? (spec.retainStacks ?? false) : undefined,
      administrationRoleARN: set.doc.administrationRoleARN,
      executionRoleName: set.doc.executionRoleName,
      deploymentTargets: spec.deploymentTargets,
      request,
    },
  };
  store.transaction(() => {
    store.stackSets.putOperation(op);
    for (const t of spec.targets) {
      store.stackSets.putResult({
        stackSetId: set.stackSetId,
        operationId,
        account: t.account,
        region: t.region,
        doc: { status: 'PENDING', ...(t.ou ? { organizationalUnitId: t.ou } : {}) },
      });
      if (spec.action !== 'DETECT_DRIFT') markPending(store, set, t, operationId);
    }
  });
  enqueue(engine, set.stackSetId, operationId);
  return operationId;
}

/** Runs the operation after the set's previous ones (also what a restart uses to finish an interrupted one). */
export function enqueue(engine: Engine, stackSetId: string, operationId: string): void {
  const chains = chainsOf(engine);
  const chain = chains.get(stackSetId) ?? { tail: Promise.resolve(), open: 0 };
  chain.open++;
  chain.tail = chain.tail
    .then(() => runOperation(engine, stackSetId, operationId))
    .catch((err: unknown) => engine.deps.log.error({ err, stackSetId, operationId }, 'stack set operation failed'))
    .finally(() => {
      chain.open--;
    });
  chains.set(stackSetId, chain);
}

function markPending(store: Store, set: StackSetRecord, t: Target, operationId: string): void {
  const instance = store.stackSets.instance(set.stackSetId, t.account, t.region);
  if (!instance) return;
  instance.doc.detailedStatus = 'PENDING';
  instance.doc.lastOperationId = operationId;
  if (instance.doc.status === 'CURRENT') instance.doc.status = 'OUTDATED';
  store.stackSets.putInstance(instance);
}

async function runOperation(engine: Engine, stackSetId: string, operationId: string): Promise<void> {
  const { store, clock } = engine.deps;
  const current = () => store.stackSets.operation(stackSetId, operationId)!;
  const op = current();
  const open = store.stackSets
    .results(stackSetId, operationId)
    .filter((r) => r.doc.status === 'PENDING' || r.doc.status === 'RUNNING');
  // stopped while it was queued
  if (isFinal(op.doc.status)) return cancel(store, open, CANCELLED_BY_STOP);
  if (CLOSING.has(engine)) return;
  if (op.doc.status === 'QUEUED') setOperationStatus(store, op, 'RUNNING');
  const prefs = op.doc.preferences as Preferences;
  const regions = regionOrder(prefs, [...new Set(open.map((r) => r.region))]);
  const stopping = () => current().doc.status === 'STOPPING';
  const state = { failedRegion: false };
  const runRegion = async (region: string) => {
    const results = open.filter((r) => r.region === region);
    if (CLOSING.has(engine)) return;
    if (state.failedRegion || stopping())
      return cancel(store, results, state.failedRegion ? CANCELLED_BY_TOLERANCE : CANCELLED_BY_STOP);
    if (!(await runRegionResults(engine, op, results, prefs, stopping))) state.failedRegion = true;
  };
  if (prefs.RegionConcurrencyType === 'PARALLEL') await Promise.all(regions.map(runRegion));
  else for (const region of regions) await runRegion(region);
  if (CLOSING.has(engine)) return;
  const end = current();
  const results = store.stackSets.results(stackSetId, operationId);
  end.doc.failedCount = results.filter((r) => r.doc.status === 'FAILED').length;
  if (end.doc.action === 'DETECT_DRIFT')
    recordSetDrift(engine, end, state.failedRegion || end.doc.status === 'STOPPING');
  const now = clock.now().toISOString();
  if (end.doc.status === 'STOPPING') setOperationStatus(store, end, 'STOPPED', now);
  else setOperationStatus(store, end, state.failedRegion ? 'FAILED' : 'SUCCEEDED', now);
}

/** One region's accounts, `concurrency` at a time; false when its failures passed its tolerance. */
async function runRegionResults(
  engine: Engine,
  op: SetOperationRecord,
  results: OperationResultRecord[],
  prefs: Preferences,
  stopping: () => boolean,
): Promise<boolean> {
  const tolerance = toleranceOf(prefs, results.length);
  const queue = [...results];
  let failures = 0;
  const worker = async () => {
    while (queue.length && failures <= tolerance && !stopping() && !CLOSING.has(engine)) {
      if (!(await runOne(engine, op, queue.shift()!))) failures++;
    }
  };
  const workers = Math.min(concurrencyOf(prefs, results.length), results.length);
  await Promise.all(Array.from({ length: workers }, worker));
  if (CLOSING.has(engine)) return true;
  cancel(engine.deps.store, queue, failures > tolerance ? CANCELLED_BY_TOLERANCE : CANCELLED_BY_STOP);
  return failures <= tolerance;
}

function cancel(store: Store, results: OperationResultRecord[], reason: string): void {
  for (const r of results) {
    r.doc = { ...r.doc, status: 'CANCELLED', statusReason: reason };
    store.stackSets.putResult(r);
    const instance = store.stackSets.instance(r.stackSetId, r.account, r.region);
    if (instance && instance.doc.lastOperationId === r.operationId) {
      Object.assign(instance.doc, { status: 'OUTDATED', detailedStatus: 'CANCELLED', statusReason: reason });
      store.stackSets.putInstance(instance);
    }
  }
}

/** The account gate CloudFormation calls before each account: without the function in the account, SKIPPED. */
const accountGate = (r: OperationResultRecord) => ({
  Status: 'SKIPPED',
  StatusReason: `Function not found: arn:${partitionOf(r.region)}:lambda:${r.region}:${r.account}:function:AWSCloudFormationStackSetAccountGate`,
});

/** One account and region: its result RUNNING, then SUCCEEDED or FAILED with the reason; true when it succeeded. */
async function runOne(engine: Engine, op: SetOperationRecord, result: OperationResultRecord): Promise<boolean> {
  const { store } = engine.deps;
  const set = store.stackSets.set(op.stackSetId)!;
  const instance = store.stackSets.instance(op.stackSetId, result.account, result.region);
  result.doc = { ...result.doc, status: 'RUNNING', accountGate: accountGate(result) };
  store.stackSets.putResult(result);
  if (instance && op.doc.action !== 'DETECT_DRIFT') {
    instance.doc.detailedStatus = 'RUNNING';
    store.stackSets.putInstance(instance);
  }
  const outcome = instance ? await actOn(engine, set, op, instance) : { ok: op.doc.action === 'DELETE' };
  result.doc = {
    ...result.doc,
    status: outcome.ok ? 'SUCCEEDED' : 'FAILED',
    ...(outcome.ok ? {} : { statusReason: outcome.reason ?? 'Stack instance not found' }),
  };
  store.stackSets.putResult(result);
  return outcome.ok;
}

async function actOn(
  engine: Engine,
  set: StackSetRecord,
  op: SetOperationRecord,
  instance: StackInstanceRecord,
): Promise<{ ok: boolean; reason?: string }> {
  const { store, clock } = engine.deps;
  const save = (doc: Partial<StackInstanceRecord['doc']>) => {
    const now = store.stackSets.instance(instance.stackSetId, instance.account, instance.region);
    if (!now) return;
    Object.assign(now.doc, doc);
    store.stackSets.putInstance(now);
  };
  if (op.doc.action === 'DETECT_DRIFT') {
    const outcome = await detectInstanceDrift(engine, instance);
    save({ driftStatus: outcome.drift ?? 'UNKNOWN', lastDriftCheck: clock.now().toISOString() });
    return outcome;
  }
  if (op.doc.action === 'DELETE') {
    const outcome = await deleteInstance(engine, instance, op.doc.retainStacks ?? false);
    if (outcome.ok) store.stackSets.removeInstance(instance.stackSetId, instance.account, instance.region);
    else save({ status: 'INOPERABLE', detailedStatus: 'INOPERABLE', statusReason: outcome.reason });
    return outcome;
  }
  // the new stack's id is kept at once: a restart mid-create resumes on that stack rather than making another
  const outcome = await deployInstance(engine, set, instance, (stackId) => save({ stackId }));
  save({
    stackId: outcome.stackId,
    status: outcome.ok ? 'CURRENT' : 'OUTDATED',
    detailedStatus: outcome.ok ? 'SUCCEEDED' : 'FAILED',
    statusReason: outcome.reason,
  });
  return outcome;
}

function recordSetDrift(engine: Engine, op: SetOperationRecord, partial: boolean): void {
  const { store, clock } = engine.deps;
  const set = store.stackSets.set(op.stackSetId);
  if (!set) return;
  const details = driftDetailsOf(store.stackSets.instances(set.stackSetId), clock.now().toISOString(), partial);
  op.doc.drift = details;
  set.doc.drift = details;
  store.stackSets.putSet(set);
}
