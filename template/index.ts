// The template pipeline's entry: body → parsed → transformed → model → parameters → rules → conditions → graph,
// raising at the call every error AWS raises at the call.
import { echo, awsError, isAwsError, validationError } from '../domain/errors.js';
import { parseTemplate } from './parse.js';
import { buildModel, readParameters } from './validate.js';
import { resolveParameters, type GivenParameter, type SsmLookup } from './parameters.js';
import { evaluateConditions } from './conditions.js';
import { buildGraph, referencedNames } from './graph.js';
import { checkFunctionStructure } from './structure.js';
import { checkRules, checkRulesShape } from './rules.js';
import { applyTransforms } from './transforms/index.js';
import type { ExpansionLookup } from './transforms/pending.js';
import { checkDynamicReferences, type DynamicSources } from './dynamicReferences.js';
import { evaluate } from './intrinsics/index.js';
import { UNKNOWN_VALUE, type EvalContext, type ParameterValue } from './intrinsics/context.js';
import type { ParameterDef, TemplateModel } from './model.js';
import type { ResolvedParameter } from './parameters.js';
import type { ResourceGraph } from './graph.js';

export interface PreparedTemplate {
  body: string;
  model: TemplateModel;
  parameters: ResolvedParameter[];
  conditions: Map<string, boolean>;
  active: Set<string>;
  graph: ResourceGraph;
  /** The template after transforms (JSON), when it declares any; GetTemplate's Processed stage. */
  processed?: string;
  /** Why a transform failed (CreateStack: the create fails with this reason instead of refusing the call). */
  failure?: string;
}

export interface PrepareInput {
  body: string;
  parameters?: GivenParameter[];
  previousParameters?: Map<string, string>;
  ssm?: SsmLookup;
  pseudo: Record<string, unknown>;
  isKnownType: (type: string) => boolean;
  availabilityZones: (region: string) => string[];
  /** Secrets and physical resources of the simulated account (dynamic references, AWS-specific parameter types). */
  secret?: DynamicSources['secret'];
  exists?: (type: string, id: string) => boolean | undefined;
  /** Fn::ValueOf / Fn::ValueOfAll in Rules: an attribute of the resource a parameter value names. */
  parameterAttribute?: EvalContext['parameterAttribute'];
  /**
   * A template that was deployed before (rollback, recovery, a change set's "before"): it was checked then, so
   * what the account may have changed since (Rules, AWS-specific values, dynamic references) is not re-checked,
   * and SSM-typed parameters keep their stored ResolvedValue when the parameter is gone.
   */
  stored?: { resolved: Map<string, string> };
  /** The outputs of transforms that run outside the pipeline (SAM, macros, AWS::Include); see transforms/pending.ts. */
  expansions?: ExpansionLookup;
}

export const MAX_TEMPLATE_BODY = 51_200;

/** An evaluation context that can read parameters, pseudo parameters and mappings only. */
function staticContext(model: TemplateModel, parameters: ResolvedParameter[], input: PrepareInput): EvalContext {
  return {
    model,
    parameters: new Map<string, ParameterValue>(parameters.map((p) => [p.key, p.value])),
    pseudo: input.pseudo,
    conditions: new Map(),
    resourceRef: () => undefined,
    resourceAttribute: () => undefined,
    importValue: () => '',
    availabilityZones: input.availabilityZones,
    parameterAttribute: input.parameterAttribute,
    path: [],
    budget: { steps: 0 },
  };
}

/** The model a loop collection is evaluated against before the template is validated. */
function preModel(doc: Record<string, unknown>, parameters: Record<string, ParameterDef>): TemplateModel {
  const mappings = (doc.Mappings ?? {}) as TemplateModel['mappings'];
  return { doc, parameters, mappings, conditions: {}, rules: {}, resources: new Map(), outputs: [], transforms: [] };
}

/** What the transform pass leaves: the parsed and transformed documents, and the parameters if it resolved them. */
interface Transformed {
  parsed: ReturnType<typeof parseTemplate>;
  transformed: ReturnType<typeof applyTransforms>;
  parameters?: ResolvedParameter[];
  resolve: (declared: Record<string, ParameterDef>) => ResolvedParameter[];
}

