// ACTIONS: the one table from a CloudFormation Action to its handler, each typed by its Action's model input and output.
import type { Action, Handler, HandlerContext } from './context.js';
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

export const ACTIONS: { readonly [A in Action]?: Handler<A> } = {
  CreateStack: stacks.createStack,
  UpdateStack: stacks.updateStack,
  DeleteStack: stacks.deleteStack,
  DescribeStacks: stacks.describeStacks,
  ListStacks: stacks.listStacks,
  UpdateTerminationProtection: stacks.updateTerminationProtection,
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
};

type Decoded = Record<string, unknown>;

/** An Action's handler as the protocol sees it: input and output as plain objects, walked by the model's shapes. */
export type DecodedHandler = (ctx: HandlerContext, input: Decoded) => Promise<Decoded | undefined>;

// The decoder builds each input from its Action's model shape and the encoder walks each output by it, and
// generated/cloudformation.ts types both from that model: this view of ACTIONS is the one place that is trusted.
const DECODED = ACTIONS as unknown as Readonly<
  Record<
    string,
    ((ctx: HandlerContext, input: Decoded) => Decoded | undefined | Promise<Decoded | undefined>) | undefined
  >
>;

/** The handler of `action` behind INPUT_RULES' check, or undefined when cfn-local has none. */
export function handlerOf(action: string): DecodedHandler | undefined {
  const handler = DECODED[action];
  if (!handler) return undefined;
  return async (ctx, input) => {
    checkInput(action, input);
    return handler(ctx, input);
  };
}
