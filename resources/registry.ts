// PROVIDERS: resource type → provider. Types without a family file get the spec-driven generic provider
// (resources/genericProvider.ts); BACKEND_PROVIDERS' types go to the backend when --backend is set.
import { isKnownType, resourceSpec } from './spec.js';
import type { Provider } from './provider.js';
import { genericProvider, isCustom, SCHEMALESS } from './genericProvider.js';
import {
  HANDLE_TYPE,
  WAIT_CONDITION_TYPE,
  waitConditionHandleProvider,
  waitConditionProvider,
} from './cloudformation.js';
import { customResourceProvider } from './customResources.js';
import { NESTED_STACK_TYPE, nestedStackProvider } from './nestedStacks.js';
import { ssmParameterProvider } from './ssm.js';
import { lambdaAliasProvider, lambdaVersionProvider } from './lambdaVersions.js';
import { BACKEND_PROVIDERS } from './backend/index.js';

export const PROVIDERS: Readonly<Record<string, Provider>> = {
  ...BACKEND_PROVIDERS,
  [HANDLE_TYPE]: waitConditionHandleProvider,
  [WAIT_CONDITION_TYPE]: waitConditionProvider,
  'AWS::CloudFormation::CustomResource': customResourceProvider,
  [NESTED_STACK_TYPE]: nestedStackProvider,
  'AWS::SSM::Parameter': ssmParameterProvider,
  'AWS::Lambda::Version': lambdaVersionProvider,
  'AWS::Lambda::Alias': lambdaAliasProvider,
};

export function providerFor(type: string): Provider {
  return PROVIDERS[type] ?? (isCustom(type) ? customResourceProvider : genericProvider);
}

export function isKnownResourceType(type: string): boolean {
  return isCustom(type) || SCHEMALESS.has(type) || isKnownType(type);
}

/** The property that holds a custom physical name for the type, if it has one. */
export function nameProperty(type: string): string | undefined {
  return resourceSpec(type)?.nameProperty;
}
