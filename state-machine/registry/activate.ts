// ActivateType and DeactivateType: a public third-party extension of the catalogue becomes usable in the caller's
// account and region, under its own name or the TypeNameAlias given, with one version (the catalogue's).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ActivateType.html
import type { Caller, Engine } from '../engine.js';
import type { CatalogueEntry, ExtensionCategory } from '../../storage/index.js';
import { registryError, typeNotFound, validationError } from '../../domain/errors.js';
import { parseTypeArn, publicTypeArn, typeArn, versionIdOf, dashedEquals } from './arns.js';
import { catalogueOf } from './catalogue.js';
import { categoryOf, isLive } from './extensions.js';
import { provisioningTypeOf } from './schemaRules.js';
import { refreshSpec } from './specs.js';

export interface ActivateRequest {
  Type?: string;
  PublicTypeArn?: string;
  PublisherId?: string;
  TypeName?: string;
  TypeNameAlias?: string;
  AutoUpdate?: boolean;
  ExecutionRoleArn?: string;
  LoggingConfig?: { LogRoleArn: string; LogGroupName: string };
}

/** The catalogue entry an ActivateType names: by PublicTypeArn, or by Type, TypeName and PublisherId. */
export function publicEntry(engine: Engine, request: ActivateRequest): CatalogueEntry {
  const catalogue = catalogueOf(engine.deps.store);
  if (request.PublicTypeArn !== undefined) {
    const parsed = parseTypeArn(request.PublicTypeArn);
    const found = parsed
      ? catalogue.find(
          (e) =>
            e.category === parsed.category &&
            e.publisherId === parsed.publisherId &&
            dashedEquals(e.typeName, parsed.dashedName),
        )
      : undefined;
    if (!found) throw typeNotFound(request.PublicTypeArn);
    return found;
  }
  if (request.TypeName === undefined || request.PublisherId === undefined) {
    throw validationError('Either PublicTypeArn, or TypeName, Type and PublisherId must be specified');
  }
  const category = categoryOf(request.Type);
  const found = catalogue.find(
    (e) => e.category === category && e.typeName === request.TypeName && e.publisherId === request.PublisherId,
  );
  if (!found) throw typeNotFound(request.TypeName);
  return found;
}

/** Activates the entry; returns the ARN of the extension in this account and region. */
export function activateType(engine: Engine, scope: Caller, request: ActivateRequest): string {
  const { store, clock } = engine.deps;
  const entry = publicEntry(engine, request);
  const name = request.TypeNameAlias ?? entry.typeName;
  const existing = store.registry.type(scope.account, scope.region, entry.category, name);
  if (existing && isLive(existing) && existing.activation?.originalTypeName !== entry.typeName) {
    throw registryError(`Type ${name} already exists in this account and region`);
  }
  const now = clock.now().toISOString();
  const schema = JSON.parse(entry.schema) as Record<string, unknown>;
  store.registry.saveType({
    account: scope.account,
    region: scope.region,
    category: entry.category,
    typeName: name,
    defaultVersionId: versionIdOf(1),
    lastVersion: 1,
    timeCreated: existing?.timeCreated ?? now,
    lastUpdated: now,
    versions: [
      {
        versionId: versionIdOf(1),
        // an alias renames the type in this account: its schema's typeName is the name templates use
        schema: JSON.stringify({ ...schema, typeName: name }),
        description: entry.description,
        timeCreated: now,
        deprecated: false,
        executionRoleArn: request.ExecutionRoleArn,
        loggingConfig: request.LoggingConfig,
        sourceUrl: entry.sourceUrl,
        documentationUrl: entry.documentationUrl,
        provisioningType: entry.category === 'RESOURCE' ? provisioningTypeOf(schema) : undefined,
        publicVersionNumber: entry.publicVersionNumber,
      },
    ],
    activation: {
      publisherId: entry.publisherId,
      originalTypeName: entry.typeName,
      publicTypeArn: publicTypeArn(scope, entry.category, entry.typeName, entry.publisherId),
      autoUpdate: request.AutoUpdate ?? true,
    },
  });
  refreshSpec(store, name);
  return typeArn(scope, entry.category, name);
}

/** Deactivates an activated extension (by its ARN in this account, or by Type and TypeName). */
export function deactivateType(
  engine: Engine,
  scope: Caller,
  request: { Arn?: string; Type?: string; TypeName?: string },
) {
  const { store } = engine.deps;
  let category: ExtensionCategory;
  let name: string | undefined;
  if (request.Arn !== undefined) {
    const parsed = parseTypeArn(request.Arn);
    if (!parsed || parsed.account !== scope.account || parsed.region !== scope.region) throw typeNotFound(request.Arn);
    category = parsed.category;
    name = store.registry
      .types(scope.account, scope.region)
      .find((e) => e.category === category && dashedEquals(e.typeName, parsed.dashedName))?.typeName;
    if (name === undefined) throw typeNotFound(request.Arn);
  } else {
    if (request.TypeName === undefined) throw validationError('Either Arn or TypeName and Type must be specified');
    category = categoryOf(request.Type);
    name = request.TypeName;
  }
  const ext = store.registry.type(scope.account, scope.region, category, name);
  if (!ext || !ext.activation || !isLive(ext)) throw typeNotFound(name);
  store.transaction(() => {
    store.registry.deleteType(scope.account, scope.region, category, name);
    store.registry.dropConfigurations(scope.account, scope.region, category, name);
  });
  refreshSpec(store, name);
}
