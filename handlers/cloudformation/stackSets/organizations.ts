// ActivateOrganizationsAccess, DeactivateOrganizationsAccess and DescribeOrganizationsAccess, over the simulated
// organization the control API sets (docs/stack-sets.md).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ActivateOrganizationsAccess.html
import { invalidOperation } from '../../../domain/errors.js';
import type { OrganizationDoc } from '../../../storage/index.js';
import type { Caller } from '../../../state-machine/engine.js';
import { setOrganizationAccess } from '../../../state-machine/stackSets/autoDeploy.js';
import type { Handler, HandlerContext } from '../context.js';
import { ownerOf } from './lookup.js';

/** The organization `owner` manages, if it is a management account. */
export function organizationFor(ctx: HandlerContext, owner: Pick<Caller, 'account'>): OrganizationDoc | undefined {
  const found = ctx.store.stackSets.organizationOf(owner.account);
  return found && found.management === owner.account ? found.org : undefined;
}

function managed(ctx: HandlerContext, callAs: string | undefined): { management: string } {
  const owner = ownerOf(ctx, callAs);
  if (!organizationFor(ctx, owner)) {
    throw invalidOperation(`Account ${owner.account} is not the management account of an organization`);
  }
  return { management: owner.account };
}

export const activateOrganizationsAccess: Handler<'ActivateOrganizationsAccess'> = (ctx) => {
  setOrganizationAccess(ctx.engine, managed(ctx, undefined).management, 'ENABLED');
  return {};
};

export const deactivateOrganizationsAccess: Handler<'DeactivateOrganizationsAccess'> = (ctx) => {
  setOrganizationAccess(ctx.engine, managed(ctx, undefined).management, 'DISABLED');
  return {};
};

export const describeOrganizationsAccess: Handler<'DescribeOrganizationsAccess'> = (ctx, input) => {
  const owner = ownerOf(ctx, input.CallAs);
  return { Status: organizationFor(ctx, owner)?.access ?? 'DISABLED' };
};
