// How a change set's Status and ExecutionStatus change.
import type { Store } from '../storage/index.js';

/** Pending change sets of a stack become OBSOLETE once the stack changes by another way. */
export function markObsolete(store: Store, stackId: string): void {
  for (const cs of store.changeSets.byStack(stackId)) {
    if (cs.executionStatus !== 'AVAILABLE') continue;
    store.changeSets.save({ ...cs, executionStatus: 'OBSOLETE' });
  }
}
