// SetStackPolicy and GetStackPolicy.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_SetStackPolicy.html
import { validationError } from '../../domain/errors.js';
import { parseStackPolicy } from '../../state-machine/stackPolicy.js';
import { findStack, required, type Handler } from './context.js';

export const setStackPolicy: Handler = (ctx, input) => {
  const name = required<string>(input, 'StackName');
  if (input.StackPolicyBody !== undefined && input.StackPolicyURL !== undefined) {
    throw validationError('You cannot specify both StackPolicyURL and StackPolicyBody');
  }
  if (input.StackPolicyURL !== undefined) throw validationError('S3 error: Access Denied (cfn-local cannot read stack policies from S3: pass StackPolicyBody)');
  const body = input.StackPolicyBody as string | undefined;
  if (body === undefined) throw validationError('Either StackPolicyBody or StackPolicyURL must be specified.');
  parseStackPolicy(body);
  const stack = findStack(ctx, name);
  if (!stack || stack.status === 'DELETE_COMPLETE') throw validationError(`Stack with id ${name} does not exist`);
  ctx.engine.changeSettings(stack, (doc) => void (doc.stackPolicyBody = body));
  return undefined;
};

export const getStackPolicy: Handler = (ctx, input) => {
  const name = required<string>(input, 'StackName');
  const stack = findStack(ctx, name);
  if (!stack) throw validationError(`Stack with id ${name} does not exist`);
  return { StackPolicyBody: stack.doc.duringUpdatePolicyBody ?? stack.doc.stackPolicyBody };
};
