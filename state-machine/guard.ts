// Every resource action ends in a settled status: an error thrown mid-action (a dynamic reference that no longer
// resolves, a provider bug) fails the resource with a reason and an event instead of leaving it *_IN_PROGRESS.
import type { ResourceRecord } from '../storage/index.js';
import { AwsError } from '../domain/errors.js';
import { TemplateError } from '../template/intrinsics/context.js';
import { failResource } from './transitions.js';
import type { Runtime } from './runtime.js';

/** AWS's own texts (template and service errors) are shown; anything else is an internal failure. */
const reasonOf = (err: unknown) =>
  err instanceof AwsError || err instanceof TemplateError ? err.message : 'Internal Failure';

/** Settles a resource left *_IN_PROGRESS by a failed action as that action's failed status, with the reason. */
export function failInProgress(rt: Runtime, r: ResourceRecord | undefined, err: unknown): void {
  if (r) failResource(rt, r, reasonOf(err));
}

/** Runs one resource action; a throw becomes a failed action whose resource is settled with the error's reason. */
export async function guarded(
  rt: Runtime,
  record: () => ResourceRecord | undefined,
  action: () => Promise<boolean>,
): Promise<boolean> {
  try {
    return await action();
  } catch (err) {
    if (!(err instanceof AwsError || err instanceof TemplateError))
      rt.env?.log.warn({ err }, 'resource action failed unexpectedly');
    failInProgress(rt, record(), err);
    return false;
  }
}
