// The stack-refactor door allows exactly the Status and ExecutionStatus changes its tables (refactorRules.ts) list.
import { afterAll, describe, expect, it } from 'vitest';
import { Store, type StackRefactorRecord } from '../../../storage/index.js';
import { setRefactorStatus } from '../../../state-machine/refactorStatus.js';
import {
  REFACTOR_EXECUTION_TRANSITIONS,
  REFACTOR_TRANSITIONS,
  STACK_REFACTOR_EXECUTION_STATUSES,
  STACK_REFACTOR_STATUSES,
} from '../../../state-machine/statuses.js';

const store = Store.open(':memory:');
afterAll(() => store.close());
let n = 0;
const record = (fields: Partial<StackRefactorRecord>): StackRefactorRecord => ({
  id: `refactor-${++n}`,
  account: '000000000000',
  region: 'us-east-1',
  createdAt: new Date(0).toISOString(),
  status: 'CREATE_IN_PROGRESS',
  executionStatus: 'UNAVAILABLE',
  enableStackCreation: false,
  stacks: [],
  mappings: [],
  moves: [],
  actions: [],
  ...fields,
});
const pairs = <T extends string>(all: readonly T[]) =>
  all.flatMap((from) => all.filter((to) => to !== from).map((to) => [from, to] as const));

describe('Status', () => {
  it.each(pairs(STACK_REFACTOR_STATUSES))('%s → %s follows REFACTOR_TRANSITIONS', (from, to) => {
    const change = () => setRefactorStatus(store, record({ status: from }), { status: to });
    if (REFACTOR_TRANSITIONS[from].includes(to)) expect(change().status).toBe(to);
    else expect(change).toThrow(/illegal stack refactor transition/);
  });
});

describe('ExecutionStatus', () => {
  it.each(pairs(STACK_REFACTOR_EXECUTION_STATUSES))('%s → %s follows REFACTOR_EXECUTION_TRANSITIONS', (from, to) => {
    const change = () => setRefactorStatus(store, record({ executionStatus: from }), { executionStatus: to });
    if (REFACTOR_EXECUTION_TRANSITIONS[from].includes(to)) {
      expect(change().executionStatus).toBe(to);
      expect(store.refactors.byId(`refactor-${n}`)!.executionStatus).toBe(to);
    } else expect(change).toThrow(/illegal refactor execution transition/);
  });
});
