// SetTypeConfiguration: an extension's configuration in this account and region, under an alias (`default` unless
// one is given). A hook's configuration is checked against the hook configuration schema's required members and
// value sets (HookInvocationStatus ENABLED|DISABLED, or TargetStacks ALL|NONE which it replaces and AWS still takes;
// FailureMode FAIL|WARN; TargetOperations), as the registry validates it.
// https://docs.aws.amazon.com/cloudformation-cli/latest/hooks-userguide/hook-configuration-schema.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_SetTypeConfiguration.html
import type { Caller, Engine } from '../engine.js';
import type { ExtensionRecord } from '../../storage/index.js';
import { registryError, validationError } from '../../domain/errors.js';
import { configurationArn } from './arns.js';
import { findExtension } from './extensions.js';
import { isObject } from '../../domain/values.js';

export const DEFAULT_ALIAS = 'default';

export interface ConfigureRequest {
  TypeArn?: string;
  Type?: string;
  TypeName?: string;
  Configuration: string;
  ConfigurationAlias?: string;
}

const ENUMS: Readonly<Record<string, readonly string[]>> = {
  HookInvocationStatus: ['ENABLED', 'DISABLED'],
  TargetStacks: ['ALL', 'NONE'],
  FailureMode: ['FAIL', 'WARN'],
};
const TARGET_OPERATIONS: readonly string[] = ['STACK', 'RESOURCE', 'CHANGE_SET', 'CLOUD_CONTROL'];

const badEnum = (at: string, value: unknown) => `${at}: ${JSON.stringify(value)} is not a valid enum value`;

/** Why a hook's configuration is refused, as the registry's schema validator words it; undefined if it is fine. */
export function hookConfigurationProblem(configuration: unknown): string | undefined {
  if (!isObject(configuration)) return '#: expected type: JSONObject';
  const cfn = configuration.CloudFormationConfiguration;
  if (!isObject(cfn)) return '#: required key [CloudFormationConfiguration] not found';
  const hook = cfn.HookConfiguration;
  if (!isObject(hook)) return '#/CloudFormationConfiguration: required key [HookConfiguration] not found';
  const at = '#/CloudFormationConfiguration/HookConfiguration';
  // HookInvocationStatus is the documented switch; TargetStacks, the older one, still stands in for it
  const required = hook.HookInvocationStatus === undefined ? ['TargetStacks', 'FailureMode'] : ['FailureMode'];
  for (const key of required) if (hook[key] === undefined) return `${at}: required key [${key}] not found`;
  for (const key of Object.keys(ENUMS)) {
    if (hook[key] !== undefined && !ENUMS[key].includes(hook[key] as string)) return badEnum(`${at}/${key}`, hook[key]);
  }
  const operations = hook.TargetOperations;
  if (operations !== undefined) {
    if (!Array.isArray(operations)) return `${at}/TargetOperations: expected type: JSONArray`;
    const bad = operations.findIndex((o) => !TARGET_OPERATIONS.includes(o as string));
    if (bad >= 0) return badEnum(`${at}/TargetOperations/${bad}`, operations[bad]);
  }
  if (hook.Properties !== undefined && !isObject(hook.Properties)) return `${at}/Properties: expected type: JSONObject`;
  return undefined;
}

/** Sets the configuration; returns its ConfigurationArn. */
export function setTypeConfiguration(engine: Engine, scope: Caller, request: ConfigureRequest): string {
  const { store, clock } = engine.deps;
  const alias = request.ConfigurationAlias ?? DEFAULT_ALIAS;
  if (!/^[a-zA-Z0-9]{1,256}$/.test(alias)) {
    throw validationError(
      `1 validation error detected: Value '${alias}' at 'configurationAlias' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[a-zA-Z0-9]{1,256}$`,
    );
  }
  const { ext } = findExtension(store, scope, { Arn: request.TypeArn, Type: request.Type, TypeName: request.TypeName });
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.Configuration);
  } catch {
    throw registryError('Configuration is not valid JSON');
  }
  const problem =
    ext.category === 'HOOK'
      ? hookConfigurationProblem(parsed)
      : isObject(parsed)
        ? undefined
        : '#: expected type: JSONObject';
  if (problem) throw registryError(problem);
  store.registry.saveConfiguration({
    account: scope.account,
    region: scope.region,
    category: ext.category,
    typeName: ext.typeName,
    alias,
    configuration: request.Configuration,
    lastUpdated: clock.now().toISOString(),
  });
  return configurationArnOf(scope, ext, alias);
}

export const configurationArnOf = (scope: Caller, ext: ExtensionRecord, alias: string) =>
  configurationArn(scope, ext.category, ext.typeName, alias);
