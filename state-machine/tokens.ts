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

export function rememberToken(stack: StackRecord, token: string | undefined, action: TokenAction): void {
  if (token !== undefined) stack.doc.tokens = { ...stack.doc.tokens, [token]: action };
}
