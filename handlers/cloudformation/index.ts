// ACTIONS: the one table from a CloudFormation Action to its handler.
import type { Handler } from './context.js';
import * as stacks from './stacks.js';
import * as events from './events.js';
import * as resources from './resources.js';
import * as templates from './templates.js';
import * as changeSets from './changeSets.js';
import * as exports from './exports.js';
import * as rollbacks from './rollbacks.js';
import * as policies from './policies.js';
import * as signals from './signals.js';

export const ACTIONS: Readonly<Partial<Record<string, Handler>>> = {
  CreateStack: stacks.createStack,
  UpdateStack: stacks.updateStack,
  DeleteStack: stacks.deleteStack,
  DescribeStacks: stacks.describeStacks,
  ListStacks: stacks.listStacks,
  UpdateTerminationProtection: stacks.updateTerminationProtection,
  DescribeStackEvents: events.describeStackEvents,
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
};
