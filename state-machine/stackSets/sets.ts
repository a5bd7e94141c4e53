// The writes behind the stack set actions, once the handler has made AWS's checks: the set's record, its instances'
// rows, and the operations that carry each change out to the instances (runner.ts).
import { v4 as uuidv4 } from 'uuid';
import { invalidOperation, stackSetNotEmpty, setOperationInProgress } from '../../domain/errors.js';
import type { Caller, Engine } from '../engine.js';
import type {
  SetOperationRecord,
  SetParameter,
  StackRecord,
  StackSetDoc,
  StackSetRecord,
} from '../../storage/index.js';
import { busy, stackSetArn, startSetOperation, type StartSpec } from './runner.js';
import { setOperationStatus } from './statuses.js';
import type { Target } from './targets.js';
import type { Preferences } from './preferences.js';

export function createSet(engine: Engine, owner: Caller, name: string, doc: StackSetDoc): StackSetRecord {
  const set: StackSetRecord = {
    stackSetId: `${name}:${uuidv4()}`,
    account: owner.account,
    region: owner.region,
    name,
    status: 'ACTIVE',
    createdAt: engine.deps.clock.now().toISOString(),
    doc,
  };
  engine.deps.store.stackSets.putSet(set);
  return set;
}

export function deleteSet(engine: Engine, set: StackSetRecord): void {
  const { store } = engine.deps;
  if (busy(engine, set)) throw setOperationInProgress(stackSetArn(set));
  if (store.stackSets.instances(set.stackSetId).length) throw stackSetNotEmpty();
  store.stackSets.putSet({ ...set, status: 'DELETED' });
}

type OperationCall = Pick<StartSpec, 'operationId' | 'preferences' | 'deploymentTargets' | 'request'>;

/** A service-managed set remembers the units and regions it deployed to: automatic deployment follows them. */
function rememberUnits(set: StackSetRecord, targets: Target[]): void {
  for (const t of targets) {
    if (!t.ou) continue;
    let unit = set.doc.deployedUnits.find((u) => u.ou === t.ou);
    if (!unit) set.doc.deployedUnits.push((unit = { ou: t.ou, regions: [] }));
    if (!unit.regions.includes(t.region)) unit.regions.push(t.region);
  }
}

/** CreateStackInstances (and automatic deployment): new instances' rows, existing ones take the new overrides. */
export function createInstances(
  engine: Engine,
  set: StackSetRecord,
  targets: Target[],
  overrides: SetParameter[] | undefined,
  call: OperationCall & { queue?: boolean; units?: string[] },
): string {
  const { store } = engine.deps;
  return startSetOperation(engine, {
    ...call,
    set,
    action: 'CREATE',
    targets,
    begin: () => {
      for (const t of targets) {
        const existing = store.stackSets.instance(set.stackSetId, t.account, t.region);
        store.stackSets.putInstance({
          stackSetId: set.stackSetId,
          account: t.account,
          region: t.region,
          doc: existing
            ? { ...existing.doc, parameterOverrides: overrides ?? existing.doc.parameterOverrides }
            : {
                parameterOverrides: overrides ?? [],
                status: 'OUTDATED',
                detailedStatus: 'PENDING',
                driftStatus: 'NOT_CHECKED',
                ...(t.ou ? { organizationalUnitId: t.ou } : {}),
              },
        });
      }
      rememberUnits(set, targets);
      for (const ou of call.units ?? []) {
        if (!set.doc.deployedUnits.some((u) => u.ou === ou)) set.doc.deployedUnits.push({ ou, regions: [] });
      }
      for (const unit of set.doc.deployedUnits) {
        if (call.units?.includes(unit.ou)) {
          for (const r of new Set(targets.map((t) => t.region))) if (!unit.regions.includes(r)) unit.regions.push(r);
        }
      }
      store.stackSets.putSet(set);
    },
  });
}

/** UpdateStackInstances: the targeted instances take new overrides and are updated. */
export function updateInstances(
  engine: Engine,
  set: StackSetRecord,
  targets: Target[],
  overrides: SetParameter[] | undefined,
  call: OperationCall,
): string {
  const { store } = engine.deps;
  return startSetOperation(engine, {
    ...call,
    set,
    action: 'UPDATE',
    targets,
    begin: () => {
      if (overrides === undefined) return;
      for (const t of targets) {
        const instance = store.stackSets.instance(set.stackSetId, t.account, t.region)!;
        instance.doc.parameterOverrides = mergeOverrides(instance.doc.parameterOverrides, overrides);
        store.stackSets.putInstance(instance);
      }
    },
  });
}

