// The provisioning type DescribeType answers for a resource type in an account: the account's own registered or
// activated type (its default version's), else AWS's type. Stack refactors move only FULLY_MUTABLE types.
import type { Caller } from '../engine.js';
import type { ReadonlyStore } from '../../storage/index.js';
import { awsProvisioningType } from '../../resources/typeSchemas.js';
import { isKnownType } from '../../resources/spec.js';
import { defaultVersion, isLive } from './extensions.js';

/** FULLY_MUTABLE, IMMUTABLE or NON_PROVISIONABLE; undefined for a type the registry does not know. */
export function provisioningTypeIn(
  store: Pick<ReadonlyStore, 'registry'>,
  scope: Pick<Caller, 'account' | 'region'>,
  typeName: string,
): string | undefined {
  const ext = store.registry.type(scope.account, scope.region, 'RESOURCE', typeName);
  if (ext && isLive(ext)) return defaultVersion(ext)?.provisioningType ?? 'FULLY_MUTABLE';
  return isKnownType(typeName) ? awsProvisioningType(typeName) : undefined;
}
