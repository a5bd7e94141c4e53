// ACTIONS: the one table from a CloudFormation Action to its handler, each typed by its Action's model input and output.
import type { Action, Handler, HandlerContext } from './context.js';
import { checkInput } from './inputRules.js';
import * as stacks from './stacks.js';
import * as events from './events.js';
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

/** An Action's handler seen from the protocol, which decodes and encodes plain objects by the model's shapes. */
export type DecodedHandler = (
  ctx: HandlerContext,
  input: Record<string, unknown>,
) => Promise<Record<string, unknown> | undefined>;

/**
 * The handler of `action` behind INPUT_RULES' check, or undefined when cfn-local has none. The decoder built the
 * input from the Action's own model shape and the encoder walks the output by it, and generated/cloudformation.ts
 * types both from that model: this is the one place that is trusted.
 */
export function handlerOf(action: string): DecodedHandler | undefined {
  const handler = ACTIONS[action as Action] as Handler<Action> | undefined;
  if (!handler) return undefined;
  return async (ctx, input) => {
    const typed = input as unknown as Parameters<Handler<Action>>[1];
    checkInput(action as Action, typed);
    return (await handler(ctx, typed)) as Record<string, unknown> | undefined;
  };
}
