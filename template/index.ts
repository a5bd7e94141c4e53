// The template pipeline's entry: body → parsed → model → parameters → conditions → graph, raising at the call
// every error AWS raises at the call.
import { awsError, validationError } from '../server/protocol/errors.js';
import { parseTemplate } from './parse.js';
import { buildModel } from './validate.js';
import { resolveParameters, type GivenParameter, type SsmLookup } from './parameters.js';
import { evaluateConditions } from './conditions.js';
import { buildGraph, referencedNames } from './graph.js';
import { checkFunctionStructure } from './structure.js';
import type { EvalContext, ParameterValue } from './intrinsics/context.js';
import type { TemplateModel } from './model.js';
import type { ResolvedParameter } from './parameters.js';
import type { ResourceGraph } from './graph.js';

export interface PreparedTemplate {
  body: string;
  model: TemplateModel;
  parameters: ResolvedParameter[];
  conditions: Map<string, boolean>;
  active: Set<string>;
  graph: ResourceGraph;
}

export interface PrepareInput {
  body: string;
  parameters?: GivenParameter[];
  previousParameters?: Map<string, string>;
  ssm?: SsmLookup;
  pseudo: Record<string, unknown>;
  isKnownType: (type: string) => boolean;
  availabilityZones: (region: string) => string[];
}

export const MAX_TEMPLATE_BODY = 51_200;

export function prepareTemplate(input: PrepareInput): PreparedTemplate {
  const parsed = parseTemplate(input.body);
  const model = buildModel(parsed.doc);
  checkResourceTypes(model, input.isKnownType);
  checkFunctionStructure(model);
  const parameters = resolveParameters(model, input.parameters, input.previousParameters, input.ssm);
  const ctx: EvalContext = {
    model,
    parameters: new Map<string, ParameterValue>(parameters.map((p) => [p.key, p.value])),
    pseudo: input.pseudo,
    conditions: new Map(),
    resourceRef: () => undefined,
    resourceAttribute: () => undefined,
    importValue: () => '',
    availabilityZones: input.availabilityZones,
    path: [],
    budget: { steps: 0 },
  };
  const conditions = evaluateConditions(ctx);
  const active = new Set([...model.resources.values()].filter((r) => isActive(r.condition, conditions)).map((r) => r.logicalId));
  const graph = buildGraph(model, active);
  checkOutputReferences(model, conditions, active);
  return { body: input.body, model, parameters, conditions, active, graph };
}

function isActive(condition: string | undefined, conditions: Map<string, boolean>): boolean {
  if (condition === undefined) return true;
  if (!conditions.has(condition)) {
    throw validationError(`Template format error: Unresolved dependencies [${condition}]. Cannot reference resources in the Conditions block of the template`);
  }
  return conditions.get(condition)!;
}

function checkResourceTypes(model: TemplateModel, isKnownType: (type: string) => boolean): void {
  const unknown = [...new Set([...model.resources.values()].map((r) => r.type))].filter(
    (t) => !t.startsWith('Custom::') && !isKnownType(t),
  );
  if (unknown.length) throw validationError(`Template format error: Unrecognized resource types: [${unknown.join(', ')}]`);
}

function checkOutputReferences(model: TemplateModel, conditions: Map<string, boolean>, active: Set<string>) {
  for (const output of model.outputs) {
    if (output.condition !== undefined && !isActive(output.condition, conditions)) continue;
    const names = [...referencedResourceNames(output.value, model)].filter((n) => !active.has(n));
    if (names.length) throw validationError(`Unresolved resource dependencies [${names.join(', ')}] in the Outputs block of the template`);
  }
}

function referencedResourceNames(value: unknown, model: TemplateModel): Set<string> {
  return new Set([...referencedNames(value)].filter((n) => model.resources.has(n)));
}

/** IAM resources need CAPABILITY_IAM, or CAPABILITY_NAMED_IAM when they carry a custom name. */
const IAM_NAME_PROPERTIES: Record<string, string> = {
  'AWS::IAM::Role': 'RoleName',
  'AWS::IAM::User': 'UserName',
  'AWS::IAM::Group': 'GroupName',
  'AWS::IAM::ManagedPolicy': 'ManagedPolicyName',
  'AWS::IAM::InstanceProfile': 'InstanceProfileName',
};
const IAM_TYPES = new Set([...Object.keys(IAM_NAME_PROPERTIES), 'AWS::IAM::Policy', 'AWS::IAM::AccessKey',
  'AWS::IAM::UserToGroupAddition', 'AWS::IAM::RolePolicy', 'AWS::IAM::UserPolicy', 'AWS::IAM::GroupPolicy']);

export function requiredCapabilities(prepared: PreparedTemplate): { capabilities: string[]; types: string[] } {
  const types = new Set<string>();
  let named = false;
  for (const id of prepared.active) {
    const r = prepared.model.resources.get(id)!;
    if (!IAM_TYPES.has(r.type)) continue;
    types.add(r.type);
    const nameProp = IAM_NAME_PROPERTIES[r.type];
    if (nameProp && r.properties[nameProp] !== undefined) named = true;
  }
  const capabilities = types.size ? [named ? 'CAPABILITY_NAMED_IAM' : 'CAPABILITY_IAM'] : [];
  if (prepared.model.transforms.length) capabilities.push('CAPABILITY_AUTO_EXPAND');
  return { capabilities, types: [...types] };
}

export function checkCapabilities(prepared: PreparedTemplate, given: string[] = []): void {
  const { capabilities } = requiredCapabilities(prepared);
  const missing = capabilities.filter((c) => {
    if (c === 'CAPABILITY_IAM') return !given.includes('CAPABILITY_IAM') && !given.includes('CAPABILITY_NAMED_IAM');
    return !given.includes(c);
  });
  if (missing.length) throw awsError('InsufficientCapabilitiesException', `Requires capabilities : [${missing.join(', ')}]`);
}
