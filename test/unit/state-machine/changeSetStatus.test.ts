// The change-set door allows exactly the Status and ExecutionStatus changes its tables in statuses.ts list.
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../../storage/index.js';
import { setChangeSetStatus } from '../../../state-machine/changeSetStatus.js';
import {
  CHANGE_SET_STATUSES,
  CHANGE_SET_TRANSITIONS,
  EXECUTION_STATUSES,
  EXECUTION_TRANSITIONS,
} from '../../../state-machine/statuses.js';
import type { ChangeSetRecord } from '../../../storage/index.js';

const store = Store.open(':memory:');
afterAll(() => store.close());
let n = 0;
const record = (fields: Partial<ChangeSetRecord>): ChangeSetRecord => ({
  changeSetId: `arn:aws:cloudformation:us-east-1:000000000000:changeSet/cs${++n}/x`,
  account: '000000000000',
  region: 'us-east-1',
  stackId: 'arn:aws:cloudformation:us-east-1:000000000000:stack/s/x',
  name: `cs${n}`,
  status: 'CREATE_PENDING',
  executionStatus: 'UNAVAILABLE',
  createdAt: new Date(0).toISOString(),
  deleted: false,
  doc: {},
  ...fields,
});

describe('Status', () => {
  it.each(
    CHANGE_SET_STATUSES.flatMap((from) =>
      CHANGE_SET_STATUSES.filter((to) => to !== from).map((to) => [from, to] as const),
    ),
  )('%s → %s follows CHANGE_SET_TRANSITIONS', (from, to) => {
    const change = () => setChangeSetStatus(store, record({ status: from }), { status: to });
    if (CHANGE_SET_TRANSITIONS[from].includes(to)) expect(change().status).toBe(to);
    else expect(change).toThrow(/illegal change set transition/);
  });
});

describe('ExecutionStatus', () => {
  it.each(
    EXECUTION_STATUSES.flatMap((from) =>
      EXECUTION_STATUSES.filter((to) => to !== from).map((to) => [from, to] as const),
    ),
  )('%s → %s follows EXECUTION_TRANSITIONS', (from, to) => {
    const change = () => setChangeSetStatus(store, record({ executionStatus: from }), { executionStatus: to });
    if (EXECUTION_TRANSITIONS[from].includes(to)) expect(change().executionStatus).toBe(to);
    else expect(change).toThrow(/illegal execution status transition/);
  });
});
