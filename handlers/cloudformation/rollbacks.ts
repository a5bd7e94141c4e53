// RollbackStack, ContinueUpdateRollback and CancelUpdateStack.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ContinueUpdateRollback.html
import { stackNotFound, validationError } from '../../domain/errors.js';
import { rollbackStack as startRollback } from '../../state-machine/operations/rollback.js';
import { continueUpdateRollback as startContinueRollback } from '../../state-machine/operations/continueRollback.js';
import { cancelUpdateStack as cancelUpdate } from '../../state-machine/operations/update.js';
import { findStack, type Handler, type HandlerContext } from './context.js';

function stackNamed(ctx: HandlerContext, name: string) {
  const stack = findStack(ctx, name);
  if (!stack || stack.status === 'DELETE_COMPLETE') throw stackNotFound(name);
  return stack;
}

export const rollbackStack: Handler<'RollbackStack'> = (ctx, input) => {
  const stack = stackNamed(ctx, input.StackName);
  startRollback(ctx.engine, stack, input);
  return { StackId: stack.stackId };
};

// "Don't specify the name of a nested stack … use this operation on the parent stack" (API reference); the
// refusal's text is ours, AWS's is not documented.
export const continueUpdateRollback: Handler<'ContinueUpdateRollback'> = (ctx, input) => {
  const stack = stackNamed(ctx, input.StackName);
  if (stack.doc.rootId) {
    throw validationError(
      `Stack [${stack.name}] is a nested stack: ContinueUpdateRollback can only be called on its root stack [${stack.doc.rootId}].`,
    );
  }
  startContinueRollback(ctx.engine, stack, input);
  return {};
};

export const cancelUpdateStack: Handler<'CancelUpdateStack'> = (ctx, input) => {
  const stack = stackNamed(ctx, input.StackName);
  cancelUpdate(ctx.engine, stack);
  return undefined;
};
