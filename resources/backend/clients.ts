// The AWS SDK v3 clients backend providers call, pointed at the backend. The SDK packages load on first use only
// (the bundle leaves them out: scripts/bundle.mjs), so a server without --backend starts as fast as before.
import type { BackendEndpoint } from '../provider.js';

type Ctor<T> = new (config: Record<string, unknown>) => T;

/**
 * One client per (class, backend URL, account, region). The access key is the account: moto maps keys it does not
 * know to MOTO_ACCOUNT_ID (cfn-local's default account when it runs moto), LocalStack and MiniStack read a 12-digit
 * key as the account itself.
 */
const CACHE = new Map<string, unknown>();

export async function clientFor<T>(
  backend: BackendEndpoint,
  scope: { account: string; region: string },
  name: string,
  load: () => Promise<Ctor<T>>,
  extra: () => Record<string, unknown> = () => ({}),
): Promise<T> {
  const url = await backend.url();
  const key = `${name} ${url} ${scope.account} ${scope.region}`;
  let client = CACHE.get(key) as T | undefined;
  if (!client) {
    const ClientClass = await load();
    client = new ClientClass({
      endpoint: url,
      region: scope.region,
      credentials: { accessKeyId: scope.account, secretAccessKey: 'cfn-local' },
      maxAttempts: 3,
      ...extra(),
    });
    CACHE.set(key, client);
  }
  return client;
}
