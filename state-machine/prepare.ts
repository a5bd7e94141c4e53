// Prepares a template for a stack: the template pipeline fed with the stack's pseudo parameters and what it may
// read from the simulated account (SSM parameters, secrets, physical resources, other stacks' outputs).
import type { Store, StackRecord, StackParameter } from '../storage/index.js';
import { prepareTemplate, transformTemplate, type PreparedTemplate, type PrepareInput } from '../template/index.js';
import type { GivenParameter } from '../template/parameters.js';
import { availabilityZones } from '../resources/regions.js';
import { isKnownResourceType } from '../resources/registry.js';
import { isUsableType } from './registry/extensions.js';
import { accountScope, pseudoParameters, templateWorld } from './runtime.js';
import { tagsOf } from './stackRecords.js';
import {
  expandTransforms,
  mayAskForTransforms,
  recordedTemplate,
  type ExpandedTemplate,
  type TransformServices,
} from './expansions.js';
import { isTransformFailure, type ExpansionLookup } from '../template/transforms/pending.js';
import { declaredTransforms } from '../template/transforms/index.js';
import { parseTemplate } from '../template/parse.js';

/**
 * A stack's template, prepared: a call's template comes expanded (expandForStack ran its transforms); a body alone
 * is one accepted before, which reads its transforms' recorded outputs.
 */
export function prepareForStack(
  store: Store,
  stack: StackRecord,
  template: string | ExpandedTemplate,
  parameters: GivenParameter[] | undefined,
  previous?: StackParameter[],
  stored?: { resolved: Map<string, string> },
): PreparedTemplate {
  const { body, expansions } = typeof template === 'string' ? recordedTemplate(store, template) : template;
  return prepareTemplate(prepareInput(store, stack, body, expansions, parameters, previous, stored));
}

/**
 * The transform step of a call's template for `stack` (a new stack's record, not yet stored, for a create): run
 * once before the synchronous start, which prepares what it returns (see expandTransforms).
 */
export async function expandForStack(
  deps: { store: Store; transforms?: TransformServices },
  stack: StackRecord,
  body: string,
  parameters: GivenParameter[] | undefined,
  previous?: StackParameter[],
): Promise<ExpandedTemplate> {
  const { store, transforms } = deps;
  if (!mayAskForTransforms(body)) return { body, expansions: () => undefined };
  return expandTransforms(store, transforms, body, (expansions) =>
    transformTemplate(prepareInput(store, stack, body, expansions, parameters, previous)),
  );
}

function prepareInput(
  store: Store,
  stack: StackRecord,
  body: string,
  expansions: ExpansionLookup,
  parameters: GivenParameter[] | undefined,
  previous?: StackParameter[],
  stored?: { resolved: Map<string, string> },
): PrepareInput {
  const scope = accountScope(stack);
  const world = templateWorld(store, stack);
  return {
    body,
    parameters,
    previousParameters: new Map((previous ?? []).map((p) => [p.ParameterKey, p.ParameterValue])),
    ssm: world.ssm,
    secret: world.secret,
    exists: world.exists,
    parameterAttribute: world.parameterAttribute,
    pseudo: pseudoParameters(stack, scope),
    isKnownType: (type) => isKnownResourceType(type) || isUsableType(store, scope, type),
    availabilityZones,
    stored,
    expansions,
  };
}

/** Re-prepares a stored template with its stored parameter values (rollback, delete ordering). */
export function prepareStored(store: Store, stack: StackRecord, templateId: number, parameters: StackParameter[]) {
  return prepareBody(store, stack, store.templates.body(templateId) ?? '', parameters);
}

/** Prepares a template accepted before (a stack's, a change set's) with the parameter values it was given. */
export function prepareBody(store: Store, stack: StackRecord, body: string, parameters: StackParameter[]) {
  return prepareForStack(
    store,
    stack,
    body,
    parameters.map((p) => ({ ParameterKey: p.ParameterKey, ParameterValue: p.ParameterValue })),
    undefined,
    { resolved: resolvedValues(parameters) },
  );
}

/** The values SSM-typed parameters resolved to when the template was accepted, by key. */
export function resolvedValues(parameters: StackParameter[]): Map<string, string> {
  return new Map(
    parameters.flatMap((p) => (p.ResolvedValue !== undefined ? [[p.ParameterKey, p.ResolvedValue] as const] : [])),
  );
}

/**
 * Whether a new template leaves a stack as it is: the same template text (template-level Metadata aside), the same
 * parameter values, the same tags (when given) and no transform. UpdateStack then answers "No updates are to be
 * performed." and CreateChangeSet ends FAILED with "The submitted information didn't contain changes."
 */
export function leavesUnchanged(
  stack: StackRecord,
  before: PreparedTemplate,
  after: PreparedTemplate,
  tags: { Key?: string; Value?: string }[] | undefined,
): boolean {
  const strip = (doc: Record<string, unknown>) => JSON.stringify({ ...doc, Metadata: undefined });
  const params = (t: PreparedTemplate) => JSON.stringify(t.parameters.map((p) => [p.key, p.raw]));
  const sameTags = tags === undefined || JSON.stringify(tagsOf(tags)) === JSON.stringify(stack.doc.tags);
  return (
    strip(before.model.doc) === strip(after.model.doc) &&
    params(before) === params(after) &&
    sameTags &&
    !after.model.transforms.length
  );
}

/**
 * CreateStack's template. A transform that fails does not refuse the call: the stack is created and rolls back with
 * the transform's reason, as AWS reports it (`Transform … failed with: …. Rollback requested by user.`).
 */
export function prepareForCreate(
  store: Store,
  stack: StackRecord,
  template: ExpandedTemplate,
  parameters: GivenParameter[] | undefined,
): PreparedTemplate {
  try {
    return prepareForStack(store, stack, template, parameters);
  } catch (err) {
    if (!isTransformFailure(err)) throw err;
    return failedTemplate(template.body, err.message);
  }
}

/** A template with no resources: what a delete runs under (its order comes from what each resource recorded). */
export function templateWithNothing(body = '', transforms: string[] = []): PreparedTemplate {
  return {
    body,
    parameters: [],
    conditions: new Map(),
    active: new Set(),
    graph: { order: [], dependsOn: new Map(), dependents: new Map() },
    model: {
      doc: {},
      parameters: {},
      mappings: {},
      conditions: {},
      rules: {},
      resources: new Map(),
      outputs: [],
      transforms,
    },
  };
}

/** A template whose transform failed: nothing to create, the reason to fail with, and its declared transforms. */
export function failedTemplate(body: string, failure: string): PreparedTemplate {
  return { ...templateWithNothing(body, declaredTransforms(parseTemplate(body).doc.Transform)), failure };
}
