// Where the engine learns which hooks an account and region have: the registry's hook types with a type
// configuration (SetTypeConfiguration), as ConfiguredHook rows.
import type { ReadonlyStore } from '../../storage/index.js';
import { configuredHooks as registryHooks } from '../registry/configuredHooks.js';
import type { ConfiguredHook } from './configuration.js';

export function configuredHooks(store: ReadonlyStore, account: string, region: string): ConfiguredHook[] {
  return registryHooks(store, { account, region });
}
