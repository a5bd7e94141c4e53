// domain/serviceErrors: an error of a service other than CloudFormation (SSM, STS, Lambda), carrying that service's
// own code, HTTP status and extra fields; each service's protocol in server/services puts it in its own envelope.
import type { ErrorType } from './errors.js';

export class ServiceError extends Error {
  readonly code: string;
  readonly status: number;
  readonly type: ErrorType;
  /** Members of the error shape besides the message (Lambda's `Type`), sent as they are. */
  readonly fields: Record<string, unknown>;

  constructor(code: string, message: string, status = 400, fields: Record<string, unknown> = {}) {
    super(message);
    this.name = code;
    this.code = code;
    this.status = status;
    this.type = status >= 500 ? 'Receiver' : 'Sender';
    this.fields = fields;
  }
}

export function isServiceError(err: unknown): err is ServiceError {
  return err instanceof ServiceError;
}

/**
 * The most problems one message lists. Each repeats at most MAX_ECHO characters of its value (errors.ts, echo), but a
 * list of a million wrongly typed items would still come back as a message far larger than the request; the count
 * stays the true one. The bound is ours, as AWS's is not public (README, "Differences from AWS").
 */
export const MAX_LISTED_PROBLEMS = 100;

/** Adds a problem; past MAX_LISTED_PROBLEMS its text, which would not be listed, is not even built. */
export function noteProblem(problems: string[], text: () => string): void {
  problems.push(problems.length < MAX_LISTED_PROBLEMS ? text() : '');
}

/** The `N validation error(s) detected: …` text that AWS's front ends use, from the problems found. */
export function validationText(problems: readonly string[]): string {
  const listed = problems.length > MAX_LISTED_PROBLEMS ? problems.slice(0, MAX_LISTED_PROBLEMS) : problems;
  return `${problems.length} validation error${problems.length === 1 ? '' : 's'} detected: ${listed.join('; ')}`;
}
