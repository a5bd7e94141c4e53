// Where the engine learns which hooks an account and region have: the registry's hook types with a type
// configuration (SetTypeConfiguration), as ConfiguredHook rows.
import type { ReadonlyStore } from '../../storage/index.js';
import type { ConfiguredHook } from './configuration.js';

export function configuredHooks(_store: ReadonlyStore, _account: string, _region: string): ConfiguredHook[] {
  return [];
}
