// The seam between the synchronous template pipeline and the transforms that need the outside world (the SAM
// translator, a macro's Lambda, an AWS::Include snippet in S3): the pipeline asks for each one's output by a key
// derived from its input; a missing output stops the pipeline with a PendingTransform naming the request. Only the
// explicit transform step (expandTransforms, state-machine/expansions.ts) meets one on purpose: it runs the request
// and the pass again, once per transform, before the call's synchronous start, which then finds every output.
import { createHash } from 'node:crypto';
import { AwsError } from '../../domain/errors.js';

export const SERVERLESS = 'AWS::Serverless-2016-10-31';
export const INCLUDE = 'AWS::Include';

/** What one transform is asked to do; `key` names its output, a hash of everything it reads. */
export type TransformRequest =
  | { kind: 'sam'; key: string; template: Record<string, unknown>; parameters: Record<string, unknown>; region: string }
  | {
      kind: 'macro';
      key: string;
      name: string;
      transformId: string;
      fragment: unknown;
      params: Record<string, unknown>;
      parameters: Record<string, unknown>;
      account: string;
      region: string;
    }
  | { kind: 'include'; key: string; location: string; account: string; region: string };

/** A transform's output: the processed fragment, or the reason the transform failed (AWS's text). */
export type TransformOutcome = { fragment: unknown } | { failure: string };

export type ExpansionLookup = (key: string) => TransformOutcome | undefined;

/** A transform whose output the pass was not given: expandTransforms runs it; anywhere else it is a bug. */
export class PendingTransform extends Error {
  constructor(readonly request: TransformRequest) {
    super(`transform ${request.kind} ${request.key} has not run yet`);
  }
}

/**
 * A failed transform. It travels as a ValidationError when nothing catches it; CreateChangeSet turns it into a
 * FAILED change set and CreateStack into a rollback, as AWS reports a failed transform.
 */
export class TransformFailure extends AwsError {
  readonly transformFailure = true;
  constructor(message: string) {
    super('ValidationError', message);
  }
}

export function isTransformFailure(err: unknown): err is TransformFailure {
  return err instanceof TransformFailure;
}

export function transformKey(...parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The output of a request, or the PendingTransform that asks for it. */
export function outcomeOf(lookup: ExpansionLookup | undefined, request: TransformRequest): unknown {
  const found = lookup?.(request.key);
  if (!found) throw new PendingTransform(request);
  if ('failure' in found) throw new TransformFailure(found.failure);
  return found.fragment;
}
