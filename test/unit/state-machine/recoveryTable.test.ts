// Every in-progress stack status has a way out: a restart resumes it (RESUME) and an unexpected error settles it
// (ON_INTERNAL_FAILURE) in a status the transition table allows. A status added without both fails here.
import { describe, expect, it } from 'vitest';
import { canTransition, isInProgress, ON_INTERNAL_FAILURE, STACK_STATUSES } from '../../../state-machine/statuses.js';
import { RESUME } from '../../../state-machine/recovery.js';

const IN_PROGRESS = STACK_STATUSES.filter(isInProgress);

describe('the ways out of each in-progress status', () => {
  it('covers the in-progress statuses AWS has, imports included', () => {
    expect(IN_PROGRESS).toContain('IMPORT_IN_PROGRESS');
    expect(IN_PROGRESS).toContain('IMPORT_ROLLBACK_IN_PROGRESS');
    expect(IN_PROGRESS).not.toContain('REVIEW_IN_PROGRESS');
  });

  it.each(IN_PROGRESS)('%s: a restart resumes it', (status) => {
    expect(RESUME[status]).toBeTypeOf('function');
  });

  it.each(IN_PROGRESS)('%s: an internal failure settles it where the table allows', (status) => {
    const to = ON_INTERNAL_FAILURE[status];
    expect(to).toBeDefined();
    expect(isInProgress(to)).toBe(false);
    expect(canTransition(status, to)).toBe(true);
  });
});
