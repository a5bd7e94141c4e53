// The console's read of stack sets (docs/console.md): every account's sets, each with its instances (status per
// account and region) and its newest operations with their per-account results, as the stack set actions show them.
import type { FastifyInstance } from 'fastify';
import {
  describeOperation,
  summarizeInstance,
  summarizeResult,
  summarizeSet,
} from '../../handlers/cloudformation/stackSets/views.js';
import { PREFIX, type ControlDeps } from './controlHttp.js';

/** The console lists this many sets at most (newest first), each with its newest operations. */
export const MAX_SETS = 1_000;
export const MAX_SET_OPERATIONS = 20;

export function registerConsoleStackSets(app: FastifyInstance, deps: ControlDeps): void {
  app.get(`${PREFIX}/stack-sets`, async () => {
    const sets = deps.store.stackSets.every(MAX_SETS);
    return {
      stackSets: sets.map((set) => ({
        ...summarizeSet(set),
        Account: set.account,
        Region: set.region,
        Instances: deps.store.stackSets.instances(set.stackSetId).map(summarizeInstance),
        Operations: deps.store.stackSets
          .operations(set.stackSetId)
          .slice(0, MAX_SET_OPERATIONS)
          .map((op) => ({
            ...describeOperation(op),
            Results: deps.store.stackSets.results(set.stackSetId, op.operationId).map(summarizeResult),
          })),
      })),
    };
  });
}
