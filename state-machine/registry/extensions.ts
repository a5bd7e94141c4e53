// How the registry's handlers find an account's extension: by Arn (a type's or one version's) or by Type and
// TypeName, with AWS's refusals; and what of an extension is live (its versions not deregistered).
import type { Caller } from '../engine.js';
import type { ExtensionCategory, ExtensionRecord, ExtensionVersionRecord, ReadonlyStore } from '../../storage/index.js';
import { typeNotFound, validationError } from '../../domain/errors.js';
import { CATEGORIES, dashedEquals, parseTypeArn, typeArn, versionArn } from './arns.js';

/** What DescribeType, DeregisterType, SetTypeDefaultVersion… name an extension by. */
export interface ExtensionRef {
  Arn?: string;
  Type?: string;
  TypeName?: string;
  VersionId?: string;
}

export const liveVersions = (ext: ExtensionRecord) => ext.versions.filter((v) => !v.deprecated);
export const isLive = (ext: ExtensionRecord) => liveVersions(ext).length > 0;

export function defaultVersion(ext: ExtensionRecord): ExtensionVersionRecord | undefined {
  return ext.versions.find((v) => v.versionId === ext.defaultVersionId && !v.deprecated);
}

export const extensionArn = (scope: Caller, ext: ExtensionRecord) => typeArn(scope, ext.category, ext.typeName);
export const versionArnOf = (scope: Caller, ext: ExtensionRecord, v: ExtensionVersionRecord) =>
  versionArn(scope, ext.category, ext.typeName, v.versionId);

export function categoryOf(type: string | undefined): ExtensionCategory {
  if (type === undefined) return 'RESOURCE';
  if (!CATEGORIES.includes(type as ExtensionCategory)) {
    throw validationError(
      `1 validation error detected: Value '${type}' at 'type' failed to satisfy constraint: Member must satisfy enum value set: [RESOURCE, MODULE, HOOK]`,
    );
  }
  return type as ExtensionCategory;
}

/** Either Arn, or Type and TypeName: AWS refuses both and neither. */
export function checkRef(ref: ExtensionRef): void {
  if (ref.Arn !== undefined && (ref.TypeName !== undefined || ref.Type !== undefined)) {
    throw validationError('Only one of Arn or TypeName and Type can be specified');
  }
  if (ref.Arn === undefined && ref.TypeName === undefined) {
    throw validationError('Either Arn or TypeName and Type must be specified');
  }
}

/** The named extension of the caller's account and region (live or not), or undefined. */
export function lookupExtension(
  store: Pick<ReadonlyStore, 'registry'>,
  scope: Caller,
  ref: ExtensionRef,
): { ext?: ExtensionRecord; name: string; versionId?: string } {
  if (ref.Arn !== undefined) {
    const parsed = parseTypeArn(ref.Arn);
    if (!parsed || parsed.account !== scope.account || parsed.region !== scope.region) return { name: ref.Arn };
    const ext = store.registry
      .types(scope.account, scope.region)
      .find((e) => e.category === parsed.category && dashedEquals(e.typeName, parsed.dashedName));
    return { ext, name: ext?.typeName ?? ref.Arn, versionId: parsed.versionId ?? ref.VersionId };
  }
  const name = ref.TypeName ?? '';
  const ext = store.registry.type(scope.account, scope.region, categoryOf(ref.Type), name);
  return { ext, name, versionId: ref.VersionId };
}

/** The named live extension, else TypeNotFoundException. */
export function findExtension(store: Pick<ReadonlyStore, 'registry'>, scope: Caller, ref: ExtensionRef) {
  checkRef(ref);
  const found = lookupExtension(store, scope, ref);
  if (!found.ext || !isLive(found.ext)) throw typeNotFound(found.name);
  return { ext: found.ext, versionId: found.versionId };
}

/** Whether a template in this account and region may use `typeName`: a live registered or activated resource type. */
export function isUsableType(store: Pick<ReadonlyStore, 'registry'>, scope: Caller, typeName: string): boolean {
  const ext = store.registry.type(scope.account, scope.region, 'RESOURCE', typeName);
  return ext !== undefined && defaultVersion(ext) !== undefined;
}
