// Statuses as the AWS console shows them: the colour family of each CloudFormation status.
export type Tone = 'success' | 'error' | 'warning' | 'info' | 'stopped';

/** The statuses whose tone their suffix does not tell (a finished rollback is a failure the stack survived). */
const EXCEPTIONS: Partial<Record<string, Tone>> = {
  ROLLBACK_COMPLETE: 'error',
  ROLLBACK_FAILED: 'error',
  UPDATE_ROLLBACK_COMPLETE: 'warning',
  IMPORT_ROLLBACK_COMPLETE: 'warning',
  DELETE_COMPLETE: 'stopped',
  DELETE_SKIPPED: 'stopped',
  REVIEW_IN_PROGRESS: 'info',
  // drift: the stack's and each resource's
  IN_SYNC: 'success',
  DRIFTED: 'warning',
  MODIFIED: 'warning',
  DELETED: 'error',
  NOT_CHECKED: 'stopped',
  UNKNOWN: 'stopped',
};

export function toneOf(status: string | undefined): Tone {
  if (!status) return 'stopped';
  const known = EXCEPTIONS[status];
  if (known) return known;
  if (status.endsWith('_FAILED')) return 'error';
  if (status.includes('ROLLBACK')) return 'warning';
  if (status.endsWith('_IN_PROGRESS')) return 'info';
  if (status.endsWith('_COMPLETE')) return 'success';
  return 'stopped';
}

const ICONS: Record<Tone, string> = { success: '✓', error: '✕', warning: '!', info: '◌', stopped: '–' };

export function Status({ status }: { status: string | undefined }) {
  const tone = toneOf(status);
  return (
    <span class={`status ${tone}`} data-status={status}>
      <span aria-hidden="true">{ICONS[tone]}</span> {status ?? 'NOT_CREATED'}
    </span>
  );
}
