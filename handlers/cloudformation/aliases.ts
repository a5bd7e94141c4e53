// SetAlias and RemoveAlias: a stack's one other name, which storage resolves wherever a StackName is accepted
// (StackStore.liveByName), kept in the stack's document so it lasts as long as the live stack and across restarts.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_SetAlias.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_RemoveAlias.html
import { aliasExists, aliasIsStackName, aliasNotFound, stackHasAlias, stackIdNotFound } from '../../domain/errors.js';
import { findStack, type Handler } from './context.js';

export const setAlias: Handler<'SetAlias'> = (ctx, input) => {
  const { StackName: name, AliasName: alias } = input;
  const stack = findStack(ctx, name);
  if (!stack || stack.status === 'DELETE_COMPLETE') throw stackIdNotFound(name);
  // "It cannot match an existing stack name or another active alias" (API reference), the stack's own included.
  const holder = ctx.store.stacks.liveByName(ctx.caller.account, ctx.caller.region, alias);
  if (holder) throw holder.name === alias ? aliasIsStackName(alias) : aliasExists(alias);
  // "Each stack can have at most one alias": changing it is RemoveAlias, then SetAlias.
  if (stack.doc.aliasName !== undefined) throw stackHasAlias(stack.name, stack.doc.aliasName);
  ctx.engine.changeSettings(stack, (doc) => void (doc.aliasName = alias));
  return undefined;
};

export const removeAlias: Handler<'RemoveAlias'> = (ctx, input) => {
  const alias = input.AliasName;
  const stack = ctx.store.stacks.liveByName(ctx.caller.account, ctx.caller.region, alias);
  if (!stack || stack.doc.aliasName !== alias) throw aliasNotFound(alias);
  ctx.engine.changeSettings(stack, (doc) => {
    delete doc.aliasName;
  });
  return undefined;
};
