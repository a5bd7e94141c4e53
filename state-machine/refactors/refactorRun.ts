// A refactor's rows of the run skeleton (operations/run.ts), beside its OUTCOMES rows REFACTOR and
// REFACTOR_NEW_STACK. The plan of one stack: each resource that leaves it (DELETE_SKIPPED: its row goes, the
// resource stays), then each that arrives (IMPORT_IN_PROGRESS → IMPORT_COMPLETE under its new logical id: the same
// physical resource, properties and attributes, the account's resource changing owner and nothing else). Each step
// is idempotent, so a restart that finds the run cut short runs it again to its end. Nothing a step does can fail
// but a bug: then the stack is kept failed.
import type { ResourceRecord, RefactorMove, StackRefactorRecord } from '../../storage/index.js';
import type { Runtime } from '../runtime.js';
import { reachOutcome, type OutcomeKind } from '../outcomes.js';
import { RESOURCE_PHASES } from '../statuses.js';
import { setResourceStatus } from '../transitions.js';
import { applyPolicies } from '../resourceActions.js';
import { evaluateOutputs } from '../operations/outputs.js';
import { runOperation, type RunRow } from '../operations/run.js';
import { ownedBy, rowOf as worldRowOf } from '../../resources/worldRows.js';

const OUT = 'out:';
const IN = 'in:';
const list = (ids: Iterable<string>) => `[${[...ids].map((id) => id.slice(id.indexOf(':') + 1)).join(', ')}]`;

function refactorOf(rt: Runtime): StackRefactorRecord | undefined {
  const id = rt.stack.doc.refactorId;
  return id === undefined ? undefined : rt.store.refactors.byId(id);
}

const movesOf = (rt: Runtime) => refactorOf(rt)?.moves ?? [];

function rowOf(kind: Extract<OutcomeKind, 'REFACTOR' | 'REFACTOR_NEW_STACK'>): RunRow {
  const row: RunRow = {
    kind,
    action: 'Import',
    plan: (rt) => {
      const moves = movesOf(rt);
      const out = moves.filter((m) => m.from.stackId === rt.stack.stackId).map((m) => OUT + m.from.logicalId);
      const arriving = moves.filter((m) => m.to.stackId === rt.stack.stackId).map((m) => IN + m.to.logicalId);
      return {
        ids: [...out, ...arriving],
        act: async (step) => (step.startsWith(OUT) ? leave(rt, step.slice(OUT.length)) : arrive(rt, step, moves)),
        failed: (ids) => `The following resource(s) failed to move: ${list(ids)}. `,
        oneByOne: true,
      };
    },
    outputs: (rt) => {
      const r = refactorOf(rt);
      for (const name of r?.stacks.find((s) => s.stackId === rt.stack.stackId)?.imports ?? []) rt.imports.add(name);
      // the refactor checked its export names across all its stacks when it was created: an export may move
      return evaluateOutputs(rt, false);
    },
    complete: async (rt) => {
      rt.stack.doc.refactorId = undefined;
      reachOutcome(rt, kind, 'complete');
    },
    fail: async (rt, reason) => {
      rt.stack.doc.refactorId = undefined;
      reachOutcome(rt, kind, 'failedKept', reason);
    },
    rollBack: (rt) => row.fail(rt, ''),
    interrupted: (rt) => runOperation(rt, row),
  };
  return row;
}

export const REFACTOR_RUN = rowOf('REFACTOR');
export const REFACTOR_NEW_STACK_RUN = rowOf('REFACTOR_NEW_STACK');

/** The refactor's row for a stack a restart found running one, if it is. */
export function refactorRowOf(rt: Runtime): RunRow | undefined {
  if (!refactorOf(rt)) return undefined;
  return rt.stack.status === 'CREATE_IN_PROGRESS' ? REFACTOR_NEW_STACK_RUN : REFACTOR_RUN;
}

/** The resource leaves the stack: DELETE_SKIPPED, its row goes, the account keeps it. */
function leave(rt: Runtime, logicalId: string): boolean {
  const r = rt.resources.get(logicalId);
  // already gone (a restart runs the plan again), or a resource of the same id has already arrived
  if (!r || r.status === 'IMPORT_COMPLETE' || r.status === 'IMPORT_IN_PROGRESS' || r.status === 'IMPORT_FAILED')
    return true;
  setResourceStatus(rt, r, 'Skip', 'complete', { removeRow: true });
  rt.resources.delete(logicalId);
  return true;
}

/** IMPORT_IN_PROGRESS → IMPORT_COMPLETE under its new logical id: the same physical resource, a new owner. */
function arrive(rt: Runtime, step: string, moves: RefactorMove[]): boolean {
  const logicalId = step.slice(IN.length);
  const move = moves.find((m) => m.to.stackId === rt.stack.stackId && m.to.logicalId === logicalId);
  const source = move?.resource;
  if (!source) return false;
  const done = rt.resources.get(logicalId);
  if (done?.status === 'IMPORT_COMPLETE' && done.physicalId === source.physicalId) return true;
  const def = rt.template.model.resources.get(logicalId)!;
  const r: ResourceRecord = {
    ...source,
    stackId: rt.stack.stackId,
    logicalId,
    status: done?.status ?? RESOURCE_PHASES.Import.start,
    statusReason: undefined,
    updatedAt: rt.clock.now().toISOString(),
    ord: def.ord,
    doc: { ...source.doc, before: undefined, replaced: undefined, newCopy: undefined },
  };
  applyPolicies(rt, r);
  rt.resources.set(logicalId, r);
  setResourceStatus(rt, r, 'Import', 'start');
  const found = worldRowOf(rt.world, ownedBy(source));
  setResourceStatus(rt, r, 'Import', 'complete', {
    alongside: () => found && rt.world.put({ ...found, stackId: rt.stack.stackId, logicalId }),
  });
  return true;
}
