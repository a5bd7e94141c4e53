// The resource door takes each status from RESOURCE_PHASES: an action's complete or failed follows its start, unless
// the row lets that phase come directly (a refusal before any work, or nothing to do).
import { describe, expect, it } from 'vitest';
import {
  canRecord,
  RESOURCE_PHASES,
  RESOURCE_STATUSES,
  type ResourceAction,
  type ResourcePhase,
} from '../../../state-machine/statuses.js';
import { recordResourceEvent, type OperationContext } from '../../../state-machine/transitions.js';
import type { ResourceRecord } from '../../../storage/index.js';

const ACTIONS = Object.keys(RESOURCE_PHASES) as ResourceAction[];
const PHASES: ResourcePhase[] = ['start', 'complete', 'failed'];

describe('RESOURCE_PHASES', () => {
  it.each(ACTIONS)('%s names only AWS resource statuses', (action) => {
    for (const phase of PHASES) expect(RESOURCE_STATUSES).toContain(RESOURCE_PHASES[action][phase]);
  });

  it.each(ACTIONS.flatMap((action) => PHASES.map((phase) => [action, phase] as const)))(
    '%s %s: allowed from exactly where the row says',
    (action, phase) => {
      const row = RESOURCE_PHASES[action];
      for (const from of RESOURCE_STATUSES) {
        const expected = phase === 'start' || from === row.start || row.direct.includes(phase);
        expect(canRecord(from, action, phase), `${from} → ${action} ${phase}`).toBe(expected);
      }
    },
  );

  it('refuses a create completing without having started', () => {
    expect(canRecord('UPDATE_COMPLETE', 'Create', 'complete')).toBe(false);
    expect(canRecord('CREATE_IN_PROGRESS', 'Create', 'complete')).toBe(true);
    expect(canRecord('CREATE_COMPLETE', 'RollbackUpdate', 'failed')).toBe(false);
  });

  it('lets a failed pre-delete hook fail a delete before it starts', () => {
    expect(canRecord('CREATE_COMPLETE', 'Delete', 'failed')).toBe(true);
  });
});

describe('recordResourceEvent (an event that changes no status)', () => {
  it('refuses a resource outside an action, as the door refuses an illegal transition', () => {
    const settled = { stackId: 's', logicalId: 'R', status: 'CREATE_COMPLETE' } as ResourceRecord;
    expect(() =>
      recordResourceEvent({} as OperationContext, settled, 'Received SUCCESS signal with UniqueId i'),
    ).toThrow('no event of R of s outside an action (CREATE_COMPLETE)');
  });
});