/**
 * The pipeline up to its transform pass (parse, then transforms): what state-machine/expansions.ts drives until
 * every transform that runs outside the pipeline has its output, before the synchronous start prepares it whole.
 */
export function transformTemplate(input: PrepareInput): Transformed {
  const parsed = parseTemplate(input.body);
  const region = String(input.pseudo['AWS::Region']);
  const resolve = (declared: Record<string, ParameterDef>) =>
    resolveParameters(declared, input.parameters, input.previousParameters, {
      ssm: input.ssm,
      exists: input.stored ? undefined : input.exists,
      availabilityZones: () => input.availabilityZones(region),
      previouslyResolved: input.stored?.resolved,
    });
  let parameters: ResolvedParameter[] | undefined;
  const declared = () => readParameters(parsed.doc.Parameters);
  const transformed = applyTransforms(parsed.doc, {
    evaluate: (collection) => {
      parameters ??= resolve(declared());
      return evaluate(collection, staticContext(preModel(parsed.doc, declared()), parameters, input));
    },
    parameterValues: () => Object.fromEntries((parameters ??= resolve(declared())).map((p) => [p.key, p.value])),
    account: String(input.pseudo['AWS::AccountId']),
    region,
    expansions: input.expansions,
  });
  return { parsed, transformed, parameters, resolve };
}

export function prepareTemplate(input: PrepareInput): PreparedTemplate {
  const { parsed, transformed, resolve, ...resolved } = transformTemplate(input);
  let { parameters } = resolved;
  const model = buildModel(transformed.doc);
  checkResourceTypes(model, input.isKnownType);
  checkFunctionStructure(model);
  checkRulesShape(model.rules);
  parameters ??= resolve(model.parameters);
  const ctx = staticContext(model, parameters, input);
  if (!input.stored) checkRules(ctx);
  const conditions = evaluateConditions(ctx);
  const active = new Set(
    [...model.resources.values()].filter((r) => isActive(r.condition, conditions)).map((r) => r.logicalId),
  );
  const graph = buildGraph(model, active, conditions);
  checkOutputReferences(model, conditions, active);
  preview(ctx, conditions, active);
  if (!input.stored) {
    checkDynamicReferences(
      [...active].map((id) => model.resources.get(id)!.properties),
      {
        ssm: input.ssm ?? (() => undefined),
        secret: input.secret ?? (() => undefined),
      },
    );
  }
  const processed =
    transformed.declared.length || transformed.doc !== parsed.doc
      ? JSON.stringify(withoutTransform(transformed.doc))
      : undefined;
  return { body: input.body, model, parameters, conditions, active, graph, processed };
}

/**
 * Evaluates what can be evaluated before any resource exists, so an error AWS raises at the call (Fn::Select out
 * of range on a parameter, a missing mapping key) is raised here; anything reading a resource waits for execution.
 */
function preview(base: EvalContext, conditions: Map<string, boolean>, active: Set<string>): void {
  const unknown = () => {
    ctx.preview!.count++;
    return UNKNOWN_VALUE;
  };
  const ctx: EvalContext = {
    ...base,
    conditions,
    preview: { count: 0 },
    resourceRef: unknown,
    resourceAttribute: unknown,
    importValue: unknown as unknown as () => string,
    stackOutput: unknown as unknown as () => string,
  };
  const values: unknown[] = [...active].map((id) => base.model.resources.get(id)!.properties);
  for (const o of base.model.outputs) {
    if (o.condition === undefined || conditions.get(o.condition)) values.push(o.value, o.exportName);
  }
  for (const value of values) {
    try {
      evaluate(value, ctx);
    } catch (err) {
      if (isAwsError(err)) throw err;
    }
  }
}

function withoutTransform(doc: Record<string, unknown>): Record<string, unknown> {
  const { Transform: _, ...rest } = doc;
  return rest;
}

function isActive(condition: string | undefined, conditions: Map<string, boolean>): boolean {
  if (condition === undefined) return true;
  if (!conditions.has(condition)) {
    throw validationError(
      `Template format error: Unresolved dependencies [${condition}]. Cannot reference resources in the Conditions block of the template`,
    );
  }
  return conditions.get(condition)!;
}

