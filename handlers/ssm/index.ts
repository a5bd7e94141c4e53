// SSM Parameter Store over the simulated account: one handler per action, named after it; any other SSM action of
// the model answers as not served (server/services/ssm.ts).
import type { SsmAction, SsmHandler } from './context.js';
import type { NotImplemented } from '../actionTable.js';
import { NOT_SERVED } from './notImplemented.js';
import { describeParameters, getParameter, getParameterHistory, getParameters, getParametersByPath } from './reads.js';
import { deleteParameter, deleteParameters, labelParameterVersion, putParameter } from './writes.js';

export type { SsmContext } from './context.js';

/** Total over the model's actions: the served ones here, the others NOT_IMPLEMENTED (notImplemented.ts). */
export const SSM_ACTIONS: { readonly [A in SsmAction]: SsmHandler<A> | NotImplemented } = {
  ...NOT_SERVED,
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
