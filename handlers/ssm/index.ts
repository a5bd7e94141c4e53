// SSM Parameter Store over the simulated account: one handler per action, named after it; any other SSM action of
// the model answers as not served (server/services/ssm.ts).
import type { SsmHandler } from './context.js';
import { describeParameters, getParameter, getParameterHistory, getParameters, getParametersByPath } from './reads.js';
import { deleteParameter, deleteParameters, labelParameterVersion, putParameter } from './writes.js';

export type { SsmContext } from './context.js';

export const SSM_ACTIONS: Readonly<Record<string, SsmHandler>> = {
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
