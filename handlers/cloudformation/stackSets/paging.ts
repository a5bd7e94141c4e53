// Pages of a list as the stack set actions return them: MaxResults (1 to 100, AWS's default 100) and an opaque
// NextToken holding the offset of the next item.
import { validationError } from '../../../domain/errors.js';
import { decodeToken, encodeToken } from '../context.js';

export function pageOf<T>(items: T[], token: string | undefined, maxResults: number | undefined) {
  if (maxResults !== undefined && (maxResults < 1 || maxResults > 100)) {
    throw validationError(
      `1 validation error detected: Value '${maxResults}' at 'maxResults' failed to satisfy constraint: Member must have value ${maxResults < 1 ? 'greater than or equal to 1' : 'less than or equal to 100'}`,
    );
  }
  const start = decodeToken(token) ?? 0;
  const size = maxResults ?? 100;
  const page = items.slice(start, start + size);
  return { page, NextToken: start + size < items.length ? encodeToken(start + size) : undefined };
}
