// The control API's simulated organization (docs/stack-sets.md): a management account's organizational units and
// the accounts in each, which service-managed stack sets deploy into; moving an account in or out of a unit sets
// off automatic deployment as adding or removing an account in AWS Organizations does.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OrganizationDoc, OrganizationalUnitDoc } from '../../storage/index.js';
import { OU_ID } from '../../state-machine/stackSets/organization.js';
import { putOrganization } from '../../state-machine/stackSets/autoDeploy.js';
import { PREFIX, isObject, jsonBody, sendError, type ControlDeps } from './controlHttp.js';

const ACCOUNT = /^\d{12}$/;
const FIELDS = ['rootId', 'organizationalUnits', 'accounts', 'delegatedAdministrators', 'trustedAccess'];
const UNIT_FIELDS = ['id', 'name', 'parentId', 'accounts'];

const accountList = (v: unknown) => Array.isArray(v) && v.every((a) => typeof a === 'string' && ACCOUNT.test(a));

function unitError(u: unknown, ids: Set<string>, rootId: string): string | undefined {
  if (!isObject(u)) return 'each of organizationalUnits must be an object';
  const extra = Object.keys(u).find((k) => !UNIT_FIELDS.includes(k));
  if (extra) return `unknown field ${extra} in an organizational unit; allowed: ${UNIT_FIELDS.join(', ')}`;
  if (typeof u.id !== 'string' || !OU_ID.test(u.id) || u.id.startsWith('r-'))
    return `an organizational unit id looks like ou-ab12-cdefgh34 (got ${JSON.stringify(u.id)})`;
  if (u.parentId !== undefined && u.parentId !== rootId && !ids.has(u.parentId as string))
    return `parentId ${JSON.stringify(u.parentId)} of ${u.id} is neither the root (${rootId}) nor a unit listed`;
  if (u.accounts !== undefined && !accountList(u.accounts)) return `accounts of ${u.id} must be 12-digit account ids`;
  return undefined;
}

/** The organization a body describes, or the 400 message saying what is wrong with it. */
function organizationOf(management: string, body: Record<string, unknown>): OrganizationDoc | string {
  const extra = Object.keys(body).find((k) => !FIELDS.includes(k));
  if (extra) return `unknown field ${extra}; allowed: ${FIELDS.join(', ')}`;
  const rootId = body.rootId ?? `r-${management.slice(-4)}`;
  if (typeof rootId !== 'string' || !/^r-[a-z0-9]{4,32}$/.test(rootId))
    return `rootId looks like r-ab12 (got ${JSON.stringify(rootId)})`;
  const units = body.organizationalUnits ?? [];
  if (!Array.isArray(units)) return 'organizationalUnits must be an array';
  const ids = new Set(units.map((u) => (isObject(u) ? u.id : undefined)).filter((id) => typeof id === 'string'));
  for (const u of units) {
    const error = unitError(u, ids, rootId);
    if (error) return error;
  }
  for (const key of ['accounts', 'delegatedAdministrators']) {
    if (body[key] !== undefined && !accountList(body[key])) return `${key} must be 12-digit account ids`;
  }
  if (body.trustedAccess !== undefined && typeof body.trustedAccess !== 'boolean')
    return 'trustedAccess must be true or false';
  const all = [
    ...((body.accounts as string[] | undefined) ?? []),
    ...units.flatMap((u) => (u as { accounts?: string[] }).accounts ?? []),
  ];
  const twice = all.find((a, i) => all.indexOf(a) !== i);
  if (twice) return `account ${twice} is in more than one place: an account belongs to one unit`;
  return {
    id: `o-${management.slice(0, 10)}`,
    rootId,
    units: (units as Record<string, unknown>[]).map((u) => ({
      id: u.id as string,
      name: u.name as string | undefined,
      parentId: (u.parentId as string | undefined) ?? rootId,
      accounts: (u.accounts as string[] | undefined) ?? [],
    })),
    rootAccounts: (body.accounts as string[] | undefined) ?? [],
    delegatedAdministrators: (body.delegatedAdministrators as string[] | undefined) ?? [],
    access: body.trustedAccess ? 'ENABLED' : 'DISABLED',
  };
}

type AccountRequest = FastifyRequest<{ Params: { account: string; member?: string } }>;

/** The member taken out of wherever it is in the organization. */
function withoutMember(org: OrganizationDoc, member: string): OrganizationDoc {
  const units: OrganizationalUnitDoc[] = org.units.map((u) => ({
    ...u,
    accounts: u.accounts.filter((a) => a !== member),
  }));
  return { ...org, units, rootAccounts: org.rootAccounts.filter((a) => a !== member) };
}

export function registerOrganizationApi(app: FastifyInstance, deps: ControlDeps): void {
  const url = `${PREFIX}/organizations/:account`;
  const badAccount = (a: string) => `account must be 12 digits (got ${JSON.stringify(a.slice(0, 64))})`;
  app.put(url, async (req: AccountRequest, reply) => {
    const { account } = req.params;
    if (!ACCOUNT.test(account)) return sendError(reply, 400, badAccount(account));
    const parsed = jsonBody(req);
    if ('error' in parsed) return sendError(reply, 400, parsed.error);
    const org = organizationOf(account, parsed.body);
    if (typeof org === 'string') return sendError(reply, 400, org);
    putOrganization(deps.engine, account, org);
    return { managementAccount: account, ...org };
  });
  app.get(url, async (req: AccountRequest, reply) => {
    const org = deps.store.stackSets.organization(req.params.account);
    return org
      ? { managementAccount: req.params.account, ...org }
      : sendError(reply, 404, `account ${req.params.account} manages no organization`);
  });
  app.delete(url, async (req: AccountRequest) => {
    const had = deps.store.stackSets.organization(req.params.account) !== undefined;
    deps.store.stackSets.removeOrganization(req.params.account);
    return { removed: had ? 1 : 0 };
  });
  // an account moved into a unit (or the root): its sets' automatic deployment follows
  app.put(`${url}/accounts/:member`, async (req: AccountRequest, reply) => {
    const org = deps.store.stackSets.organization(req.params.account);
    if (!org) return sendError(reply, 404, `account ${req.params.account} manages no organization`);
    const member = req.params.member!;
    if (!ACCOUNT.test(member)) return sendError(reply, 400, badAccount(member));
    const parsed = jsonBody(req);
    if ('error' in parsed) return sendError(reply, 400, parsed.error);
    const ou = parsed.body.organizationalUnitId;
    if (ou !== org.rootId && !org.units.some((u) => u.id === ou))
      return sendError(
        reply,
        400,
        `organizationalUnitId must be the root or a unit of the organization (got ${JSON.stringify(ou)})`,
      );
    const next = withoutMember(org, member);
    if (ou === org.rootId) next.rootAccounts.push(member);
    else next.units.find((u) => u.id === ou)!.accounts.push(member);
    putOrganization(deps.engine, req.params.account, next);
    return { managementAccount: req.params.account, ...next };
  });
  app.delete(`${url}/accounts/:member`, async (req: AccountRequest, reply) => {
    const org = deps.store.stackSets.organization(req.params.account);
    if (!org) return sendError(reply, 404, `account ${req.params.account} manages no organization`);
    const next = withoutMember(org, req.params.member!);
    putOrganization(deps.engine, req.params.account, next);
    return { managementAccount: req.params.account, ...next };
  });
}
