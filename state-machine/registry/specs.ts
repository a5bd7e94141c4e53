// Keeps resources/spec.ts's PRIVATE_SPECS in step with the registry: each registered or activated resource type's
// default version's schema, read as a ResourceSpec, so the generic provider deploys it. Called after every change of
// an extension's versions, and once at start for what the database already holds.
import type { Store } from '../../storage/index.js';
import { PRIVATE_SPECS } from '../../resources/spec.js';
import { specOfSchema } from '../../resources/schemaSpec.js';
import { defaultVersion } from './extensions.js';

/** Re-reads the spec of `typeName` from the most recently created live resource type of that name, in any account. */
export function refreshSpec(store: Pick<Store, 'registry'>, typeName: string): void {
  const ext = store.registry
    .typesNamed(typeName)
    .find((e) => e.category === 'RESOURCE' && defaultVersion(e) !== undefined);
  const version = ext && defaultVersion(ext);
  if (!version) {
    PRIVATE_SPECS.delete(typeName);
    return;
  }
  PRIVATE_SPECS.set(typeName, specOfSchema(typeName, JSON.parse(version.schema) as Record<string, unknown>));
}

/** At start: the specs of every resource type the database holds. */
export function loadSpecs(store: Pick<Store, 'registry'>): void {
  for (const name of store.registry.resourceTypeNames()) refreshSpec(store, name);
}
