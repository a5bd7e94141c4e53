// The simulated organization's changes and what follows from them: trusted access (Activate/Deactivate
// OrganizationsAccess), and automatic deployment, which gives an account added to a target unit the set's
// instances in that unit's regions and takes them from an account that left (keeping its stacks when
// RetainStacksOnAccountRemoval is set), each as an operation queued behind the set's running one.
import type { Engine } from '../engine.js';
import type { OrganizationDoc, StackSetRecord } from '../../storage/index.js';
import { accountsIn } from './organization.js';
import { createInstances, deleteInstances } from './sets.js';
import type { Target } from './targets.js';

export function setOrganizationAccess(engine: Engine, management: string, access: OrganizationDoc['access']): void {
  const { store } = engine.deps;
  const org = store.stackSets.organization(management);
  if (!org) return;
  store.stackSets.putOrganization(management, { ...org, access });
}

/** Replaces the organization of `management`, then deploys to (or removes from) the accounts that moved. */
export function putOrganization(engine: Engine, management: string, org: OrganizationDoc): void {
  engine.deps.store.stackSets.putOrganization(management, org);
  followOrganization(engine, management);
}

/** Each auto-deploying set of the organization brought in line with the accounts its units now hold. */
export function followOrganization(engine: Engine, management: string): void {
  const { store } = engine.deps;
  const org = store.stackSets.organization(management);
  if (!org) return;
  for (const set of store.stackSets.allActive()) {
    if (set.account !== management || set.doc.permissionModel !== 'SERVICE_MANAGED') continue;
    if (!set.doc.autoDeployment?.Enabled) continue;
    follow(engine, set, org);
  }
}

function follow(engine: Engine, set: StackSetRecord, org: OrganizationDoc): void {
  const instances = engine.deps.store.stackSets.instances(set.stackSetId);
  const add: Target[] = [];
  const remove: Target[] = [];
  for (const unit of set.doc.deployedUnits) {
    const members = new Set(accountsIn(org, unit.ou).map((a) => a.account));
    members.delete(set.account);
    for (const region of unit.regions) {
      for (const account of members) {
        if (!instances.some((i) => i.account === account && i.region === region))
          add.push({ account, region, ou: unit.ou });
      }
    }
    for (const i of instances) {
      if (i.doc.organizationalUnitId === unit.ou && !members.has(i.account)) {
        remove.push({ account: i.account, region: i.region, ou: unit.ou });
      }
    }
  }
  const call = (action: string, targets: Target[]) => ({
    preferences: {},
    queue: true,
    request: { action, targets },
  });
  if (add.length) createInstances(engine, set, add, undefined, call('AutoDeployCreate', add));
  if (remove.length) {
    const retain = set.doc.autoDeployment?.RetainStacksOnAccountRemoval ?? false;
    deleteInstances(engine, set, remove, retain, call('AutoDeployDelete', remove));
  }
}
