// DeregisterType and SetTypeDefaultVersion: an extension's versions. A version other than the default is deprecated
// alone; the default one only with the whole extension, and the whole extension only once it has no other live
// version, with AWS's texts (recorded from AWS). A deprecated version stays listed (DeprecatedStatus DEPRECATED).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DeregisterType.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_SetTypeDefaultVersion.html
import type { Caller, Engine } from '../engine.js';
import type { ExtensionRecord } from '../../storage/index.js';
import { registryError, typeNotFound } from '../../domain/errors.js';
import { findExtension, liveVersions, type ExtensionRef } from './extensions.js';
import { refreshSpec } from './specs.js';

// AWS answers a version the type does not have with this text (recorded from AWS).
const versionNotFound = () => registryError('TypeName is invalid');

function registeredExtension(engine: Engine, scope: Caller, ref: ExtensionRef) {
  const found = findExtension(engine.deps.store, scope, ref);
  // an activated public extension leaves through DeactivateType
  if (found.ext.activation) throw typeNotFound(found.ext.typeName);
  return found;
}

export function deregisterType(engine: Engine, scope: Caller, ref: ExtensionRef): void {
  const { store, clock } = engine.deps;
  const { ext, versionId } = registeredExtension(engine, scope, ref);
  const live = liveVersions(ext);
  if (versionId !== undefined) {
    if (!live.some((v) => v.versionId === versionId)) throw versionNotFound();
    if (versionId === ext.defaultVersionId) {
      throw registryError(
        `Version '${versionId}' is the default version and cannot be deregistered. Deregister the resource type '${ext.typeName}' instead.`,
      );
    }
    save(
      engine,
      deprecate(ext, (v) => v === versionId, clock.now().toISOString()),
    );
    return;
  }
  if (live.length > 1) {
    throw registryError(
      'This type has more than one active version. Please deregister non-default active versions before attempting to deregister the type.',
    );
  }
  store.transaction(() => {
    store.registry.saveType(deprecate(ext, () => true, clock.now().toISOString()));
    store.registry.dropConfigurations(scope.account, scope.region, ext.category, ext.typeName);
  });
  refreshSpec(store, ext.typeName);
}

export function setTypeDefaultVersion(engine: Engine, scope: Caller, ref: ExtensionRef): void {
  const { ext, versionId } = registeredExtension(engine, scope, ref);
  if (versionId === undefined || !liveVersions(ext).some((v) => v.versionId === versionId)) throw versionNotFound();
  save(engine, { ...ext, defaultVersionId: versionId, lastUpdated: engine.deps.clock.now().toISOString() });
}

function deprecate(ext: ExtensionRecord, which: (versionId: string) => boolean, now: string): ExtensionRecord {
  return {
    ...ext,
    versions: ext.versions.map((v) => (which(v.versionId) ? { ...v, deprecated: true } : v)),
    lastUpdated: now,
  };
}

function save(engine: Engine, ext: ExtensionRecord): void {
  engine.deps.store.registry.saveType(ext);
  refreshSpec(engine.deps.store, ext.typeName);
}
