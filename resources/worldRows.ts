// The account's row of a stack's resource: kept under its physical id, or, for a name unique only within its parent
// (an API Gateway stage, a record set), under the parent-scoped key worldIdOf gives (resources/generic/identity.ts).
import type { WorldResource } from '../storage/world.js';
import { worldIdOf } from './generic/identity.js';
import type { WorldAccess } from './provider.js';

export interface OwnedResource {
  readonly type: string;
  readonly physicalId?: string;
  /** The properties as the stack last wrote them (a scoped name's parent is among them). */
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly stackId?: string;
  readonly logicalId?: string;
}

/**
 * The row, found by its key; a scoped name whose parent the properties do not carry (a delete with none) is found
 * among the type's rows by the stack and logical id that own it.
 */
export function rowOf(world: Pick<WorldAccess, 'get' | 'list'>, r: OwnedResource): WorldResource | undefined {
  if (!r.physicalId) return undefined;
  const key = worldIdOf(r.type, r.physicalId, r.properties ?? {});
  const found = world.get(r.type, key);
  if (found || key === r.physicalId || !r.stackId) return found;
  return world
    .list?.(r.type)
    .find(
      (w) => w.stackId === r.stackId && w.logicalId === r.logicalId && w.physicalId.split('|').includes(r.physicalId!),
    );
}

/** A stack's resource record as rowOf reads it. */
export function ownedBy(r: {
  type: string;
  physicalId?: string;
  stackId?: string;
  logicalId: string;
  doc: { properties?: Record<string, unknown> };
}): OwnedResource {
  return {
    type: r.type,
    physicalId: r.physicalId,
    properties: r.doc.properties,
    stackId: r.stackId,
    logicalId: r.logicalId,
  };
}