/** Overrides as UpdateStackInstances takes them: UsePreviousValue keeps one, an omitted key goes back to the set's. */
function mergeOverrides(previous: SetParameter[], given: SetParameter[]): SetParameter[] {
  return given.map((p) =>
    p.UsePreviousValue
      ? (previous.find((q) => q.ParameterKey === p.ParameterKey) ?? { ParameterKey: p.ParameterKey })
      : { ParameterKey: p.ParameterKey, ParameterValue: p.ParameterValue },
  );
}

/** DeleteStackInstances: the units it names stop being followed by automatic deployment in those regions. */
export function deleteInstances(
  engine: Engine,
  set: StackSetRecord,
  targets: Target[],
  retainStacks: boolean,
  call: OperationCall & { queue?: boolean; units?: string[]; regions?: string[] },
): string {
  const { store } = engine.deps;
  return startSetOperation(engine, {
    ...call,
    set,
    action: 'DELETE',
    retainStacks,
    targets,
    begin: () => {
      if (!call.units?.length) return;
      for (const unit of set.doc.deployedUnits) {
        if (call.units.includes(unit.ou)) unit.regions = unit.regions.filter((r) => !call.regions?.includes(r));
      }
      set.doc.deployedUnits = set.doc.deployedUnits.filter((u) => u.regions.length);
      store.stackSets.putSet(set);
    },
  });
}

/**
 * UpdateStackSet: the set takes its new definition at once; when its template or parameters change, every
 * instance is OUTDATED until an operation updates it (only the targeted ones are updated by this one).
 */
export function updateSet(
  engine: Engine,
  set: StackSetRecord,
  doc: StackSetDoc,
  targets: Target[],
  call: OperationCall,
): string {
  const { store } = engine.deps;
  const changed =
    doc.templateBody !== set.doc.templateBody || JSON.stringify(doc.parameters) !== JSON.stringify(set.doc.parameters);
  return startSetOperation(engine, {
    ...call,
    set,
    action: 'UPDATE',
    targets,
    begin: () => {
      set.doc = doc;
      store.stackSets.putSet(set);
      if (!changed) return;
      for (const instance of store.stackSets.instances(set.stackSetId)) {
        instance.doc.status = 'OUTDATED';
        store.stackSets.putInstance(instance);
      }
    },
  });
}

/** DetectStackSetDrift: every instance's stack checked by the drift engine. */
export function detectSetDrift(engine: Engine, set: StackSetRecord, call: OperationCall): string {
  const targets = engine.deps.store.stackSets
    .instances(set.stackSetId)
    .map((i) => ({ account: i.account, region: i.region, ou: i.doc.organizationalUnitId }));
  return startSetOperation(engine, { ...call, set, action: 'DETECT_DRIFT', targets });
}

/** ImportStacksToStackSet: each stack becomes an instance as it stands, then takes the set's template. */
export function importStacks(
  engine: Engine,
  set: StackSetRecord,
  stacks: { stack: StackRecord; ou?: string }[],
  call: OperationCall,
): string {
  const { store } = engine.deps;
  const targets = stacks.map(({ stack, ou }) => ({ account: stack.account, region: stack.region, ou }));
  return startSetOperation(engine, {
    ...call,
    set,
    action: 'CREATE',
    targets,
    begin: () => {
      for (const { stack, ou } of stacks) {
        store.stackSets.putInstance({
          stackSetId: set.stackSetId,
          account: stack.account,
          region: stack.region,
          doc: {
            stackId: stack.stackId,
            parameterOverrides: [],
            status: 'OUTDATED',
            detailedStatus: 'PENDING',
            driftStatus: 'NOT_CHECKED',
            ...(ou ? { organizationalUnitId: ou } : {}),
          },
        });
      }
      rememberUnits(set, targets);
      store.stackSets.putSet(set);
    },
  });
}

/** StopStackSetOperation: a queued operation stops at once, a running one once its accounts in flight end. */
export function stopOperation(engine: Engine, op: SetOperationRecord): void {
  const { store, clock } = engine.deps;
  if (op.doc.status === 'QUEUED') {
    setOperationStatus(store, op, 'STOPPED', clock.now().toISOString());
    return;
  }
  if (!setOperationStatus(store, op, 'STOPPING')) {
    throw invalidOperation(`Operation ${op.operationId} is not in a state that can be stopped`);
  }
}

export type { Preferences };
