// GetTemplate, ValidateTemplate and GetTemplateSummary.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ValidateTemplate.html
import { validationError, awsError } from '../server/protocol/errors.js';
import { parseTemplate } from '../template/parse.js';
import { buildModel } from '../template/validate.js';
import { checkFunctionStructure } from '../template/structure.js';
import type { TemplateModel } from '../template/model.js';
import { findStack, type Handler, type HandlerContext, type Input } from './context.js';
import { templateBody } from './stacks.js';

export const getTemplate: Handler = (ctx, input) => {
  const name = input.StackName as string | undefined;
  const changeSetName = input.ChangeSetName as string | undefined;
  if (name === undefined) {
    if (changeSetName === undefined) throw validationError('StackName is required if ChangeSetName is not specified.');
    if (!changeSetName.startsWith('arn:')) throw validationError('StackName is a required parameter.');
  }
  if (changeSetName !== undefined) {
    const cs = changeSetName.startsWith('arn:') ? ctx.store.changeSets.byId(changeSetName) : undefined;
    const stack = name !== undefined ? findStack(ctx, name) : undefined;
    const found = cs ?? (stack ? ctx.store.changeSets.byName(stack.stackId, changeSetName) : undefined);
    if (!found || found.deleted) throw awsError('ChangeSetNotFound', `ChangeSet [${changeSetName}] does not exist`);
    return { TemplateBody: found.doc.templateBody as string, StagesAvailable: ['Original', 'Processed'] };
  }
  const stack = findStack(ctx, name!);
  if (!stack) throw validationError(`Stack with id ${name} does not exist`);
  return { TemplateBody: ctx.store.templates.body(stack.templateId), StagesAvailable: ['Original', 'Processed'] };
};

function modelOf(body: string): TemplateModel {
  const model = buildModel(parseTemplate(body).doc);
  checkFunctionStructure(model);
  return model;
}

function parameterDeclarations(model: TemplateModel, withType: boolean) {
  return Object.entries(model.parameters).map(([key, def]) => ({
    ParameterKey: key,
    DefaultValue: def.Default === undefined ? undefined : Array.isArray(def.Default) ? def.Default.join(',') : String(def.Default),
    ...(withType ? { ParameterType: def.Type, ParameterConstraints: def.AllowedValues ? { AllowedValues: def.AllowedValues.map(String) } : {} } : {}),
    NoEcho: def.NoEcho === true || def.NoEcho === 'true',
    Description: def.Description,
  }));
}

const IAM_NAMED: Record<string, string> = {
  'AWS::IAM::Role': 'RoleName', 'AWS::IAM::User': 'UserName', 'AWS::IAM::Group': 'GroupName',
  'AWS::IAM::ManagedPolicy': 'ManagedPolicyName', 'AWS::IAM::InstanceProfile': 'InstanceProfileName',
};

function capabilitiesOf(model: TemplateModel) {
  const iam = [...model.resources.values()].filter((r) => r.type.startsWith('AWS::IAM::'));
  if (!iam.length) return {};
  const named = iam.some((r) => IAM_NAMED[r.type] && r.properties[IAM_NAMED[r.type]] !== undefined);
  const types = [...new Set(iam.map((r) => r.type))];
  return {
    Capabilities: [named ? 'CAPABILITY_NAMED_IAM' : 'CAPABILITY_IAM'],
    CapabilitiesReason: `The following resource(s) require capabilities: [${types.join(', ')}]`,
  };
}

function bodyOf(ctx: HandlerContext, input: Input): string {
  return templateBody(ctx, { TemplateBody: input.TemplateBody as string | undefined, TemplateURL: input.TemplateURL as string | undefined });
}

export const validateTemplate: Handler = (ctx, input) => {
  const model = modelOf(bodyOf(ctx, input));
  return {
    Parameters: parameterDeclarations(model, false),
    Description: model.description,
    ...capabilitiesOf(model),
    DeclaredTransforms: model.transforms.length ? model.transforms : undefined,
  };
};

export const getTemplateSummary: Handler = (ctx, input) => {
  let body: string;
  if (input.StackName !== undefined) {
    const stack = findStack(ctx, input.StackName as string);
    if (!stack) throw validationError(`Stack with id ${String(input.StackName)} does not exist`);
    if (stack.status === 'REVIEW_IN_PROGRESS') throw validationError('GetTemplateSummary cannot be called on REVIEW_IN_PROGRESS stacks.');
    body = ctx.store.templates.body(stack.templateId) ?? '';
  } else body = bodyOf(ctx, input);
  const model = modelOf(body);
  const types = [...new Set([...model.resources.values()].map((r) => r.type))];
  return {
    Parameters: parameterDeclarations(model, true),
    Description: model.description,
    ...capabilitiesOf(model),
    ResourceTypes: types,
    Version: '2010-09-09',
    Metadata: model.metadata === undefined ? undefined : JSON.stringify(model.metadata),
    DeclaredTransforms: model.transforms,
  };
};
