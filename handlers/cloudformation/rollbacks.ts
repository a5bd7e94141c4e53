// RollbackStack, ContinueUpdateRollback and CancelUpdateStack.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ContinueUpdateRollback.html
import { stackNotFound } from '../../domain/errors.js';
import { rollbackStack as startRollback } from '../../state-machine/operations/rollback.js';
import { continueUpdateRollback as startContinueRollback } from '../../state-machine/operations/continueRollback.js';
import { cancelUpdateStack as cancelUpdate } from '../../state-machine/operations/update.js';
import { findStack, required, type Handler, type HandlerContext } from './context.js';

function stackNamed(ctx: HandlerContext, name: string) {
  const stack = findStack(ctx, name);
  if (!stack || stack.status === 'DELETE_COMPLETE') throw stackNotFound(name);
  return stack;
}

export const rollbackStack: Handler = (ctx, input) => {
  const stack = stackNamed(ctx, required<string>(input, 'StackName'));
  startRollback(ctx.engine, stack, input);
  return { StackId: stack.stackId };
};

export const continueUpdateRollback: Handler = (ctx, input) => {
  const stack = stackNamed(ctx, required<string>(input, 'StackName'));
  startContinueRollback(ctx.engine, stack, input);
  return {};
};

export const cancelUpdateStack: Handler = (ctx, input) => {
  const stack = stackNamed(ctx, required<string>(input, 'StackName'));
  cancelUpdate(ctx.engine, stack);
  return undefined;
};
