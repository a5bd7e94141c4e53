// Stack API actions: CreateStack, UpdateStack, DeleteStack, DescribeStacks, ListStacks, UpdateTerminationProtection.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_Operations.html
import { stackIdNotFound, stackNotFound, tooLong, validationError } from '../../domain/errors.js';
import { MAX_TEMPLATE_BODY } from '../../template/index.js';
import type { StackTemplateInput } from '../../state-machine/inputs.js';
import { expandForCreate, createStack as startCreate } from '../../state-machine/operations/create.js';
import {
  checkFailedStateUpdate,
  expandForUpdate,
  updateStack as startUpdate,
} from '../../state-machine/operations/update.js';
import { deleteStack as startDelete } from '../../state-machine/operations/delete.js';
import { readS3Url } from '../../resources/s3Urls.js';
import { stackPolicyBodies } from './policies.js';
import { decodeToken, encodeToken, findStack, type Handler, type HandlerContext } from './context.js';
import { describeStack, summarizeStack } from './stackViews.js';
import type { StackRecord } from '../../storage/index.js';

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

export const createStack: Handler<'CreateStack'> = async (ctx, input) => {
  if (input.OnFailure !== undefined && input.DisableRollback !== undefined) {
    // AWS's answer, recorded in boto/boto#2781 (DisableRollback counts when sent at all, even false)
    throw validationError('Either DisableRollback or OnFailure can be specified, not both.');
  }
  const body = await templateBody(ctx, input);
  await stackPolicyBodies(ctx, input);
  const template = await expandForCreate(ctx.engine, ctx.caller, input, body);
  return { StackId: startCreate(ctx.engine, ctx.caller, input, template) };
};

export const updateStack: Handler<'UpdateStack'> = async (ctx, input) => {
  const stack = findStack(ctx, input.StackName);
  if (!stack) throw stackNotFound(input.StackName);
  checkFailedStateUpdate(stack, input);
  const body = await templateBody(ctx, input, () => ctx.store.templates.body(stack.templateId));
  await stackPolicyBodies(ctx, input);
  const template = await expandForUpdate(ctx.engine, stack, input, body);
  return { StackId: startUpdate(ctx.engine, stack, input, template) };
};

export const deleteStack: Handler<'DeleteStack'> = (ctx, input) => {
  const stack = findStack(ctx, input.StackName);
  if (stack) startDelete(ctx.engine, stack, input);
  return undefined;
};

export const describeStacks: Handler<'DescribeStacks'> = (ctx, input) => {
  const name = input.StackName;
  if (name !== undefined) {
    const stack = findStack(ctx, name);
    if (!stack) throw stackIdNotFound(name);
    return { Stacks: [describeStack(stack, ctx.store.drifts.latestComplete(stack.stackId))] };
  }
  const { items, NextToken } = pageOfStacks(ctx, input.NextToken, true, (s) =>
    describeStack(s, ctx.store.drifts.latestComplete(s.stackId)),
  );
  return { Stacks: items, NextToken };
};

export const listStacks: Handler<'ListStacks'> = (ctx, input) => {
  // An empty filter lists every status.
  const filter = input.StackStatusFilter?.length ? new Set(input.StackStatusFilter) : undefined;
  const { items, NextToken } = pageOfStacks(
    ctx,
    input.NextToken,
    false,
    (s) => summarizeStack(s, ctx.store.drifts.latestComplete(s.stackId)),
    filter,
  );
  return { StackSummaries: items, NextToken };
};

function pageOfStacks<T>(
  ctx: HandlerContext,
  token: string | undefined,
  live: boolean,
  view: (s: StackRecord) => T,
  filter?: Set<string>,
): { items: T[]; NextToken?: string } {
  const items: T[] = [];
  let before = decodeToken(token);
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
  return { items, NextToken: encodeToken(cursor) };
}

export const updateTerminationProtection: Handler<'UpdateTerminationProtection'> = (ctx, input) => {
  const { StackName: name, EnableTerminationProtection: enable } = input;
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
