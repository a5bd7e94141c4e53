// What every backend family file needs first: its SDK module (loaded on first use: sdk.ts) and its client for a
// call (one per backend, account and region: clients.ts), so a family opens with one line, not the same two.
import { clientFor } from './clients.js';
import { backendSdk, type BackendSdk } from './sdk.js';
import type { BackendCall } from './provider.js';
import { isNotFound } from './errors.js';

type Ctor<T> = new (config: Record<string, unknown>) => T;

export interface Family<M, C> {
  /** The family's SDK module (its commands and client class). */
  sdk: () => Promise<M>;
  /** The family's client, pointed at the call's backend, for the call's account and region. */
  client: (call: BackendCall) => Promise<C>;
}

export function family<K extends keyof BackendSdk, C>(
  key: K,
  clientClass: (m: BackendSdk[K]) => Ctor<C>,
): Family<BackendSdk[K], C> {
  const sdk = async () => backendSdk()[key];
  return {
    sdk,
    client: async (call) => clientFor<C>(call.backend, call.req, key, async () => clientClass(await sdk())),
  };
}

/** Runs `work`; the backend's "not found" counts as done (a detach or delete of what is already gone). */
export async function ignoringMissing(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
