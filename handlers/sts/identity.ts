// Who an STS caller is: the account's root, or the role or session its temporary credentials were handed out for.
// The identity travels inside the session token itself, so credentials keep working across a restart.
import type { Caller } from '../../state-machine/engine.js';
import { partitionOf } from '../../resources/regions.js';

export interface Identity {
  Account: string;
  Arn: string;
  UserId: string;
  /** True for credentials handed out by AssumeRole or GetSessionToken (they carry a session token). */
  session: boolean;
}

const TOKEN_PREFIX = 'IQoJcfnlocal';

/** A session token for the identity: opaque to clients, readable here. */
export function sessionToken(identity: Omit<Identity, 'session'>): string {
  return TOKEN_PREFIX + Buffer.from(JSON.stringify(identity)).toString('base64url');
}

function fromToken(token: string | undefined): Omit<Identity, 'session'> | undefined {
  if (!token?.startsWith(TOKEN_PREFIX)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const { Account, Arn, UserId } = parsed;
    return typeof Account === 'string' && typeof Arn === 'string' && typeof UserId === 'string'
      ? { Account, Arn, UserId }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The caller's identity from its session token (X-Amz-Security-Token), else the root of its account. */
export function identityOf(caller: Caller, token: string | undefined): Identity {
  const carried = fromToken(token);
  if (carried && carried.Account === caller.account) return { ...carried, session: true };
  return {
    Account: caller.account,
    Arn: `arn:${partitionOf(caller.region)}:iam::${caller.account}:root`,
    UserId: caller.account,
    session: token !== undefined && token !== '',
  };
}
