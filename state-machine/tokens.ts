// ClientRequestToken idempotency: a retried call with the token of an action already started on the stack is
// answered as a success without starting anything; a token already used for another action is refused.
import type { StackRecord } from '../storage/index.js';
import { awsError } from '../domain/errors.js';

/** The calls whose ClientRequestToken a stack remembers. */
export type TokenAction = 'CreateStack' | 'UpdateStack' | 'DeleteStack';

export function repeatOf(stack: StackRecord, token: string | undefined, action: TokenAction): boolean {
  const used = token === undefined ? undefined : stack.doc.tokens?.[token];
  if (used === undefined) return false;
  if (used === action) return true;
  throw awsError(
    'TokenAlreadyExistsException',
    `Another ${used} request with the same client request token ${token} was already made`,
  );
}

/**
 * How many tokens a stack remembers, newest kept: a retry comes seconds after its call, and a stack deployed with a
 * fresh token each time (as a pipeline does) would otherwise carry every token it ever had in each read and write.
 */
export const TOKENS_KEPT = 100;

export function rememberToken(stack: StackRecord, token: string | undefined, action: TokenAction): void {
  if (token === undefined) return;
  const older = Object.entries(stack.doc.tokens ?? {}).filter(([t]) => t !== token);
  stack.doc.tokens = Object.fromEntries([...older.slice(-(TOKENS_KEPT - 1)), [token, action]]);
}
