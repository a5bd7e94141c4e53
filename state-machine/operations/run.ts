// The one run skeleton of the operations that apply a template — create, update, import, and any kind that plugs
// in as a RunRow: check → plan (each resource's action, in dependency order) → on failure roll back → publish
// (outputs and exports) → complete. A restart resumes an interrupted run through the same row (recovery.ts).
import type { StackOutput, StackRecord } from '../../storage/index.js';
import type { ResourceAction } from '../statuses.js';
import type { OutcomeKind } from '../outcomes.js';
import { runPlan, type PlanRun } from '../scheduler.js';
import { guarded } from '../guard.js';
import { resumedStep } from '../resumeWaits.js';
import type { Runtime } from '../runtime.js';
import { publishOutputs } from './outputs.js';
import { runStackHooks } from '../hooks/stackHooks.js';

/** What one run acts on: each resource's action, and the failure's reason naming those that failed. */
export interface RunPlan {
  /** The logical ids to act on, in plan order. */
  ids: string[];
  act(id: string, signal: AbortSignal): Promise<boolean>;
  /** AWS's reason when some actions failed (`The following resource(s) failed to create: [X]. `). */
  failed(ids: Set<string>): string;
  /**
   * One at a time in plan order, every one tried whatever failed before, and deaf to the run's stop (an import);
   * otherwise in dependency order, in parallel, the first failure (or a stop) ending the plan.
   */
  oneByOne?: boolean;
}

/** One operation kind's run: a row of the operation table, beside its OUTCOMES row (outcomes.ts). */
export interface RunRow {
  /** Its row of OUTCOMES: where each outcome leads. */
  kind: OutcomeKind;
  /** The resource action a restart cancels when it finds one in flight (recovery.ts). */
  action: Extract<ResourceAction, 'Create' | 'Update' | 'Import'>;
  /** Checks before the plan; a reason (without its final period) fails the run before anything is touched. */
  check?(rt: Runtime): string | undefined;
  plan(rt: Runtime): RunPlan;
  /**
   * The run was stopped from outside (`rt.stopReason`): the failure's reason, or the promise of what the run does
   * instead (a create that DeleteStack stopped deletes); undefined carries on as if nothing stopped it.
   */
  stopped?(rt: Runtime): string | Promise<void> | undefined;
  /** The outputs to publish; a throw fails the run with the error's message. */
  outputs(rt: Runtime): StackOutput[];
  /** The plan succeeded and its outputs are published: the row's `complete` (after a cleanup, for an update). */
  complete(rt: Runtime): Promise<void>;
  /** The run failed with `reason`: kept failed when rollback is disabled, else rolled back (`rollBack`). */
  fail(rt: Runtime, reason: string): Promise<void>;
  /** From the row's `rollbackInProgress` to `rollbackComplete` or `rollbackFailed` (what a restart resumes too). */
  rollBack(rt: Runtime): Promise<void>;
  /** A restart found the run cut short, these resources cancelled mid-action: where AWS takes the stack then. */
  interrupted(rt: Runtime, cancelled: string[]): Promise<void>;
}

/** Runs one operation of `row`'s kind from its check to its last outcome. */
export async function runOperation(rt: Runtime, row: RunRow): Promise<void> {
  const refusal = row.check?.(rt) ?? stackHooks(rt, row);
  if (refusal) return row.fail(rt, `${refusal}. `);
  const plan = row.plan(rt);
  const outcome = await runPlan(planRun(rt, plan));
  if (rt.stopReason && row.stopped) {
    const stopped = row.stopped(rt);
    if (typeof stopped === 'string') return row.fail(rt, stopped);
    if (stopped) return stopped;
  }
  if (outcome.failed.size) return row.fail(rt, plan.failed(outcome.failed));
  let outputs;
  try {
    outputs = row.outputs(rt);
  } catch (err) {
    return row.fail(rt, `${(err as Error).message}. `);
  }
  publishOutputs(rt, outputs);
  await row.complete(rt);
}

/** A create's or update's stack hooks (an import invokes none): the reason the run fails with, if one failed. */
function stackHooks(rt: Runtime, row: RunRow): string | undefined {
  if (row.kind !== 'CREATE' && row.kind !== 'UPDATE') return undefined;
  return runStackHooks(rt, row.kind);
}

/** Each action guarded (a throw fails its resource), a resumed wait taken up where a restart left it. */
function planRun(rt: Runtime, plan: RunPlan): PlanRun {
  const { graph } = rt.template;
  const run = (id: string, signal: AbortSignal) =>
    guarded(
      rt,
      () => rt.resources.get(id),
      () => resumedStep(rt, id, signal) ?? plan.act(id, signal),
    );
  if (plan.oneByOne) return { order: plan.ids, waitsOn: () => [], run, stopOnFailure: false, concurrency: 1 };
  return { order: plan.ids, waitsOn: (id) => graph.dependsOn.get(id)!, run, stopOnFailure: true, stop: rt.stop.signal };
}

/** What a rollback of an update or an import goes back to, kept on the stack before the operation changes it. */
export function keepPrevious(stack: StackRecord, operationId: string): void {
  stack.doc.previous = {
    templateId: stack.templateId,
    parameters: stack.doc.parameters,
    outputs: stack.doc.outputs,
    description: stack.doc.description,
    operationId,
  };
}
