// SetStackPolicy and GetStackPolicy.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_SetStackPolicy.html
import { validationError, stackIdNotFound } from '../../domain/errors.js';
import { parseStackPolicy } from '../../state-machine/stackPolicy.js';
import { readS3Url } from '../../resources/s3Urls.js';
import { findStack, required, type Handler, type HandlerContext, type Input } from './context.js';

/** The policy pairs a call may carry: a body, or a URL of an S3 object holding it. */
const POLICY_PAIRS = [
  ['StackPolicyBody', 'StackPolicyURL'],
  ['StackPolicyDuringUpdateBody', 'StackPolicyDuringUpdateURL'],
] as const;

/**
 * Reads StackPolicyURL / StackPolicyDuringUpdateURL from the account's S3 buckets into their Body members, so the
 * policy is applied exactly as if the body had been passed (never silently ignored).
 */
export async function stackPolicyBodies(ctx: HandlerContext, input: Input): Promise<void> {
  for (const [body, url] of POLICY_PAIRS) {
    if (input[url] === undefined) continue;
    if (input[body] !== undefined) throw validationError(`You cannot specify both ${url} and ${body}`);
    input[body] = await readS3Url(ctx.store, ctx.caller, input[url] as string, url);
    delete input[url];
  }
}

export const setStackPolicy: Handler = async (ctx, input) => {
  const name = required<string>(input, 'StackName');
  if (input.StackPolicyBody !== undefined && input.StackPolicyURL !== undefined) {
    throw validationError('You cannot specify both StackPolicyURL and StackPolicyBody');
  }
  await stackPolicyBodies(ctx, input);
  const body = input.StackPolicyBody as string | undefined;
  if (body === undefined) throw validationError('Either StackPolicyBody or StackPolicyURL must be specified.');
  parseStackPolicy(body);
  const stack = findStack(ctx, name);
  if (!stack || stack.status === 'DELETE_COMPLETE') throw stackIdNotFound(name);
  ctx.engine.changeSettings(stack, (doc) => void (doc.stackPolicyBody = body));
  return undefined;
};

export const getStackPolicy: Handler = (ctx, input) => {
  const name = required<string>(input, 'StackName');
  const stack = findStack(ctx, name);
  if (!stack) throw stackIdNotFound(name);
  return { StackPolicyBody: stack.doc.duringUpdatePolicyBody ?? stack.doc.stackPolicyBody };
};
