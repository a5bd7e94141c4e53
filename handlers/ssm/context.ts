// What every SSM handler receives, and SSM's own errors (awsJson `__type` codes, messages as SSM writes them).
import type { Store } from '../../storage/index.js';
import type { Caller } from '../../state-machine/engine.js';
import { ServiceError, validationText } from '../../domain/serviceErrors.js';
import { echo } from '../../domain/errors.js';

export interface SsmContext {
  store: Store;
  caller: Caller;
  now: Date;
}

export type SsmInput = Record<string, unknown>;
export type SsmHandler = (ctx: SsmContext, input: SsmInput) => Record<string, unknown>;

export const ssmError = (code: string, message: string) => new ServiceError(code, message, 400);
export const ssmValidation = (problems: string[]) => ssmError('ValidationException', validationText(problems));

export const parameterNotFound = (name: string) => ssmError('ParameterNotFound', `Parameter ${echo(name)} not found.`);

/** A MaxResults member out of its model range, in AWS's constraint wording. */
export function checkMaxResults(input: SsmInput, max: number, fallback: number): number {
  const value = input.MaxResults;
  if (value === undefined) return fallback;
  const n = Number(value);
  if (n < 1)
    throw ssmValidation([
      `Value '${n}' at 'maxResults' failed to satisfy constraint: Member must have value greater than or equal to 1`,
    ]);
  if (n > max)
    throw ssmValidation([
      `Value '${n}' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to ${max}`,
    ]);
  return n;
}

/** A page of items from an opaque NextToken (the offset), and the token of the next page. */
export function page<T>(items: T[], token: unknown, size: number): { items: T[]; next?: string } {
  let offset = 0;
  if (token !== undefined) {
    offset = Number(
      Buffer.from(String(token), 'base64url')
        .toString('utf8')
        .replace(/^offset:/, ''),
    );
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw ssmError('InvalidNextToken', 'The specified token is not valid.');
  }
  const slice = items.slice(offset, offset + size);
  const more = offset + size < items.length;
  return { items: slice, next: more ? Buffer.from(`offset:${offset + size}`).toString('base64url') : undefined };
}
