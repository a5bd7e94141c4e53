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

/** The `N validation error(s) detected: …` text that AWS's front ends use, from the problems found. */
export function validationText(problems: string[]): string {
  return `${problems.length} validation error${problems.length === 1 ? '' : 's'} detected: ${problems.join('; ')}`;
}
