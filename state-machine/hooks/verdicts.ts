// A hook's verdict on demand, as failure injection decides a resource's: from the `cfn-local` Metadata block (a
// resource's for its hooks, the template's for stack and change-set hooks) or from verdicts set over the control
// API (docs/hooks.md). Without one, a hook succeeds.
import { v4 as uuidv4 } from 'uuid';
import type { HookResultStatus, HookTargetType } from '../../storage/index.js';
import type { HookAction } from './configuration.js';

export type HookVerdictStatus = Exclude<HookResultStatus, 'HOOK_IN_PROGRESS'>;
export const HOOK_VERDICTS: readonly HookVerdictStatus[] = [
  'HOOK_COMPLETE_SUCCEEDED',
  'HOOK_COMPLETE_FAILED',
  'HOOK_FAILED',
];
export const HOOK_TARGET_TYPES: readonly HookTargetType[] = ['RESOURCE', 'STACK', 'CHANGE_SET', 'CLOUD_CONTROL'];
export const HOOK_ACTIONS: readonly HookAction[] = ['CREATE', 'UPDATE', 'DELETE'];

/** A verdict set over the control API: every member but `status` narrows which invocations it decides. */
export interface HookVerdictSpec {
  id: string;
  typeName?: string;
  targetType?: HookTargetType;
  action?: HookAction;
  stackName?: string;
  logicalId?: string;
  resourceType?: string;
  status: HookVerdictStatus;
  message?: string;
  /** Invocations it decides before it is used up; unset means every one. */
  times?: number;
}

/** One invocation about to be decided. */
export interface HookInvocationFacts {
  typeName: string;
  targetType: HookTargetType;
  action: HookAction;
  stackName: string;
  logicalId?: string;
  resourceType?: string;
  /** The `Metadata` that speaks for the target: the resource's, or the template's for a stack or change set. */
  metadata?: unknown;
}

export interface HookVerdict {
  status: HookVerdictStatus;
  message?: string;
}

interface MetadataVerdicts {
  HookFail?: string | string[];
  HookError?: string | string[];
  HookMessage?: string;
}

function metadataBlock(metadata: unknown): MetadataVerdicts | undefined {
  if (!metadata || typeof metadata !== 'object') return undefined;
  const block = (metadata as Record<string, unknown>)['cfn-local'];
  return block && typeof block === 'object' ? block : undefined;
}

const names = (value: string | string[] | undefined) => (value === undefined ? [] : ([] as string[]).concat(value));
const namesHook = (list: string[], typeName: string) => list.some((n) => n === '*' || n === typeName);

export class HookVerdicts {
  private readonly specs = new Map<string, HookVerdictSpec>();
  private readonly used = new Map<string, number>();

  add(spec: Omit<HookVerdictSpec, 'id'>): HookVerdictSpec {
    const verdict = { ...spec, id: uuidv4() };
    this.specs.set(verdict.id, verdict);
    return verdict;
  }

  list(): HookVerdictSpec[] {
    return [...this.specs.values()];
  }

  remove(id?: string): boolean {
    if (id === undefined) {
      this.specs.clear();
      this.used.clear();
      return true;
    }
    this.used.delete(id);
    return this.specs.delete(id);
  }

  /** The verdict of one invocation: the Metadata's first, then the first control-API verdict that matches. */
  decide(facts: HookInvocationFacts): HookVerdict {
    const block = metadataBlock(facts.metadata);
    if (block) {
      if (namesHook(names(block.HookError), facts.typeName))
        return { status: 'HOOK_FAILED', message: block.HookMessage };
      if (namesHook(names(block.HookFail), facts.typeName))
        return { status: 'HOOK_COMPLETE_FAILED', message: block.HookMessage };
    }
    for (const spec of this.specs.values()) {
      if (!matches(spec, facts)) continue;
      const used = (this.used.get(spec.id) ?? 0) + 1;
      this.used.set(spec.id, used);
      if (spec.times !== undefined && used >= spec.times) this.remove(spec.id);
      return { status: spec.status, message: spec.message };
    }
    return { status: 'HOOK_COMPLETE_SUCCEEDED' };
  }
}

function matches(spec: HookVerdictSpec, facts: HookInvocationFacts): boolean {
  return (
    (spec.typeName === undefined || spec.typeName === facts.typeName) &&
    (spec.targetType === undefined || spec.targetType === facts.targetType) &&
    (spec.action === undefined || spec.action === facts.action) &&
    (spec.stackName === undefined || spec.stackName === facts.stackName) &&
    (spec.logicalId === undefined || spec.logicalId === facts.logicalId) &&
    (spec.resourceType === undefined || spec.resourceType === facts.resourceType)
  );
}
