// SSM Parameter Store over the simulated account: one handler per action, named after it; any other SSM action of
// the model answers as not served (server/services/ssm.ts).
import type { SsmAction, SsmContext, SsmHandler } from './context.js';
import { describeParameters, getParameter, getParameterHistory, getParameters, getParametersByPath } from './reads.js';
import { deleteParameter, deleteParameters, labelParameterVersion, putParameter } from './writes.js';

export type { SsmContext } from './context.js';

export const SSM_ACTIONS: { readonly [A in SsmAction]?: SsmHandler<A> } = {
  GetParameter: getParameter,
  GetParameters: getParameters,
  GetParametersByPath: getParametersByPath,
  GetParameterHistory: getParameterHistory,
  DescribeParameters: describeParameters,
  PutParameter: putParameter,
  DeleteParameter: deleteParameter,
  DeleteParameters: deleteParameters,
  LabelParameterVersion: labelParameterVersion,
};

/**
 * The handler of `action`, or undefined when cfn-local does not serve it. The decoder built the input from the
 * Action's model shape and the encoder walks the output by it, as generated/ssm.ts types both: trusted here only.
 */
export function ssmHandlerOf(
  action: string,
): ((ctx: SsmContext, input: Record<string, unknown>) => Record<string, unknown> | undefined) | undefined {
  const handler = SSM_ACTIONS[action as SsmAction] as SsmHandler<SsmAction> | undefined;
  if (!handler) return undefined;
  return (ctx, input) =>
    handler(ctx, input as unknown as Parameters<SsmHandler<SsmAction>>[1]) as Record<string, unknown> | undefined;
}
