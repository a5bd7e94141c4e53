// RegisterType: the registration is recorded IN_PROGRESS with its version's ARN before the call returns, as AWS
// answers it (DescribeType does not find the version yet), and settles right after: COMPLETE with a new version,
// or FAILED with the reason. A restart settles what it cut short (recoverRegistrations). The first version of a
// type becomes its default; later ones do not until SetTypeDefaultVersion.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_RegisterType.html
import { v4 as uuidv4 } from 'uuid';
import type { Caller, Engine } from '../engine.js';
import type { ExtensionCategory, ExtensionRecord, RegistrationRecord, Store } from '../../storage/index.js';
import { REAL_TIMERS } from '../../resources/timers.js';
import { registryError } from '../../domain/errors.js';
import { typeArn, versionArn, versionIdOf } from './arns.js';
import { readHandlerPackage } from './handlerPackage.js';
import { checkSchema, provisioningTypeOf } from './schemaRules.js';
import { refreshSpec } from './specs.js';
import { isLive } from './extensions.js';

export interface RegisterRequest {
  category: ExtensionCategory;
  typeName: string;
  schemaHandlerPackage: string;
  executionRoleArn?: string;
  loggingConfig?: { LogRoleArn: string; LogGroupName: string };
  clientRequestToken?: string;
}

// The registration's Description as AWS words it for each stage (what `cfn submit` prints while it waits).
const DESCRIPTIONS = {
  IN_PROGRESS: 'Deployment is currently in DEPLOY_STAGE of status IN_PROGRESS; ',
  COMPLETE: 'Deployment is currently in DEPLOY_STAGE of status COMPLETED; ',
  FAILED: (reason: string) => `Deployment is currently in VALIDATE_STAGE of status FAILED; ${reason}`,
};

/** Records the registration and starts settling it; returns its RegistrationToken. */
export async function registerType(engine: Engine, scope: Caller, request: RegisterRequest): Promise<string> {
  const { store, clock } = engine.deps;
  const { category, typeName } = request;
  const existing = store.registry.type(scope.account, scope.region, category, typeName);
  if (existing?.activation && isLive(existing)) {
    throw registryError(`Type ${typeName} is already activated in this account and region`);
  }
  if (request.clientRequestToken !== undefined) {
    const same = store.registry
      .registrations(scope.account, scope.region)
      .find((r) => r.clientRequestToken === request.clientRequestToken);
    if (same) return same.token;
  }
  const read = await readHandlerPackage(store, scope, request.schemaHandlerPackage, typeName);
  const checked = 'failure' in read ? read : checkSchema(category, typeName, read.schema);
  const now = clock.now().toISOString();
  const ext = reserveVersion(store, scope, category, typeName, now);
  const versionId = versionIdOf(ext.lastVersion);
  const registration: RegistrationRecord = {
    token: uuidv4(),
    account: scope.account,
    region: scope.region,
    createdAt: now,
    category,
    typeName,
    status: 'IN_PROGRESS',
    description: DESCRIPTIONS.IN_PROGRESS,
    clientRequestToken: request.clientRequestToken,
    typeArn: typeArn(scope, category, typeName),
    typeVersionArn: versionArn(scope, category, typeName, versionId),
    versionId,
    ...('failure' in checked
      ? { failure: checked.failure }
      : {
          pending: {
            schema: JSON.stringify(checked.schema),
            description: str(checked.schema.description),
            sourceUrl: str(checked.schema.sourceUrl),
            documentationUrl: str(checked.schema.documentationUrl),
            provisioningType: category === 'RESOURCE' ? provisioningTypeOf(checked.schema) : undefined,
            executionRoleArn: request.executionRoleArn,
            loggingConfig: request.loggingConfig,
            configurationSchema: 'configurationSchema' in read ? read.configurationSchema : undefined,
          },
        }),
  };
  store.registry.saveRegistration(registration);
  (engine.deps.timers ?? REAL_TIMERS).setTimeout(() => settle(store, registration.token, clock.now()), 0);
  return registration.token;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The extension with one more version number taken (a new extension has no live version until one completes). */
function reserveVersion(
  store: Store,
  scope: Caller,
  category: ExtensionCategory,
  typeName: string,
  now: string,
): ExtensionRecord {
  const ext = store.registry.type(scope.account, scope.region, category, typeName) ?? {
    account: scope.account,
    region: scope.region,
    category,
    typeName,
    defaultVersionId: '',
    versions: [],
    lastVersion: 0,
    timeCreated: now,
    lastUpdated: now,
  };
  const next = { ...ext, lastVersion: ext.lastVersion + 1, activation: undefined };
  store.registry.saveType(next);
  return next;
}

/** IN_PROGRESS → COMPLETE (the version is made, the first one default) or FAILED. */
function settle(store: Store, token: string, now: Date): void {
  const r = store.registry.registration(token);
  if (!r || r.status !== 'IN_PROGRESS') return;
  if (!r.pending) {
    store.registry.saveRegistration({ ...r, status: 'FAILED', description: DESCRIPTIONS.FAILED(r.failure ?? '') });
    return;
  }
  const ext = store.registry.type(r.account, r.region, r.category, r.typeName);
  if (!ext) return;
  const at = now.toISOString();
  const versionId = r.versionId ?? versionIdOf(ext.lastVersion);
  const first = !isLive(ext);
  store.transaction(() => {
    store.registry.saveType({
      ...ext,
      defaultVersionId: first ? versionId : ext.defaultVersionId,
      versions: [...ext.versions, { ...r.pending!, versionId, timeCreated: at, deprecated: false }],
      timeCreated: first ? at : ext.timeCreated,
      lastUpdated: at,
    });
    store.registry.saveRegistration({ ...r, status: 'COMPLETE', description: DESCRIPTIONS.COMPLETE });
  });
  refreshSpec(store, r.typeName);
}

/** At start: registrations a restart cut short settle as they would have. */
export function recoverRegistrations(engine: Engine): void {
  const { store, clock } = engine.deps;
  for (const r of store.registry.unsettledRegistrations()) settle(store, r.token, clock.now());
}
