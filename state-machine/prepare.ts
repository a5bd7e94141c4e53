// Prepares a template for a stack: the template pipeline fed with the stack's pseudo parameters and what it may
// read from the simulated account (SSM parameters, secrets, physical resources, other stacks' outputs).
import type { Store, StackRecord, StackParameter } from '../storage/index.js';
import { prepareTemplate, type PreparedTemplate } from '../template/index.js';
import type { GivenParameter } from '../template/parameters.js';
import { availabilityZones } from '../resources/regions.js';
import { isKnownResourceType } from '../resources/registry.js';
import { accountScope, pseudoParameters, templateWorld } from './runtime.js';
import { tagsOf } from './stackRecords.js';

export function prepareForStack(
  store: Store,
  stack: StackRecord,
  body: string,
  parameters: GivenParameter[] | undefined,
  previous?: StackParameter[],
  stored?: { resolved: Map<string, string> },
): PreparedTemplate {
  const scope = accountScope(stack);
  const world = templateWorld(store, stack);
  return prepareTemplate({
    body,
    parameters,
    previousParameters: new Map((previous ?? []).map((p) => [p.ParameterKey, p.ParameterValue])),
    ssm: world.ssm,
    secret: world.secret,
    exists: world.exists,
    pseudo: pseudoParameters(stack, scope),
    isKnownType: isKnownResourceType,
    availabilityZones,
    stored,
  });
}

/** Re-prepares a stored template with its stored parameter values (rollback, delete ordering). */
export function prepareStored(store: Store, stack: StackRecord, templateId: number, parameters: StackParameter[]) {
  const body = store.templates.body(templateId) ?? '';
  const resolved = new Map(parameters.flatMap((p) => (p.ResolvedValue !== undefined ? [[p.ParameterKey, p.ResolvedValue] as const] : [])));
  return prepareForStack(store, stack, body, parameters.map((p) => ({ ParameterKey: p.ParameterKey, ParameterValue: p.ParameterValue })), undefined, { resolved });
}

/**
 * Whether a new template leaves a stack as it is: the same template text (template-level Metadata aside), the same
 * parameter values, the same tags (when given) and no transform. UpdateStack then answers "No updates are to be
 * performed." and CreateChangeSet ends FAILED with "The submitted information didn't contain changes."
 */
export function leavesUnchanged(
  stack: StackRecord, before: PreparedTemplate, after: PreparedTemplate, tags: { Key?: string; Value?: string }[] | undefined,
): boolean {
  const strip = (doc: Record<string, unknown>) => JSON.stringify({ ...doc, Metadata: undefined });
  const params = (t: PreparedTemplate) => JSON.stringify(t.parameters.map((p) => [p.key, p.raw]));
  const sameTags = tags === undefined || JSON.stringify(tagsOf(tags)) === JSON.stringify(stack.doc.tags);
  return strip(before.model.doc) === strip(after.model.doc) && params(before) === params(after) && sameTags && !after.model.transforms.length;
}
