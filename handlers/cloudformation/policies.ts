// SetStackPolicy and GetStackPolicy.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_SetStackPolicy.html
import { validationError, stackIdNotFound } from '../../domain/errors.js';
import { parseStackPolicy } from '../../state-machine/stackPolicy.js';
import { readS3Url } from '../../resources/s3Urls.js';
import { findStack, type Handler, type HandlerContext } from './context.js';

/** The policy pairs a call may carry: a body, or a URL of an S3 object holding it. */
const POLICY_PAIRS = [
  ['StackPolicyBody', 'StackPolicyURL'],
  ['StackPolicyDuringUpdateBody', 'StackPolicyDuringUpdateURL'],
] as const;

/** The policy members a call may carry (CreateStack and UpdateStack carry both pairs, SetStackPolicy the first). */
type PolicyMembers = Partial<Record<(typeof POLICY_PAIRS)[number][number], string>>;

/**
 * Reads StackPolicyURL / StackPolicyDuringUpdateURL from the account's S3 buckets into their Body members, so the
 * policy is applied exactly as if the body had been passed (never silently ignored).
 */
export async function stackPolicyBodies(ctx: HandlerContext, input: PolicyMembers): Promise<void> {
  for (const [body, url] of POLICY_PAIRS) {
    const location = input[url];
    if (location === undefined) continue;
    if (input[body] !== undefined) throw validationError(`You cannot specify both ${url} and ${body}`);
    input[body] = await readS3Url(ctx.store, ctx.caller, location, url);
    delete input[url];
  }
}

export const setStackPolicy: Handler<'SetStackPolicy'> = async (ctx, input) => {
  const name = input.StackName;
  if (input.StackPolicyBody !== undefined && input.StackPolicyURL !== undefined) {
    throw validationError('You cannot specify both StackPolicyURL and StackPolicyBody');
  }
  await stackPolicyBodies(ctx, input);
  const body = input.StackPolicyBody;
  if (body === undefined) throw validationError('Either StackPolicyBody or StackPolicyURL must be specified.');
  parseStackPolicy(body);
  const stack = findStack(ctx, name);
  if (!stack || stack.status === 'DELETE_COMPLETE') throw stackIdNotFound(name);
  ctx.engine.changeSettings(stack, (doc) => void (doc.stackPolicyBody = body));
  return undefined;
};

export const getStackPolicy: Handler<'GetStackPolicy'> = (ctx, input) => {
  const stack = findStack(ctx, input.StackName);
  if (!stack) throw stackIdNotFound(input.StackName);
  return { StackPolicyBody: stack.doc.duringUpdatePolicyBody ?? stack.doc.stackPolicyBody };
};
