// SignalResource: a success or failure signal for a resource waiting under a CreationPolicy (what cfn-signal sends).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_SignalResource.html
import { echo, validationError, stackNotFound } from '../../domain/errors.js';
import { receiveResourceSignal } from '../../state-machine/signals.js';
import { SIGNALABLE } from '../../state-machine/statuses.js';
import { findStack, type Handler } from './context.js';

export const signalResource: Handler<'SignalResource'> = (ctx, input) => {
  const { StackName: name, LogicalResourceId: logicalId, UniqueId: uniqueId, Status: status } = input;
  const stack = findStack(ctx, name);
  if (!stack) throw stackNotFound(name);
  const resource = ctx.store.resources.one(stack.stackId, logicalId);
  if (!resource) throw validationError(`Resource ${echo(logicalId)} does not exist for stack ${echo(name)}`);
  // cfn-signal scripts match this ending ("… is in CREATE_COMPLETE state and cannot be signaled") to ignore late signals.
  if (!SIGNALABLE.includes(resource.status)) {
    throw validationError(`Resource ${logicalId} is in ${resource.status} state and cannot be signaled`);
  }
  receiveResourceSignal(ctx.engine, stack, resource, {
    UniqueId: uniqueId,
    Status: status === 'FAILURE' ? 'FAILURE' : 'SUCCESS',
  });
  return undefined;
};
