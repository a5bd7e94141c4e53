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

type Decoded = Record<string, unknown>;

/**
 * SSM_ACTIONS as the protocol holds them: the decoder builds each input from its Action's model shape and the encoder
 * walks each output by it, and generated/ssm.ts types both from that model; this view is the one place that is trusted.
 */
export const DECODED_SSM_ACTIONS = SSM_ACTIONS as unknown as Readonly<
  Record<string, ((ctx: SsmContext, input: Decoded) => Decoded | undefined) | undefined>
>;
