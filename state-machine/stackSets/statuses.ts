// The statuses of a stack set operation and where each may go, as one table: the runner moves an operation only
// along it (setOperationStatus), so a stopped operation never turns SUCCEEDED and an ended one never runs again.
import type { SetOperationDoc, SetOperationRecord, Store } from '../../storage/index.js';

type Status = SetOperationDoc['status'];

export const SET_OPERATION_TRANSITIONS: { readonly [S in Status]: readonly Status[] } = {
  QUEUED: ['RUNNING', 'STOPPED'],
  RUNNING: ['SUCCEEDED', 'FAILED', 'STOPPING'],
  STOPPING: ['STOPPED', 'FAILED'],
  SUCCEEDED: [],
  FAILED: [],
  STOPPED: [],
};

export const isFinal = (s: Status) => SET_OPERATION_TRANSITIONS[s].length === 0;

/** Moves the operation to `to` when the table allows it; returns whether it moved. */
export function setOperationStatus(store: Store, op: SetOperationRecord, to: Status, endedAt?: string): boolean {
  if (!SET_OPERATION_TRANSITIONS[op.doc.status].includes(to)) return false;
  op.doc.status = to;
  if (isFinal(to) && endedAt) op.doc.endedAt = endedAt;
  store.stackSets.putOperation(op);
  return true;
}
