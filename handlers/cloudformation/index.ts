// ACTIONS: the one table from a CloudFormation Action to its handler, each typed by its Action's model input and output.
import type { Action, Handler, HandlerContext } from './context.js';
import { NOT_IMPLEMENTED, rowOf, type DecodedHandler, type NotImplemented } from '../actionTable.js';
import { NOT_SERVED } from './notImplemented.js';
import { checkInput } from './inputRules.js';
import * as stacks from './stacks.js';
import * as events from './events.js';
import * as operationEvents from './operationEvents.js';
import * as resources from './resources.js';
import * as templates from './templates.js';
import * as changeSets from './changeSets.js';
import * as exports from './exports.js';
import * as rollbacks from './rollbacks.js';
import * as policies from './policies.js';
import * as signals from './signals.js';
import * as account from './account.js';
import * as drift from './drift.js';
import * as generator from './generator.js';
import * as stackSets from './stackSets/sets.js';
import * as stackInstances from './stackSets/instances.js';
import * as setOperations from './stackSets/operations.js';
import * as organizations from './stackSets/organizations.js';
import * as refactors from './refactors.js';
import * as hooks from './hooks.js';
import * as registrations from './registry/registrations.js';
import * as registryTypes from './registry/types.js';
import * as extensions from './registry/extensions.js';
import * as publishing from './registry/publishing.js';
import * as aliases from './aliases.js';

/** Total over the model's Actions: the served ones here, the others NOT_IMPLEMENTED (notImplemented.ts). */
export const ACTIONS: { readonly [A in Action]: Handler<A> | NotImplemented } = {
  ...NOT_SERVED,
  CreateStack: stacks.createStack,
  UpdateStack: stacks.updateStack,
  DeleteStack: stacks.deleteStack,
  DescribeStacks: stacks.describeStacks,
  ListStacks: stacks.listStacks,
  UpdateTerminationProtection: stacks.updateTerminationProtection,
  SetAlias: aliases.setAlias,
  RemoveAlias: aliases.removeAlias,
  DescribeStackEvents: events.describeStackEvents,
  DescribeEvents: operationEvents.describeEvents,
  DescribeStackResource: resources.describeStackResource,
  DescribeStackResources: resources.describeStackResources,
  ListStackResources: resources.listStackResources,
  GetTemplate: templates.getTemplate,
  ValidateTemplate: templates.validateTemplate,
  GetTemplateSummary: templates.getTemplateSummary,
  CreateChangeSet: changeSets.createChangeSet,
  DescribeChangeSet: changeSets.describeChangeSet,
  ExecuteChangeSet: changeSets.executeChangeSet,
  DeleteChangeSet: changeSets.deleteChangeSet,
  ListChangeSets: changeSets.listChangeSets,
  ListExports: exports.listExports,
  ListImports: exports.listImports,
  RollbackStack: rollbacks.rollbackStack,
  ContinueUpdateRollback: rollbacks.continueUpdateRollback,
  CancelUpdateStack: rollbacks.cancelUpdateStack,
  SetStackPolicy: policies.setStackPolicy,
  GetStackPolicy: policies.getStackPolicy,
  SignalResource: signals.signalResource,
  DescribeAccountLimits: account.describeAccountLimits,
  EstimateTemplateCost: account.estimateTemplateCost,
  DetectStackDrift: drift.detectStackDrift,
  DetectStackResourceDrift: drift.detectStackResourceDrift,
  DescribeStackDriftDetectionStatus: drift.describeStackDriftDetectionStatus,
  DescribeStackResourceDrifts: drift.describeStackResourceDrifts,
  StartResourceScan: generator.startResourceScan,
  DescribeResourceScan: generator.describeResourceScan,
  ListResourceScans: generator.listResourceScans,
  ListResourceScanResources: generator.listResourceScanResources,
  ListResourceScanRelatedResources: generator.listResourceScanRelatedResources,
  CreateGeneratedTemplate: generator.createGeneratedTemplate,
  UpdateGeneratedTemplate: generator.updateGeneratedTemplate,
  DescribeGeneratedTemplate: generator.describeGeneratedTemplate,
  GetGeneratedTemplate: generator.getGeneratedTemplate,
  ListGeneratedTemplates: generator.listGeneratedTemplates,
  DeleteGeneratedTemplate: generator.deleteGeneratedTemplate,
  CreateStackSet: stackSets.createStackSet,
  UpdateStackSet: stackSets.updateStackSet,
  DeleteStackSet: stackSets.deleteStackSet,
  DescribeStackSet: stackSets.describeStackSet,
  ListStackSets: stackSets.listStackSets,
  CreateStackInstances: stackInstances.createStackInstances,
  UpdateStackInstances: stackInstances.updateStackInstances,
  DeleteStackInstances: stackInstances.deleteStackInstances,
  ListStackInstances: stackInstances.listStackInstances,
  DescribeStackInstance: stackInstances.describeStackInstance,
  ListStackInstanceResourceDrifts: stackInstances.listStackInstanceResourceDrifts,
  DescribeStackSetOperation: setOperations.describeStackSetOperation,
  ListStackSetOperations: setOperations.listStackSetOperations,
  ListStackSetOperationResults: setOperations.listStackSetOperationResults,
  StopStackSetOperation: setOperations.stopStackSetOperation,
  DetectStackSetDrift: setOperations.detectStackSetDrift,
  ImportStacksToStackSet: setOperations.importStacksToStackSet,
  ListStackSetAutoDeploymentTargets: setOperations.listStackSetAutoDeploymentTargets,
  ActivateOrganizationsAccess: organizations.activateOrganizationsAccess,
  DeactivateOrganizationsAccess: organizations.deactivateOrganizationsAccess,
  DescribeOrganizationsAccess: organizations.describeOrganizationsAccess,
  CreateStackRefactor: refactors.createStackRefactor,
  DescribeStackRefactor: refactors.describeStackRefactor,
  ExecuteStackRefactor: refactors.executeStackRefactor,
  ListStackRefactors: refactors.listStackRefactors,
  ListStackRefactorActions: refactors.listStackRefactorActions,
  DescribeChangeSetHooks: hooks.describeChangeSetHooks,
  GetHookResult: hooks.getHookResult,
  ListHookResults: hooks.listHookResults,
  RegisterType: registrations.registerType,
  DescribeTypeRegistration: registrations.describeTypeRegistration,
  ListTypeRegistrations: registrations.listTypeRegistrations,
  DescribeType: registryTypes.describeType,
  ListTypes: registryTypes.listTypes,
  ListTypeVersions: registryTypes.listTypeVersions,
  ActivateType: extensions.activateType,
  DeactivateType: extensions.deactivateType,
  SetTypeConfiguration: extensions.setTypeConfiguration,
  BatchDescribeTypeConfigurations: extensions.batchDescribeTypeConfigurations,
  DeregisterType: publishing.deregisterType,
  SetTypeDefaultVersion: publishing.setTypeDefaultVersion,
  RegisterPublisher: publishing.registerPublisher,
  DescribePublisher: publishing.describePublisher,
  TestType: publishing.testType,
  PublishType: publishing.publishType,
  RecordHandlerProgress: publishing.recordHandlerProgress,
};

/** The handler of `action` behind INPUT_RULES' check; NOT_IMPLEMENTED, or undefined for an Action the model lacks. */
export function handlerOf(action: string): DecodedHandler<HandlerContext> | NotImplemented | undefined {
  const handler = rowOf(ACTIONS, action);
  if (handler === undefined || handler === NOT_IMPLEMENTED) return handler;
  return async (ctx, input) => {
    checkInput(action, input);
    return handler(ctx, input);
  };
}