function checkResourceTypes(model: TemplateModel, isKnownType: (type: string) => boolean): void {
  const unknown = [...new Set([...model.resources.values()].map((r) => r.type))].filter(
    (t) => !t.startsWith('Custom::') && !isKnownType(t),
  );
  if (unknown.length)
    throw validationError(`Template format error: Unrecognized resource types: [${unknown.map(echo).join(', ')}]`);
}

function checkOutputReferences(model: TemplateModel, conditions: Map<string, boolean>, active: Set<string>) {
  for (const output of model.outputs) {
    if (output.condition !== undefined && !isActive(output.condition, conditions)) continue;
    const names = [...referencedResourceNames(output.value, model, conditions)].filter((n) => !active.has(n));
    if (names.length)
      throw validationError(
        `Unresolved resource dependencies [${names.join(', ')}] in the Outputs block of the template`,
      );
  }
}

function referencedResourceNames(value: unknown, model: TemplateModel, conditions: Map<string, boolean>): Set<string> {
  return new Set([...referencedNames(value, new Set(), conditions)].filter((n) => model.resources.has(n)));
}

/** IAM resources need CAPABILITY_IAM, or CAPABILITY_NAMED_IAM when they carry a custom name. */
export const IAM_NAME_PROPERTIES: Record<string, string> = {
  'AWS::IAM::Role': 'RoleName',
  'AWS::IAM::User': 'UserName',
  'AWS::IAM::Group': 'GroupName',
  'AWS::IAM::ManagedPolicy': 'ManagedPolicyName',
  'AWS::IAM::InstanceProfile': 'InstanceProfileName',
};
const IAM_TYPES = new Set([
  ...Object.keys(IAM_NAME_PROPERTIES),
  'AWS::IAM::Policy',
  'AWS::IAM::AccessKey',
  'AWS::IAM::UserToGroupAddition',
  'AWS::IAM::RolePolicy',
  'AWS::IAM::UserPolicy',
  'AWS::IAM::GroupPolicy',
]);

/** The capabilities a model needs, over the given resources (all of them for ValidateTemplate). */
export function capabilitiesFor(
  model: TemplateModel,
  ids: Iterable<string>,
): { capabilities: string[]; types: string[] } {
  const types = new Set<string>();
  let named = false;
  for (const id of ids) {
    const r = model.resources.get(id)!;
    if (!IAM_TYPES.has(r.type)) continue;
    types.add(r.type);
    const nameProp = IAM_NAME_PROPERTIES[r.type];
    if (nameProp && r.properties[nameProp] !== undefined) named = true;
  }
  const capabilities = types.size ? [named ? 'CAPABILITY_NAMED_IAM' : 'CAPABILITY_IAM'] : [];
  if (model.transforms.length) capabilities.push('CAPABILITY_AUTO_EXPAND');
  return { capabilities, types: [...types] };
}

export function requiredCapabilities(
  prepared: PreparedTemplate,
  changeSet = false,
): { capabilities: string[]; types: string[] } {
  const required = capabilitiesFor(prepared.model, prepared.active);
  if (changeSet) required.capabilities = required.capabilities.filter((c) => c !== 'CAPABILITY_AUTO_EXPAND');
  return required;
}

/**
 * AWS's InsufficientCapabilitiesException. A change set is the review of a transform's output, so CreateChangeSet
 * (and the execution of its change set) does not ask for CAPABILITY_AUTO_EXPAND.
 */
export function checkCapabilities(prepared: PreparedTemplate, given: string[] = [], changeSet = false): void {
  const { capabilities } = requiredCapabilities(prepared, changeSet);
  const missing = capabilities.filter((c) => {
    if (c === 'CAPABILITY_IAM') return !given.includes('CAPABILITY_IAM') && !given.includes('CAPABILITY_NAMED_IAM');
    return !given.includes(c);
  });
  if (missing.length)
    throw awsError('InsufficientCapabilitiesException', `Requires capabilities : [${missing.join(', ')}]`);
}
