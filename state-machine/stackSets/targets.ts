// Where a stack set operation acts: the accounts and regions a call names, directly (self-managed) or through
// DeploymentTargets' organizational units and account filter (service-managed), each with the unit it came through.
import { echo, validationError } from '../../domain/errors.js';
import type { OrganizationDoc, StackSetRecord } from '../../storage/index.js';
import { OU_ID, accountsIn, knowsUnit } from './organization.js';

export interface Target {
  account: string;
  region: string;
  ou?: string;
}

export interface TargetInput {
  Accounts?: string[];
  DeploymentTargets?: { Accounts?: string[]; OrganizationalUnitIds?: string[]; AccountFilterType?: string };
  Regions?: string[];
}

const ACCOUNT = /^[0-9]{12}$/;
export const ACCOUNT_FILTER_TYPES = ['NONE', 'INTERSECTION', 'DIFFERENCE', 'UNION'];

function checkAccounts(accounts: string[]): void {
  for (const a of accounts) {
    if (!ACCOUNT.test(a)) {
      throw validationError(
        `1 validation error detected: Value '${echo(a)}' at 'accounts' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[0-9]{12}$`,
      );
    }
  }
}

/** The accounts of a call on a self-managed set: Accounts, or DeploymentTargets.Accounts; never units. */
function selfManagedAccounts(input: TargetInput): string[] {
  const targets = input.DeploymentTargets;
  if (input.Accounts?.length && targets) {
    throw validationError('Accounts and DeploymentTargets cannot both be specified');
  }
  if (targets?.OrganizationalUnitIds?.length) {
    throw validationError('StackSets with SELF_MANAGED permission model can only have accounts as target');
  }
  const accounts = input.Accounts ?? targets?.Accounts ?? [];
  if (!accounts.length) throw validationError('Either Accounts or DeploymentTargets should be specified');
  checkAccounts(accounts);
  return accounts;
}

/** The accounts of a call on a service-managed set, through its organization's units and the account filter. */
function serviceManagedAccounts(
  input: TargetInput,
  org: OrganizationDoc | undefined,
  management: string,
): { account: string; ou?: string }[] {
  if (input.Accounts?.length) {
    throw validationError('StackSets with SERVICE_MANAGED permission model can only have OrganizationalUnit as target');
  }
  const targets = input.DeploymentTargets;
  const units = targets?.OrganizationalUnitIds ?? [];
  const accounts = targets?.Accounts ?? [];
  checkAccounts(accounts);
  if (!units.length) {
    if (!accounts.length) throw validationError('DeploymentTargets should be specified');
    return accounts.map((account) => ({ account }));
  }
  for (const ou of units) {
    if (!OU_ID.test(ou) || !org || !knowsUnit(org, ou)) {
      throw validationError(`Organizational unit ${echo(ou)} does not exist in the organization`);
    }
  }
  const filter = targets?.AccountFilterType ?? (accounts.length ? 'INTERSECTION' : 'NONE');
  if (!ACCOUNT_FILTER_TYPES.includes(filter)) {
    throw validationError(
      `1 validation error detected: Value '${echo(filter)}' at 'deploymentTargets.accountFilterType' failed to satisfy constraint: Member must satisfy enum value set: [${ACCOUNT_FILTER_TYPES.join(', ')}]`,
    );
  }
  const inUnits = new Map<string, string>();
  for (const ou of units)
    for (const { account } of accountsIn(org!, ou)) if (!inUnits.has(account)) inUnits.set(account, ou);
  let chosen: { account: string; ou?: string }[] = [...inUnits].map(([account, ou]) => ({ account, ou }));
  if (filter === 'INTERSECTION') chosen = chosen.filter((c) => accounts.includes(c.account));
  if (filter === 'DIFFERENCE') chosen = chosen.filter((c) => !accounts.includes(c.account));
  if (filter === 'UNION') {
    chosen.push(...accounts.filter((a) => !inUnits.has(a)).map((account) => ({ account })));
  }
  // service-managed stack sets never deploy to the management account, even when it sits in a target unit
  return chosen.filter((c) => c.account !== management);
}

/** Each account × region of the call, accounts in the order given, regions in the order given. */
export function resolveTargets(set: StackSetRecord, input: TargetInput, org: OrganizationDoc | undefined): Target[] {
  const regions = input.Regions ?? [];
  if (!regions.length) throw validationError('Regions should be specified');
  const accounts =
    set.doc.permissionModel === 'SERVICE_MANAGED'
      ? serviceManagedAccounts(input, org, set.account)
      : selfManagedAccounts(input).map((account) => ({ account, ou: undefined as string | undefined }));
  const seen = new Set<string>();
  const out: Target[] = [];
  for (const region of regions) {
    for (const { account, ou } of accounts) {
      if (seen.has(`${account}/${region}`)) continue;
      seen.add(`${account}/${region}`);
      out.push(ou === undefined ? { account, region } : { account, region, ou });
    }
  }
  return out;
}
