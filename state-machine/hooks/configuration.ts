// Which hooks an operation invokes, and how: a hook type's HookConfiguration (SetTypeConfiguration) read as AWS
// reads it — HookInvocationStatus (or TargetStacks), TargetOperations, FailureMode, TargetFilters and StackFilters —
// and the handlers' targetNames of its schema when no filter names the resource types.
// https://docs.aws.amazon.com/cloudformation-cli/latest/hooks-userguide/hook-configuration-schema.html
// https://docs.aws.amazon.com/cloudformation-cli/latest/hooks-userguide/hooks-target-filtering.html
import type { HookTargetType } from '../../storage/index.js';

export type HookAction = 'CREATE' | 'UPDATE' | 'DELETE';
export type HookFailureMode = 'FAIL' | 'WARN';

/** A hook type that has a configuration in the caller's account and region (the registry's view of it). */
export interface ConfiguredHook {
  typeName: string;
  typeArn: string;
  typeVersionId?: string;
  configurationVersionId?: string;
  /** The type configuration's HookConfiguration (TargetStacks, FailureMode, TargetFilters…). */
  configuration: unknown;
  /** The schema's handlers' targetNames, by handler: preCreate, preUpdate, preDelete. */
  handlers?: Readonly<Record<string, readonly string[]>>;
}

/** What one invocation point is about to act on. */
export interface HookTarget {
  targetType: HookTargetType;
  action: HookAction;
  stackName: string;
  /** The resource type of a RESOURCE or CLOUD_CONTROL target. */
  resourceType?: string;
}

/** A hook that applies to a target, with the mode its configuration gives it. */
export interface ApplicableHook {
  hook: ConfiguredHook;
  failureMode: HookFailureMode;
}

interface TargetFilters {
  Actions?: string[];
  InvocationPoints?: string[];
  TargetNames?: string[];
  Targets?: { TargetName?: string; Action?: string; InvocationPoint?: string }[];
}

interface NameFilter {
  Include?: string[];
  Exclude?: string[];
}

interface HookConfiguration {
  HookInvocationStatus?: string;
  TargetStacks?: string;
  TargetOperations?: string[];
  FailureMode?: string;
  TargetFilters?: TargetFilters;
  StackFilters?: { FilteringCriteria?: string; StackNames?: NameFilter };
}

const HANDLER_OF: Record<HookAction, string> = { CREATE: 'preCreate', UPDATE: 'preUpdate', DELETE: 'preDelete' };

/** The HookConfiguration object (what SetTypeConfiguration's CloudFormationConfiguration holds), when it is one. */
function hookConfiguration(configuration: unknown): HookConfiguration | undefined {
  return configuration && typeof configuration === 'object' ? configuration : undefined;
}

/** A target name with `*` (any run of characters) and `?` (one character), as AWS's wildcard target names. */
export function matchesTargetName(pattern: string, typeName: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i').test(typeName);
}

/** The resource types the hook looks at for this action: its filters' names, else its schema's handler's. */
function targetsResource(config: HookConfiguration, hook: ConfiguredHook, target: HookTarget): boolean {
  const type = target.resourceType ?? '';
  const filters = config.TargetFilters;
  if (filters?.Targets?.length) {
    return filters.Targets.some(
      (t) =>
        (!t.TargetName || matchesTargetName(t.TargetName, type)) &&
        (!t.Action || t.Action === target.action) &&
        (!t.InvocationPoint || t.InvocationPoint === 'PRE_PROVISION'),
    );
  }
  if (filters?.TargetNames?.length) return filters.TargetNames.some((n) => matchesTargetName(n, type));
  const handlers = hook.handlers;
  if (!handlers || !Object.keys(handlers).length) return true;
  const names = handlers[HANDLER_OF[target.action]] as readonly string[] | undefined;
  return Boolean(names?.some((n) => matchesTargetName(n, type)));
}

/** StackFilters: stack names included or excluded (FilteringCriteria ALL or ANY over the filters given). */
function stackFiltered(config: HookConfiguration, stackName: string): boolean {
  const names = config.StackFilters?.StackNames;
  if (!names) return true;
  if (names.Exclude?.includes(stackName)) return false;
  return !names.Include?.length || names.Include.includes(stackName);
}

/** Whether the configured hook runs at this target, and with which failure mode. */
export function applicable(hook: ConfiguredHook, target: HookTarget): ApplicableHook | undefined {
  const config = hookConfiguration(hook.configuration);
  if (!config) return undefined;
  const enabled = config.HookInvocationStatus
    ? config.HookInvocationStatus === 'ENABLED'
    : config.TargetStacks === 'ALL';
  if (!enabled) return undefined;
  const operations = config.TargetOperations?.length ? config.TargetOperations : ['RESOURCE'];
  if (!operations.includes(target.targetType)) return undefined;
  // a change set is only ever created: CREATE is the one action its hooks see
  const actions = config.TargetFilters?.Actions;
  if (actions?.length && !actions.includes(target.action)) return undefined;
  const points = config.TargetFilters?.InvocationPoints;
  if (points?.length && !points.includes('PRE_PROVISION')) return undefined;
  // a Cloud Control request belongs to no stack: the filters that name stacks have nothing to look at
  if (target.targetType !== 'CLOUD_CONTROL' && !stackFiltered(config, target.stackName)) return undefined;
  if (
    (target.targetType === 'RESOURCE' || target.targetType === 'CLOUD_CONTROL') &&
    !targetsResource(config, hook, target)
  )
    return undefined;
  return { hook, failureMode: config.FailureMode === 'FAIL' ? 'FAIL' : 'WARN' };
}

/** The hooks that run at a target, in type-name order (the order their events come in). */
export function applicableHooks(hooks: readonly ConfiguredHook[], target: HookTarget): ApplicableHook[] {
  return hooks
    .map((h) => applicable(h, target))
    .filter((h): h is ApplicableHook => h !== undefined)
    .sort((a, b) => a.hook.typeName.localeCompare(b.hook.typeName));
}
