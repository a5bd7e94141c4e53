// The simulated organization a management account's service-managed stack sets deploy into: its root, its
// organizational units (nested under the root or one another) and the accounts in each; the control API sets it.
import type { OrganizationDoc } from '../../storage/index.js';

export const OU_ID = /^(ou-[a-z0-9]{4,32}-[a-z0-9]{8,32}|r-[a-z0-9]{4,32})$/;

/** The units under `ouId` (itself included), the root standing for every unit. */
function unitsUnder(org: OrganizationDoc, ouId: string): Set<string> {
  const out = new Set<string>([ouId]);
  for (let grew = true; grew;) {
    grew = false;
    for (const u of org.units) {
      if (!out.has(u.id) && (out.has(u.parentId) || u.parentId === ouId)) {
        out.add(u.id);
        grew = true;
      }
    }
  }
  return out;
}

export function knowsUnit(org: OrganizationDoc, ouId: string): boolean {
  return ouId === org.rootId || org.units.some((u) => u.id === ouId);
}

/** The accounts in `ouId` and the units below it, each with the unit that holds it directly. */
export function accountsIn(org: OrganizationDoc, ouId: string): { account: string; unit: string }[] {
  const units = unitsUnder(org, ouId);
  const out: { account: string; unit: string }[] = [];
  if (units.has(org.rootId)) out.push(...org.rootAccounts.map((account) => ({ account, unit: org.rootId })));
  for (const u of org.units) if (units.has(u.id)) out.push(...u.accounts.map((account) => ({ account, unit: u.id })));
  return out;
}

/** Every member account, the management account included. */
export function memberAccounts(org: OrganizationDoc, management: string): Set<string> {
  return new Set([management, ...org.rootAccounts, ...org.units.flatMap((u) => u.accounts)]);
}
