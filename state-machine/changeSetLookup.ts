// Finding a change set by name or ARN as AWS does (a change set a restart left pending settles when read), and
// DeleteChangeSet, which takes the nested change sets made with it.
import type { ChangeSetRecord } from '../storage/index.js';
import { changeSetNotFound, stackNotFound, validationError } from '../domain/errors.js';
import { checkDeletable } from './statuses.js';
import type { Engine, Caller } from './engine.js';
import { reachPlannedOutcome, stackFor } from './changeSets.js';
import { nestedChangeSetsOf } from './nestedChangeSets.js';
import { byLiveName } from './changeSetStatus.js';

const STALE_AFTER_MS = 5_000;

/** A change set a restart left pending (its reachPlannedOutcomeLater step never ran) reaches it when next read. */
export function endStaleCreation(engine: Engine, cs: ChangeSetRecord): ChangeSetRecord {
  const age = engine.deps.clock.now().getTime() - Date.parse(cs.createdAt);
  if (age < STALE_AFTER_MS || (cs.status !== 'CREATE_PENDING' && cs.status !== 'CREATE_IN_PROGRESS')) return cs;
  return reachPlannedOutcome(engine.deps.store, cs);
}

export function findChangeSet(engine: Engine, caller: Caller, name: string, stackName?: string): ChangeSetRecord {
  return endStaleCreation(engine, lookUp(engine, caller, name, stackName));
}

function lookUp(engine: Engine, caller: Caller, name: string, stackName?: string): ChangeSetRecord {
  const { store } = engine.deps;
  if (name.startsWith('arn:')) {
    const cs = store.changeSets.byId(name);
    if (!cs || cs.deleted || cs.account !== caller.account || cs.region !== caller.region) {
      throw changeSetNotFound(name);
    }
    return cs;
  }
  if (stackName === undefined)
    throw validationError('StackName must be specified if ChangeSetName is not specified as an ARN.');
  const stack = stackFor(store, caller, stackName);
  if (!stack || stack.account !== caller.account || stack.region !== caller.region) throw stackNotFound(stackName);
  const cs = byLiveName(store, stack.stackId, name);
  if (!cs) throw changeSetNotFound(name);
  return cs;
}

export function deleteChangeSet(engine: Engine, cs: ChangeSetRecord): void {
  checkDeletable(cs);
  // The REVIEW_IN_PROGRESS stack of a deleted CREATE change set stays; DeleteStack removes it.
  for (const one of [cs, ...nestedChangeSetsOf(engine, cs)])
    engine.deps.store.changeSets.save({ ...one, deleted: true });
}
