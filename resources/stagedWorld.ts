// A view of the world whose writes are held back until commit(), so that a provider may await (a custom
// resource's reply, a delay) and its world change still lands in the same transaction as the status it causes.
import type { WorldResource } from '../storage/world.js';
import type { WorldAccess } from './provider.js';

export interface StagedWorld extends WorldAccess {
  commit(): void;
}

export function stagedWorld(base: WorldAccess): StagedWorld {
  const writes = new Map<string, { type: string; physicalId: string; resource?: WorldResource }>();
  const key = (type: string, id: string) => `${type}\u0000${id}`;
  return {
    get(type, id) {
      const staged = writes.get(key(type, id));
      return staged ? staged.resource : base.get(type, id);
    },
    byName(type, name) {
      for (const w of writes.values()) if (w.type === type && w.resource?.name === name) return w.resource;
      const found = base.byName(type, name);
      return found && writes.has(key(type, found.physicalId)) && !writes.get(key(type, found.physicalId))!.resource
        ? undefined
        : found;
    },
    byNameInAccount(type, name) {
      for (const w of writes.values()) if (w.type === type && w.resource?.name === name) return w.resource;
      const found = base.byNameInAccount?.(type, name);
      return found && writes.has(key(type, found.physicalId)) && !writes.get(key(type, found.physicalId))!.resource
        ? undefined
        : found;
    },
    list(type) {
      const listed = new Map((base.list?.(type) ?? []).map((r) => [key(type, r.physicalId), r]));
      for (const [k, w] of writes) {
        if (w.type !== type) continue;
        if (w.resource) listed.set(k, w.resource);
        else listed.delete(k);
      }
      return [...listed.values()];
    },
    put(resource) {
      writes.set(key(resource.type, resource.physicalId), {
        type: resource.type,
        physicalId: resource.physicalId,
        resource,
      });
    },
    remove(type, id) {
      writes.set(key(type, id), { type, physicalId: id });
    },
    now: base.now,
    random: base.random,
    commit() {
      for (const w of writes.values()) {
        if (w.resource) base.put(w.resource);
        else base.remove(w.type, w.physicalId);
      }
      writes.clear();
    },
  };
}
