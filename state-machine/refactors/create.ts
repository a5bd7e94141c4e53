// CreateStackRefactor: the refactor is recorded CREATE_IN_PROGRESS / UNAVAILABLE before the call returns, then
// validated in the background as AWS's is (validate.ts): CREATE_COMPLETE / AVAILABLE, or CREATE_FAILED with the
// reason. A restart validates again what it cut short (recoverRefactors).
import { v4 as uuidv4 } from 'uuid';
import type { RefactorLocation, StackRefactorRecord, Store } from '../../storage/index.js';
import type { Caller, Engine } from '../engine.js';
import { REAL_TIMERS } from '../../resources/timers.js';
import { newStackRecord } from '../stackRecords.js';
import { insertRefactor, setRefactorStatus } from '../refactorStatus.js';
import { validateRefactor } from './validate.js';
import { finishWhenStacksIdle } from './execute.js';

export interface RefactorRequest {
  description?: string;
  enableStackCreation: boolean;
  mappings: { Source: RefactorLocation; Destination: RefactorLocation }[];
  /** Each stack named, with its template after the refactor. */
  stacks: { name: string; body: string }[];
}

/** Records the refactor and starts its validation; returns its id. */
export function createRefactor(engine: Engine, caller: Caller, request: RefactorRequest): string {
  const { store, clock } = engine.deps;
  const now = clock.now();
  const r = insertRefactor(store, {
    id: uuidv4(),
    account: caller.account,
    region: caller.region,
    createdAt: now.toISOString(),
    description: request.description,
    enableStackCreation: request.enableStackCreation,
    mappings: request.mappings,
    moves: [],
    actions: [],
    stacks: request.stacks.map(({ name, body }) => {
      const stack = store.stacks.liveByName(caller.account, caller.region, name);
      return stack
        ? {
            stackName: name,
            stackId: stack.stackId,
            body,
            isNew: false,
            templateId: stack.templateId,
            updatedAt: stack.updatedAt,
            imports: [],
          }
        : {
            stackName: name,
            stackId: newStackRecord(caller, name, 'CREATE_IN_PROGRESS', now).stackId,
            body,
            isNew: true,
            imports: [],
          };
    }),
  });
  (engine.deps.timers ?? REAL_TIMERS).setTimeout(() => validateCreated(store, r.id), 0);
  return r.id;
}

/** CREATE_IN_PROGRESS → CREATE_COMPLETE / AVAILABLE, or CREATE_FAILED with AWS's reason. */
function validateCreated(store: Store, id: string): void {
  const r = store.refactors.byId(id);
  if (!r || r.status !== 'CREATE_IN_PROGRESS') return;
  let result;
  try {
    result = validateRefactor(store, r);
  } catch (err) {
    result = { failure: `Internal failure: ${(err as Error).message}` };
  }
  store.transaction(() => {
    if ('failure' in result) setRefactorStatus(store, r, { status: 'CREATE_FAILED', statusReason: result.failure });
    else setRefactorStatus(store, r, { status: 'CREATE_COMPLETE', executionStatus: 'AVAILABLE', plan: result.plan });
  });
}

/**
 * After a restart (once the interrupted stack operations have resumed): refactors whose validation had not ended are
 * validated now, and those whose execution had not ended finish once their stacks' runs do.
 */
export function recoverRefactors(engine: Engine): void {
  const { store } = engine.deps;
  for (const r of store.refactors.unfinished()) {
    if (r.status === 'CREATE_IN_PROGRESS') validateCreated(store, r.id);
    else void finishWhenStacksIdle(engine, r);
  }
}

export type { StackRefactorRecord };
