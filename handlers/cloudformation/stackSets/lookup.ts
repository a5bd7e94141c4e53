// Finding a stack set as a call names it: by name (ACTIVE sets) or by id (DELETED ones too), in the account that
// administers it: the caller's own (CallAs SELF), or its organization's management account for a delegated
// administrator (CallAs DELEGATED_ADMIN).
import { echo, stackSetNotFound, validationError } from '../../../domain/errors.js';
import type { StackSetRecord } from '../../../storage/index.js';
import type { Caller } from '../../../state-machine/engine.js';
import type { HandlerContext } from '../context.js';

const CALL_AS = ['SELF', 'DELEGATED_ADMIN'];

/** The account and region that administer the call's stack sets. */
export function ownerOf(ctx: HandlerContext, callAs: string | undefined): Caller {
  if (callAs !== undefined && !CALL_AS.includes(callAs)) {
    throw validationError(
      `1 validation error detected: Value '${echo(callAs)}' at 'callAs' failed to satisfy constraint: Member must satisfy enum value set: [${CALL_AS.join(', ')}]`,
    );
  }
  if (callAs !== 'DELEGATED_ADMIN') return ctx.caller;
  const found = ctx.store.stackSets.organizationOf(ctx.caller.account);
  if (!found || !found.org.delegatedAdministrators.includes(ctx.caller.account)) {
    throw validationError('Account used is not a delegated administrator');
  }
  return { account: found.management, region: ctx.caller.region };
}

/** The set a call names, else AWS's StackSetNotFoundException. */
export function findSet(ctx: HandlerContext, nameOrId: string, callAs?: string): StackSetRecord {
  const owner = ownerOf(ctx, callAs);
  const set = nameOrId.includes(':')
    ? ctx.store.stackSets.set(nameOrId)
    : ctx.store.stackSets.activeByName(owner.account, owner.region, nameOrId);
  if (!set || set.account !== owner.account || set.region !== owner.region) throw stackSetNotFound(nameOrId);
  if (callAs === 'DELEGATED_ADMIN' && set.doc.permissionModel !== 'SERVICE_MANAGED') throw stackSetNotFound(nameOrId);
  return set;
}

/** A set an operation may act on: ACTIVE. */
export function activeSet(ctx: HandlerContext, nameOrId: string, callAs?: string): StackSetRecord {
  const set = findSet(ctx, nameOrId, callAs);
  if (set.status !== 'ACTIVE') throw stackSetNotFound(nameOrId);
  return set;
}
