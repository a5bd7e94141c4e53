// Where a nested stack's TemplateURL is read from. One function, so the S3 store's readS3Url is a one-line swap.
import type { Store } from '../storage/index.js';
import { validationError } from '../domain/errors.js';

/** Stand-in objects until the S3 store lands: URL → template body. */
export const STAND_IN_OBJECTS = new Map<string, string>();

export async function childTemplateBody(_store: Store, _scope: { account: string; region: string }, url: string): Promise<string> {
  const body = STAND_IN_OBJECTS.get(url);
  if (body === undefined) throw validationError('S3 error: Access Denied');
  return body;
}
