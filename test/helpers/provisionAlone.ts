// Creates one resource of a type through its provider (the family file's, else the generic one), in an empty
// in-memory account and without a backend: what a stack's CREATE of that type records (physical id, Ref, attributes).
import { providerFor } from '../../resources/registry.js';
import type { Provisioned, WorldAccess } from '../../resources/provider.js';
import type { WorldResource } from '../../storage/world.js';

export const ACCOUNT = { account: '123456789012', region: 'us-east-1', partition: 'aws', urlSuffix: 'amazonaws.com' };

function memoryWorld(): WorldAccess {
  const rows = new Map<string, WorldResource>();
  const key = (type: string, id: string) => `${type}\u0000${id}`;
  return {
    get: (type, id) => rows.get(key(type, id)),
    byName: (type, name) => [...rows.values()].find((r) => r.type === type && r.name === name),
    list: (type) => [...rows.values()].filter((r) => r.type === type),
    put: (r) => void rows.set(key(r.type, r.physicalId), r),
    remove: (type, id) => void rows.delete(key(type, id)),
    now: () => new Date().toISOString(),
    random: (n) => 'a'.repeat(n),
  };
}

/** The provisioned resource, or the provider's refusal text (Lambda versions and aliases need their function). */
export async function provisionAlone(
  type: string,
  properties: Record<string, unknown> = {},
): Promise<Provisioned | string> {
  const result = await providerFor(type).create(memoryWorld(), {
    ...ACCOUNT,
    stackName: 'ids',
    stackId: `arn:aws:cloudformation:us-east-1:123456789012:stack/ids/00000000-0000-4000-8000-000000000000`,
    logicalId: 'Res',
    type,
    properties,
    requestToken: 'token',
  });
  return result.ok ? result : result.reason;
}
