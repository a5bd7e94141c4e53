// What every SSM handler receives, and SSM's own errors (awsJson `__type` codes, messages as SSM writes them).
import type { Store } from '../../storage/index.js';
import type { Caller } from '../../state-machine/engine.js';
import { ServiceError, validationText } from '../../domain/serviceErrors.js';
import { echo } from '../../domain/errors.js';
import { constraintProblems } from '../../domain/constraints.js';
import type { SsmActions } from '../../generated/ssm.js';

export interface SsmContext {
  store: Store;
  caller: Caller;
  now: Date;
}

/** Every SSM Action of the model, and the input and output the model gives it (generated/ssm.ts). */
export type SsmAction = keyof SsmActions;
export type SsmInputOf<A extends SsmAction> = SsmActions[A]['input'];
export type SsmHandler<A extends SsmAction> = (ctx: SsmContext, input: SsmInputOf<A>) => SsmActions[A]['output'];

export const ssmError = (code: string, message: string) => new ServiceError(code, message, 400);
export const ssmValidation = (problems: string[]) => ssmError('ValidationException', validationText(problems));

export const parameterNotFound = (name: string) => ssmError('ParameterNotFound', `Parameter ${echo(name)} not found.`);

/** Each paged Action's MaxResults: the model's range (from 1) and the page size when it is not given. */
const MAX_RESULTS = {
  GetParametersByPath: { max: 10, fallback: 10 },
  GetParameterHistory: { max: 50, fallback: 50 },
  DescribeParameters: { max: 50, fallback: 10 },
} as const;

/** A MaxResults member out of its model range, in AWS's constraint wording; else the page size. */
export function checkMaxResults(action: keyof typeof MAX_RESULTS, value: number | undefined): number {
  const { max, fallback } = MAX_RESULTS[action];
  const problems = constraintProblems({ MaxResults: { minValue: 1, maxValue: max } }, { MaxResults: value });
  if (problems.length) throw ssmValidation(problems);
  return value ?? fallback;
}

/** A page of items from an opaque NextToken (the offset), and the token of the next page. */
export function page<T>(items: T[], token: string | undefined, size: number): { items: T[]; next?: string } {
  let offset = 0;
  if (token !== undefined) {
    offset = Number(
      Buffer.from(token, 'base64url')
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
