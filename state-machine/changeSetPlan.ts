// What a change set plans: its resource changes, from the template it was given against the stack as it stands
// (template/diff.ts, with the resource specification's rules), the resources ImportExistingResources adopts, and
// whether nothing would change at all.
import type { StackRecord, Store } from '../storage/index.js';
import type { PreparedTemplate } from '../template/index.js';
import { resourceChanges, type ChangeModel, type ChangeRules } from '../template/diff.js';
import { replacementProperties } from '../resources/generic.js';
import { resourceSpec } from '../resources/spec.js';
import { nameProperty } from '../resources/registry.js';
import { defaultDeletionPolicy, SNAPSHOT_TYPES } from '../resources/policies.js';
import { availabilityZones } from '../resources/regions.js';
import { tagsOf } from './stackRecords.js';
import { leavesUnchanged } from './prepare.js';
import { accountScope, pseudoParameters } from './runtime.js';
import type { CreateChangeSetInput } from './inputs.js';

/** The resource specification's answers to the change model's questions (default DeletionPolicy and Snapshot support: AWS's DeletionPolicy attribute page). */
const CHANGE_RULES: ChangeRules = {
  recreation(type, property, before, after) {
    const spec = resourceSpec(type)?.properties[property];
    if (!spec) return 'Never';
    if (after === undefined) return spec.replacement;
    return replacementProperties(type, { [property]: before }, { [property]: after })[0]?.requiresRecreation ?? 'Never';
  },
  tagProperty: (type) => resourceSpec(type)?.tagging?.property,
  defaultDeletionPolicy: (type, props) => defaultDeletionPolicy(type, props) ?? 'Delete',
  supportsSnapshot: (type) => SNAPSHOT_TYPES.has(type),
};

/**
 * ImportExistingResources: a resource the template adds with a custom name (a literal name property) that the
 * account already holds and no stack owns is imported rather than created (Action: Import).
 */
export function existingToImport(
  store: Store,
  stack: StackRecord,
  before: PreparedTemplate | undefined,
  after: PreparedTemplate,
  input: CreateChangeSetInput,
): Map<string, string> | undefined {
  if (!input.ImportExistingResources) return undefined;
  const found = new Map<string, string>();
  for (const id of after.graph.order) {
    if (before?.active.has(id)) continue;
    const def = after.model.resources.get(id)!;
    const property = nameProperty(def.type);
    const name = property ? def.properties[property] : undefined;
    if (typeof name !== 'string') continue;
    const row =
      store.world.byName(stack.account, stack.region, def.type, name) ??
      store.world.get(stack.account, stack.region, def.type, name);
    if (row && !row.stackId) found.set(id, row.physicalId);
  }
  return found.size ? found : undefined;
}

export function planChanges(
  store: Store,
  stack: StackRecord,
  before: PreparedTemplate | undefined,
  after: PreparedTemplate,
  input: CreateChangeSetInput,
  imports?: Map<string, string>,
): ChangeModel {
  const deployed = before ? store.resources.byStack(stack.stackId).filter((r) => r.physicalId) : [];
  return resourceChanges({
    before,
    after,
    imports,
    rules: CHANGE_RULES,
    deployed: deployed.map((r) => ({
      logicalId: r.logicalId,
      type: r.type,
      physicalId: r.physicalId,
      properties: r.doc.properties ?? {},
      ref: r.doc.ref,
      attributes: r.doc.attributes ?? {},
      deletionPolicy: r.doc.deletionPolicy,
    })),
    pseudo: pseudoParameters(stack, accountScope(stack)),
    importValue: (name) => store.exports.get(stack.account, stack.region, name)?.value,
    availabilityZones,
    stackTagsChanged:
      before !== undefined &&
      input.Tags !== undefined &&
      JSON.stringify(tagsOf(input.Tags)) !== JSON.stringify(stack.doc.tags),
  });
}

/** No resource change and nothing else that would change the stack (see leavesUnchanged). */
export function isEmpty(
  stack: StackRecord,
  before: PreparedTemplate | undefined,
  after: PreparedTemplate,
  model: ChangeModel,
  input: CreateChangeSetInput,
): boolean {
  return before !== undefined && !model.changes.length && leavesUnchanged(stack, before, after, input.Tags);
}
