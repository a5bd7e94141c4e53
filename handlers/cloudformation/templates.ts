// GetTemplate, ValidateTemplate and GetTemplateSummary.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_GetTemplate.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ValidateTemplate.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_GetTemplateSummary.html
import { echo, validationError, changeSetNotFound, stackIdNotFound } from '../../domain/errors.js';
import {
  staticModel,
  templateSummaryOutput,
  validateTemplateOutput,
  type SummaryWorld,
} from '../../template/summary.js';
import { availabilityZones, partitionOf, urlSuffixOf } from '../../resources/regions.js';
import { isKnownResourceType } from '../../resources/registry.js';
import { resourceSpec } from '../../resources/spec.js';
import { prepareBody } from '../../state-machine/prepare.js';
import type { StackParameter, StackRecord } from '../../storage/index.js';
import { findStack, type Handler, type HandlerContext, type Input } from './context.js';
import { templateBody } from './stacks.js';

const STAGES = ['Original', 'Processed'];

function checkStage(stage: unknown): 'Original' | 'Processed' {
  if (stage === undefined || stage === 'Original' || stage === 'Processed')
    return (stage ?? 'Original') as 'Original' | 'Processed';
  throw validationError(
    `1 validation error detected: Value '${echo(stage)}' at 'templateStage' failed to satisfy constraint: Member must satisfy enum value set: [Original, Processed]`,
  );
}

/** The processed template: the original when no transform changed it, else the expansion as JSON. */
function processedOf(ctx: HandlerContext, stack: StackRecord, body: string, parameters: StackParameter[]): string {
  if (!/"?Transform"?\s*:/.test(body)) return body;
  try {
    return prepareBody(ctx.store, stack, body, parameters).processed ?? body;
  } catch {
    return body;
  }
}

export const getTemplate: Handler = (ctx, input) => {
  const name = input.StackName as string | undefined;
  const changeSetName = input.ChangeSetName as string | undefined;
  const stage = checkStage(input.TemplateStage);
  if (name === undefined) {
    if (changeSetName === undefined) throw validationError('StackName is required if ChangeSetName is not specified.');
    if (!changeSetName.startsWith('arn:')) throw validationError('StackName is a required parameter.');
  }
  if (changeSetName !== undefined) {
    const cs = changeSetName.startsWith('arn:') ? ctx.store.changeSets.byId(changeSetName) : undefined;
    const stack = name !== undefined ? findStack(ctx, name) : undefined;
    const found = cs ?? (stack ? ctx.store.changeSets.byName(stack.stackId, changeSetName) : undefined);
    if (!found || found.deleted) throw changeSetNotFound(changeSetName);
    const body = found.doc.templateBody as string;
    if (stage === 'Original') return { TemplateBody: body, StagesAvailable: STAGES };
    const owner = stack ?? ctx.store.stacks.byId(found.stackId)!;
    return {
      TemplateBody: processedOf(ctx, owner, body, found.doc.parameters as StackParameter[]),
      StagesAvailable: STAGES,
    };
  }
  const stack = findStack(ctx, name!);
  if (!stack) throw stackIdNotFound(String(name));
  const body = ctx.store.templates.body(stack.templateId) ?? '';
  return {
    TemplateBody: stage === 'Processed' ? processedOf(ctx, stack, body, stack.doc.parameters) : body,
    StagesAvailable: STAGES,
  };
};

function summaryWorld(ctx: HandlerContext): SummaryWorld {
  const { account, region } = ctx.caller;
  return {
    pseudo: {
      'AWS::AccountId': account,
      'AWS::Region': region,
      'AWS::Partition': partitionOf(region),
      'AWS::URLSuffix': urlSuffixOf(region),
      'AWS::StackName': '',
      'AWS::StackId': '',
      'AWS::NotificationARNs': [],
    },
    availabilityZones,
    isKnownType: isKnownResourceType,
    primaryIdentifier: (type) => resourceSpec(type)?.primaryIdentifier,
  };
}

function bodyOf(ctx: HandlerContext, input: Input): Promise<string> {
  return templateBody(ctx, {
    TemplateBody: input.TemplateBody as string | undefined,
    TemplateURL: input.TemplateURL as string | undefined,
  });
}

export const validateTemplate: Handler = async (ctx, input) =>
  validateTemplateOutput(staticModel(await bodyOf(ctx, input), summaryWorld(ctx)));

export const getTemplateSummary: Handler = async (ctx, input) => {
  let body: string;
  if (input.StackName !== undefined) {
    const stack = findStack(ctx, input.StackName as string);
    if (!stack) throw stackIdNotFound(String(input.StackName));
    if (stack.status === 'REVIEW_IN_PROGRESS')
      throw validationError('GetTemplateSummary cannot be called on REVIEW_IN_PROGRESS stacks.');
    body = ctx.store.templates.body(stack.templateId) ?? '';
  } else body = await bodyOf(ctx, input);
  const world = summaryWorld(ctx);
  return templateSummaryOutput(staticModel(body, world), world);
};
