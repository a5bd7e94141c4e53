// DeleteStack's run: resources in reverse dependency order, independent branches continuing past a failure;
// DELETE_COMPLETE, or DELETE_FAILED listing every resource that could not be deleted (a retry resumes).
import { setStackStatus } from '../transitions.js';
import type { StackStatus } from '../statuses.js';
import type { Runtime } from '../runtime.js';
import { exportsInUse } from './outputs.js';
import { deleteInOrder, failedToDelete, standing } from './deletePlan.js';

export async function runDelete(rt: Runtime, statusBefore: StackStatus): Promise<void> {
  const inUse = exportsInUse(rt, new Map());
  if (inUse) {
    // AWS sends the stack back to where it was rather than to DELETE_FAILED.
    const back = statusBefore === 'DELETE_FAILED' ? 'DELETE_FAILED' : statusBefore;
    setStackStatus(rt, rt.stack, back, inUse);
    return;
  }
  const targets = standing(rt.resources.values()).map((record) => ({ record }));
  const { failed } = await deleteInOrder(rt, targets, 'stack-delete');
  if (failed.length) {
    setStackStatus(rt, rt.stack, 'DELETE_FAILED', failedToDelete(failed));
    return;
  }
  rt.store.transaction(() => {
    rt.store.exports.removeByStack(rt.stack.stackId);
    rt.store.exports.setImports(rt.stack.account, rt.stack.region, rt.stack.stackId, []);
    setStackStatus(rt, rt.stack, 'DELETE_COMPLETE');
  });
}
