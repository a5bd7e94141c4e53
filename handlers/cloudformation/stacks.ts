// Stack API actions: CreateStack, UpdateStack, DeleteStack, DescribeStacks, ListStacks, UpdateTerminationProtection.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_Operations.html
import { stackIdNotFound, stackNotFound, tooLong, validationError } from '../../domain/errors.js';
import { MAX_TEMPLATE_BODY } from '../../template/index.js';
import type { CreateStackInput, DeleteStackInput, StackTemplateInput } from '../../state-machine/inputs.js';
import { createStack as startCreate } from '../../state-machine/operations/create.js';
import { updateStack as startUpdate } from '../../state-machine/operations/update.js';
import { deleteStack as startDelete } from '../../state-machine/operations/delete.js';
import { readS3Url } from '../../resources/s3Urls.js';
import { stackPolicyBodies } from './policies.js';
import {
  checkStackName,
  decodeToken,
  encodeToken,
  findStack,
  required,
  type Handler,
  type HandlerContext,
  type Input,
} from './context.js';
import { describeStack, summarizeStack } from './stackViews.js';
import type { StackRecord } from '../../storage/index.js';
import { withTransforms } from '../../state-machine/expansions.js';

const PAGE_SIZE = 100;

/** The template of a create or update call, with AWS's checks on where it comes from. */
export async function templateBody(
  ctx: HandlerContext,
  input: StackTemplateInput,
  previous?: () => string | undefined,
): Promise<string> {
  if (input.TemplateBody !== undefined && input.TemplateURL !== undefined) {
    throw validationError('Specify either TemplateBody or TemplateURL, but not both.');
  }
  if (input.UsePreviousTemplate) {
    if (input.TemplateBody !== undefined || input.TemplateURL !== undefined) {
      throw validationError('You cannot specify both usePreviousTemplate and Template Body/Template URL.');
    }
    const body = previous?.();
    if (body === undefined) throw validationError('Either Template URL or Template Body must be specified.');
    return body;
  }
  if (input.TemplateBody !== undefined) {
    // The quota is 51,200 bytes, not characters (AWS CloudFormation quotas: "Template body size in a request").
    if (Buffer.byteLength(input.TemplateBody) > MAX_TEMPLATE_BODY) throw tooLong('templateBody', MAX_TEMPLATE_BODY);
    return input.TemplateBody;
  }
  // Read from the account's S3 buckets (resources/s3Urls.ts), with CloudFormation's refusals for what is not there.
  if (input.TemplateURL !== undefined) return readS3Url(ctx.store, ctx.caller, input.TemplateURL);
  throw validationError('Either Template URL or Template Body must be specified.');
}

export const createStack: Handler = async (ctx, input) => {
  const name = required<string>(input, 'StackName');
  checkStackName(name);
  const create = input as CreateStackInput;
  if (create.OnFailure !== undefined && create.DisableRollback !== undefined) {
    throw validationError('You cannot specify both DisableRollback and OnFailure.');
  }
  const body = await templateBody(ctx, create);
  await stackPolicyBodies(ctx, input);
  return withTransforms(ctx.store, ctx.engine.deps.transforms, () => ({
    StackId: startCreate(ctx.engine, ctx.caller, create, body),
  }));
};

export const updateStack: Handler = async (ctx, input) => {
  const name = required<string>(input, 'StackName');
  checkStackName(name);
  const stack = findStack(ctx, name);
  if (!stack) throw stackNotFound(name);
  const update = input as StackTemplateInput;
  const body = await templateBody(ctx, update, () => ctx.store.templates.body(stack.templateId));
  await stackPolicyBodies(ctx, input);
  return withTransforms(ctx.store, ctx.engine.deps.transforms, () => ({
    StackId: startUpdate(ctx.engine, stack, update, body),
  }));
};

export const deleteStack: Handler = (ctx, input) => {
  const name = required<string>(input, 'StackName');
  const stack = findStack(ctx, name);
  if (stack) startDelete(ctx.engine, stack, input as DeleteStackInput);
  return undefined;
};

export const describeStacks: Handler = (ctx, input) => {
  const name = input.StackName as string | undefined;
  if (name !== undefined) {
    const stack = findStack(ctx, name);
    if (!stack) throw stackIdNotFound(name);
    return { Stacks: [describeStack(stack)] };
  }
  return pageOfStacks(ctx, input, true, (s) => describeStack(s), 'Stacks');
};

const ALL_STATUSES_FILTER = (filter: unknown) =>
  Array.isArray(filter) && filter.length ? new Set(filter as string[]) : undefined;

export const listStacks: Handler = (ctx, input) => {
  const filter = ALL_STATUSES_FILTER(input.StackStatusFilter);
  return pageOfStacks(ctx, input, false, (s) => summarizeStack(s), 'StackSummaries', filter);
};

function pageOfStacks(
  ctx: HandlerContext,
  input: Input,
  live: boolean,
  view: (s: import('../../storage/index.js').StackRecord) => unknown,
  member: string,
  filter?: Set<string>,
) {
  const items: unknown[] = [];
  let before = decodeToken(input.NextToken);
  let cursor: number | undefined;
  while (items.length < PAGE_SIZE) {
    const page = ctx.store.stacks.page(ctx.caller.account, ctx.caller.region, { live, before, limit: PAGE_SIZE });
    for (const s of page.stacks) {
      if (!filter || filter.has(s.status)) items.push(view(s));
    }
    cursor = page.cursor;
    before = cursor;
    if (page.stacks.length < PAGE_SIZE) {
      cursor = undefined;
      break;
    }
  }
  return { [member]: items, NextToken: encodeToken(cursor) };
}

export const updateTerminationProtection: Handler = (ctx, input) => {
  const name = required<string>(input, 'StackName');
  const enable = required<boolean>(input, 'EnableTerminationProtection');
  const stack = findStack(ctx, name);
  if (!stack || stack.status === 'DELETE_COMPLETE') throw stackNotFound(name);
  // "For nested stacks, termination protection is set on the root stack and can't be changed directly" (API reference)
  if (stack.doc.rootId) {
    throw validationError(
      `Stack [${stack.name}] is a nested stack: termination protection can only be changed on its root stack [${stack.doc.rootId}].`,
    );
  }
  for (const s of [stack, ...nestedStacksOf(ctx, stack)])
    ctx.engine.changeSettings(s, (doc) => void (doc.terminationProtection = enable));
  return { StackId: stack.stackId };
};

/** Every stack nested under `stack`, through its AWS::CloudFormation::Stack resources. */
function nestedStacksOf(ctx: HandlerContext, stack: StackRecord): StackRecord[] {
  const out: StackRecord[] = [];
  for (const r of ctx.store.resources.byStack(stack.stackId)) {
    const child =
      r.type === 'AWS::CloudFormation::Stack' && r.physicalId ? ctx.store.stacks.byId(r.physicalId) : undefined;
    if (child && child.status !== 'DELETE_COMPLETE') out.push(child, ...nestedStacksOf(ctx, child));
  }
  return out;
}
