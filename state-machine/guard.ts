// Every resource action ends in a settled status: an error thrown mid-action (a dynamic reference that no longer
// resolves, a provider bug) fails the resource with a reason and an event instead of leaving it *_IN_PROGRESS.
import type { ResourceRecord } from '../storage/index.js';
import { AwsError } from '../domain/errors.js';
import { TemplateError } from '../template/intrinsics/context.js';
import type { ResourceStatus } from './statuses.js';
import { setResourceStatus } from './transitions.js';
import type { Runtime } from './runtime.js';

const FAILED_FROM: Partial<Record<ResourceStatus, ResourceStatus>> = {
  CREATE_IN_PROGRESS: 'CREATE_FAILED',
  UPDATE_IN_PROGRESS: 'UPDATE_FAILED',
  DELETE_IN_PROGRESS: 'DELETE_FAILED',
  IMPORT_IN_PROGRESS: 'IMPORT_FAILED',
  UPDATE_ROLLBACK_IN_PROGRESS: 'UPDATE_ROLLBACK_FAILED',
  ROLLBACK_IN_PROGRESS: 'ROLLBACK_FAILED',
  IMPORT_ROLLBACK_IN_PROGRESS: 'IMPORT_ROLLBACK_FAILED',
};

/** AWS's own texts (template and service errors) are shown; anything else is an internal failure. */
const reasonOf = (err: unknown) => (err instanceof AwsError || err instanceof TemplateError ? err.message : 'Internal Failure');

/** Settles a resource left *_IN_PROGRESS by a failed action as its FAILED status, with the reason. */
export function failInProgress(rt: Runtime, r: ResourceRecord | undefined, err: unknown): void {
  const to = r && FAILED_FROM[r.status as ResourceStatus];
  if (!r || !to) return;
  try {
    setResourceStatus(rt, r, to, { reason: reasonOf(err) });
  } catch {
    r.status = to; // the store itself failed: at least the operation sees a settled resource
  }
}

/** Runs one resource action; a throw becomes a failed action whose resource is settled with the error's reason. */
export async function guarded(rt: Runtime, record: () => ResourceRecord | undefined, action: () => Promise<boolean>): Promise<boolean> {
  try {
    return await action();
  } catch (err) {
    if (!(err instanceof AwsError || err instanceof TemplateError)) rt.env?.log.warn({ err }, 'resource action failed unexpectedly');
    failInProgress(rt, record(), err);
    return false;
  }
}
