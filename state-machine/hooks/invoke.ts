// One invocation point's hooks, run one after another: each invocation is recorded (GetHookResult, ListHookResults)
// from HOOK_IN_PROGRESS to its verdict, and reported through `emit` (the stack events of a resource or a stack).
// A failed hook in FAIL mode stops what it guards; in WARN mode it only reports.
// https://docs.aws.amazon.com/cloudformation-cli/latest/hooks-userguide/hooks-concepts.html
import { v4 as uuidv4 } from 'uuid';
import type { EventDetail, HookResultRecord, HookResultStatus, ReadonlyStore, Store } from '../../storage/index.js';
import type { Clock } from '../transitions.js';
import { applicableHooks, type ApplicableHook, type ConfiguredHook, type HookTarget } from './configuration.js';
import type { HookVerdicts } from './verdicts.js';

/** What the engine needs to run hooks: the verdicts on demand, and the hooks an account and region configured. */
export interface HookDoor {
  verdicts: HookVerdicts;
  configured(store: ReadonlyStore, account: string, region: string): ConfiguredHook[];
}

/** One invocation point: what it is about to act on, where, and what speaks for its verdict. */
export interface InvocationPoint extends HookTarget {
  account: string;
  region: string;
  /** AWS's TargetId: the resource's logical id, the stack's name, the change set's ARN. */
  targetId: string;
  /** The stack's ARN (HookExecutionTarget). */
  executionTarget: string;
  logicalId?: string;
  metadata?: unknown;
}

export const HOOK_REASONS = {
  inProgress: 'Invoking hook',
  succeeded: (message: string) => `Hook succeeded with message: ${message}`,
  failed: (message: string) => `Hook failed with message: ${message}`,
  /** A resource's or stack's reason when hooks in FAIL mode failed. */
  hooksFailed: (typeNames: readonly string[]) => `The following hook(s) failed: [${typeNames.join(', ')}]`,
  /** A resource's create once its hooks let it go on (two spaces, as AWS writes it). */
  createInitiated: 'Hook invocations complete.  Resource creation initiated',
};

const DEFAULT_MESSAGES: Record<Exclude<HookResultStatus, 'HOOK_IN_PROGRESS'>, string> = {
  HOOK_COMPLETE_SUCCEEDED: 'Successful validation',
  HOOK_COMPLETE_FAILED: 'Failed validation',
  HOOK_FAILED: 'Hook handler failed',
};

const HANDLER_NAMES = { CREATE: 'PreCreate', UPDATE: 'PreUpdate', DELETE: 'PreDelete' } as const;

export interface InvocationOutcome {
  /** Whether any hook ran. */
  invoked: boolean;
  /** The FAIL-mode hooks that did not succeed: what the guarded action fails with. */
  failedTypeNames: string[];
}

/** The hooks configured for this invocation point. */
export function hooksAt(door: HookDoor | undefined, store: ReadonlyStore, point: InvocationPoint): ApplicableHook[] {
  if (!door) return [];
  return applicableHooks(door.configured(store, point.account, point.region), point);
}

/** Runs the hooks in order, each recorded and emitted at its start and its end. */
export function invokeHooks(
  ctx: { store: Store; clock: Clock },
  door: HookDoor,
  hooks: readonly ApplicableHook[],
  point: InvocationPoint,
  emit: (detail: EventDetail) => void,
): InvocationOutcome {
  const failedTypeNames: string[] = [];
  for (const { hook, failureMode } of hooks) {
    const record: HookResultRecord = {
      id: uuidv4(),
      account: point.account,
      region: point.region,
      typeName: hook.typeName,
      typeArn: hook.typeArn,
      typeVersionId: hook.typeVersionId,
      typeConfigurationVersionId: hook.configurationVersionId,
      failureMode,
      status: 'HOOK_IN_PROGRESS',
      statusReason: HOOK_REASONS.inProgress,
      invokedAt: ctx.clock.now().toISOString(),
      targetType: point.targetType,
      targetId: point.targetId,
      executionTarget: point.executionTarget,
      targetTypeName: point.resourceType ?? point.targetType,
      logicalId: point.logicalId,
      action: point.action,
    };
    ctx.store.hookResults.save(record);
    emit(detailOf(record));
    const verdict = door.verdicts.decide({ ...point, typeName: hook.typeName });
    const message = verdict.message ?? defaultMessage(verdict.status, point);
    record.status = verdict.status;
    record.statusReason =
      verdict.status === 'HOOK_COMPLETE_SUCCEEDED' ? HOOK_REASONS.succeeded(message) : HOOK_REASONS.failed(message);
    ctx.store.hookResults.save(record);
    emit(detailOf(record));
    if (verdict.status !== 'HOOK_COMPLETE_SUCCEEDED' && failureMode === 'FAIL') failedTypeNames.push(hook.typeName);
  }
  return { invoked: hooks.length > 0, failedTypeNames };
}

function defaultMessage(status: Exclude<HookResultStatus, 'HOOK_IN_PROGRESS'>, point: InvocationPoint): string {
  if (status === 'HOOK_COMPLETE_SUCCEEDED' && point.resourceType)
    return `Successfully invoked ${HANDLER_NAMES[point.action]}HookHandler for target ${point.resourceType}`;
  return DEFAULT_MESSAGES[status];
}

/** The Hook* fields of an invocation's event; a failed one is a HOOK_INVOCATION_ERROR in DescribeEvents. */
function detailOf(r: HookResultRecord): EventDetail {
  return {
    ...(r.status === 'HOOK_COMPLETE_FAILED' || r.status === 'HOOK_FAILED'
      ? { EventType: 'HOOK_INVOCATION_ERROR' as const }
      : {}),
    HookType: r.typeName,
    HookStatus: r.status,
    HookStatusReason: r.statusReason,
    HookInvocationPoint: 'PRE_PROVISION',
    HookFailureMode: r.failureMode,
    HookInvocationId: r.id,
  };
}
