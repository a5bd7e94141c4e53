// What every handler receives: the caller's account and region, storage for reads, the engine for operations.
import type { ReadonlyStore, StackRecord } from '../../storage/index.js';
import type { Engine, Caller } from '../../state-machine/engine.js';
import type { Faults } from '../../resources/faults.js';
import { validationError } from '../../domain/errors.js';
import type { CloudFormationActions } from '../../generated/cloudformation.js';

export interface HandlerContext {
  /** Reads only: a handler changes nothing itself, it starts operations and calls the state machine through `engine`. */
  store: ReadonlyStore;
  engine: Engine;
  faults: Faults;
  caller: Caller;
  requestId: string;
}

/** Every CloudFormation Action of the model, and the input and output the model gives it (generated/cloudformation.ts). */
export type Action = keyof CloudFormationActions;
export type InputOf<A extends Action> = CloudFormationActions[A]['input'];
export type OutputOf<A extends Action> = CloudFormationActions[A]['output'];

/** The handler of one Action: its input as the decoder built it from the model, its output as the model shapes it. */
export type Handler<A extends Action> = (ctx: HandlerContext, input: InputOf<A>) => OutputOf<A> | Promise<OutputOf<A>>;

/** A stack by name (live stacks only) or by ARN (deleted ones too), within the caller's account and region. */
export function findStack(ctx: HandlerContext, nameOrId: string): StackRecord | undefined {
  const { account, region } = ctx.caller;
  if (nameOrId.startsWith('arn:')) {
    const stack = ctx.store.stacks.byId(nameOrId);
    return stack && stack.account === account && stack.region === region ? stack : undefined;
  }
  return ctx.store.stacks.liveByName(account, region, nameOrId);
}

/** Opaque pagination tokens carrying a numeric cursor. */
export function encodeToken(cursor: number | undefined): string | undefined {
  return cursor === undefined ? undefined : Buffer.from(`c:${cursor}`).toString('base64');
}

export function decodeToken(token: string | undefined): number | undefined {
  if (token === undefined || token === '') return undefined;
  const text = Buffer.from(token, 'base64').toString('utf8');
  const cursor = Number(text.slice(2));
  if (!text.startsWith('c:') || !Number.isInteger(cursor)) throw validationError('Invalid NextToken');
  return cursor;
}
