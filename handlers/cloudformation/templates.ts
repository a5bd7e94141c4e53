// GetTemplate, ValidateTemplate and GetTemplateSummary.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_GetTemplate.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ValidateTemplate.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_GetTemplateSummary.html
import { validationError, changeSetNotFound, stackIdNotFound } from '../../domain/errors.js';
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
import { findStack, type Handler, type HandlerContext } from './context.js';
import { TEMPLATE_STAGE } from './inputRules.js';
import { templateBody } from './stacks.js';
import { docOf } from '../../state-machine/changeSets.js';
import { byLiveName } from '../../state-machine/changeSetStatus.js';

const STAGES = ['Original', 'Processed'];

/** The processed template: the original when no transform changed it, else the expansion as JSON. */
function processedOf(ctx: HandlerContext, stack: StackRecord, body: string, parameters: StackParameter[]): string {
  if (!/"?Transform"?\s*:/.test(body)) return body;
  try {
    return prepareBody(ctx.engine.deps.store, stack, body, parameters).processed ?? body;
  } catch {
    return body;
  }
}

export const getTemplate: Handler<'GetTemplate'> = (ctx, input) => {
  const { StackName: name, ChangeSetName: changeSetName } = input;
  // INPUT_RULES has refused any other TemplateStage.
  const stage = TEMPLATE_STAGE.enum.find((s) => s === input.TemplateStage) ?? 'Original';
  if (name === undefined) {
    if (changeSetName === undefined) throw validationError('StackName is required if ChangeSetName is not specified.');
    if (!changeSetName.startsWith('arn:')) throw validationError('StackName is a required parameter.');
  }
  if (changeSetName !== undefined) {
    const cs = changeSetName.startsWith('arn:') ? ctx.store.changeSets.byId(changeSetName) : undefined;
    const stack = name !== undefined ? findStack(ctx, name) : undefined;
    const found = cs ?? (stack ? byLiveName(ctx.store, stack.stackId, changeSetName) : undefined);
    if (!found || found.deleted) throw changeSetNotFound(changeSetName);
    const { templateBody: body, parameters } = docOf(found);
    if (stage === 'Original') return { TemplateBody: body, StagesAvailable: STAGES };
    const owner = stack ?? ctx.store.stacks.byId(found.stackId)!;
    return {
      TemplateBody: processedOf(ctx, owner, body, parameters as StackParameter[]),
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

export function summaryWorld(ctx: HandlerContext): SummaryWorld {
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

/** The template of ValidateTemplate and GetTemplateSummary: a body or a URL, never the previous template. */
export function bodyOf(ctx: HandlerContext, input: { TemplateBody?: string; TemplateURL?: string }): Promise<string> {
  return templateBody(ctx, { TemplateBody: input.TemplateBody, TemplateURL: input.TemplateURL });
}

export const validateTemplate: Handler<'ValidateTemplate'> = async (ctx, input) =>
  validateTemplateOutput(staticModel(await bodyOf(ctx, input), summaryWorld(ctx)));

export const getTemplateSummary: Handler<'GetTemplateSummary'> = async (ctx, input) => {
  let body: string;
  if (input.StackName !== undefined) {
    const stack = findStack(ctx, input.StackName);
    if (!stack) throw stackIdNotFound(input.StackName);
    if (stack.status === 'REVIEW_IN_PROGRESS')
      throw validationError('GetTemplateSummary cannot be called on REVIEW_IN_PROGRESS stacks.');
    body = ctx.store.templates.body(stack.templateId) ?? '';
  } else body = await bodyOf(ctx, input);
  const world = summaryWorld(ctx);
  return templateSummaryOutput(staticModel(body, world), world);
};
