// The hooks that apply in one account and region: HOOK extensions (registered or activated) that are live and have
// a `default` type configuration. Hooks (the invocation points of stack operations and change sets) read them here.
import type { Caller } from '../engine.js';
import type { ReadonlyStore } from '../../storage/index.js';
import { defaultVersion, extensionArn } from './extensions.js';
import { DEFAULT_ALIAS } from './configure.js';

/** A hook configuration's HookConfiguration, as SetTypeConfiguration accepted it. */
export interface HookConfiguration {
  HookInvocationStatus?: 'ENABLED' | 'DISABLED';
  /** The older switch HookInvocationStatus replaces (one of the two is set). */
  TargetStacks?: 'ALL' | 'NONE';
  FailureMode: 'FAIL' | 'WARN';
  Properties?: Record<string, unknown>;
  TargetFilters?: Record<string, unknown>;
  StackFilters?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ConfiguredHook {
  typeName: string;
  typeArn: string;
  /** The default version's id (a hook result's TypeVersionId). */
  typeVersionId: string;
  configuration: HookConfiguration;
  /** The hook schema's handlers, invocation point (`preCreate`, `preUpdate`, `preDelete`…) → its targetNames. */
  handlers: Record<string, string[]>;
  /** The schema of the hook's default version, parsed. */
  schema: Record<string, unknown>;
}

/**
 * Used by hooks: every live HOOK extension of the account and region whose `default` configuration is set, with
 * that configuration's HookConfiguration parsed (TargetStacks, FailureMode, Properties, TargetFilters…). A hook
 * without a configuration is not invoked, as on AWS; one with TargetStacks NONE is returned (the caller decides).
 */
export function configuredHooks(store: Pick<ReadonlyStore, 'registry'>, scope: Caller): ConfiguredHook[] {
  const out: ConfiguredHook[] = [];
  for (const ext of store.registry.types(scope.account, scope.region)) {
    if (ext.category !== 'HOOK') continue;
    const version = defaultVersion(ext);
    if (!version) continue;
    const config = store.registry
      .configurations(scope.account, scope.region, 'HOOK', ext.typeName)
      .find((c) => c.alias === DEFAULT_ALIAS);
    if (!config) continue;
    const parsed = JSON.parse(config.configuration) as {
      CloudFormationConfiguration: { HookConfiguration: HookConfiguration };
    };
    const schema = JSON.parse(version.schema) as Record<string, unknown>;
    out.push({
      typeName: ext.typeName,
      typeArn: extensionArn(scope, ext),
      typeVersionId: version.versionId,
      configuration: parsed.CloudFormationConfiguration.HookConfiguration,
      handlers: handlersOf(schema),
      schema,
    });
  }
  return out;
}

function handlersOf(schema: Record<string, unknown>): Record<string, string[]> {
  const handlers = schema.handlers;
  if (typeof handlers !== 'object' || handlers === null) return {};
  return Object.fromEntries(
    Object.entries(handlers as Record<string, { targetNames?: unknown } | null>).map(([point, h]) => [
      point,
      Array.isArray(h?.targetNames) ? h.targetNames.filter((t): t is string => typeof t === 'string') : [],
    ]),
  );
}
