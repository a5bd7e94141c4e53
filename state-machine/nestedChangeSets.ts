// IncludeNestedStacks: a change set that modifies a nested stack gets a change set of its own on the child, linked
// by ParentChangeSetId / RootChangeSetId, its id shown on the parent's change; executing or deleting the root
// carries them along. The child's template is read from TemplateURL as the parent's execution will read it.
import type { ChangeSetRecord } from '../storage/index.js';
import { randomSuffix } from '../resources/names.js';
import { NESTED_STACK_TYPE } from '../resources/nestedStacks.js';
import type { Caller, Engine } from './engine.js';
import { createChangeSet, docOf, expandForChangeSet } from './changeSets.js';
import type { CreateChangeSetInput } from './inputs.js';
import { prepareForStack } from './prepare.js';
import { accountScope, evaluateIn } from './runtime.js';
import { readS3Url } from '../resources/s3Urls.js';
import { endExecution, setChangeSetStatus } from './changeSetStatus.js';
import { parametersOf } from './nestedStacks.js';

const UPPER_ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** The TemplateURL and Parameters the nested resource will have, as far as they can be known before execution. */
function nestedProperties(engine: Engine, cs: ChangeSetRecord, logicalId: string): Record<string, unknown> | undefined {
  const { store } = engine.deps;
  const stack = store.stacks.byId(cs.stackId)!;
  const doc = docOf(cs);
  try {
    const template = prepareForStack(store, stack, doc.templateBody, doc.parameters, stack.doc.parameters);
    const resources = new Map(store.resources.byStack(stack.stackId).map((r) => [r.logicalId, r]));
    const rt = { store, stack, template, resources, accountScope: accountScope(stack) };
    return evaluateIn(rt, template.model.resources.get(logicalId)!.properties) as Record<string, unknown>;
  } catch {
    return undefined; // a value only the execution can know: the child is planned when it runs
  }
}

/** Creates the nested change sets of a just-created change set, and of theirs, depth first. */
export async function createNestedChangeSets(
  engine: Engine,
  caller: Caller,
  changeSetId: string,
  rootId = changeSetId,
): Promise<void> {
  const { store } = engine.deps;
  const cs = store.changeSets.byId(changeSetId)!;
  const doc = docOf(cs);
  if (!doc.includeNestedStacks || doc.type !== 'UPDATE' || doc.pending?.status === 'FAILED') return;
  const linked: Record<string, string> = {};
  for (const change of doc.changes) {
    if (change.ResourceType !== NESTED_STACK_TYPE || change.Action !== 'Modify' || !change.PhysicalResourceId) continue;
    const child = store.stacks.byId(change.PhysicalResourceId);
    const properties = nestedProperties(engine, cs, change.LogicalResourceId);
    if (!child || !properties) continue;
    const parameters = parametersOf(properties);
    let body: string;
    try {
      body = await readS3Url(store, caller, String(properties.TemplateURL ?? ''));
    } catch {
      continue;
    }
    const same =
      body === store.templates.body(child.templateId) &&
      JSON.stringify(parameters) ===
        JSON.stringify(
          child.doc.parameters.map((p) => ({ ParameterKey: p.ParameterKey, ParameterValue: p.ParameterValue })),
        );
    if (same) continue;
    const name =
      `${cs.name}-${change.LogicalResourceId}`.slice(0, 128 - 13) + `-${randomSuffix(12, UPPER_ALPHANUMERIC)}`;
    const input: CreateChangeSetInput = {
      StackName: child.stackId,
      ChangeSetName: name,
      ChangeSetType: 'UPDATE',
      Parameters: parameters,
      Capabilities: doc.capabilities,
      IncludeNestedStacks: true,
      TemplateBody: body,
    };
    const { Id } = createChangeSet(engine, caller, input, await expandForChangeSet(engine, caller, input, body));
    const created = store.changeSets.byId(Id)!;
    store.changeSets.save({
      ...created,
      doc: { ...created.doc, parentChangeSetId: changeSetId, rootChangeSetId: rootId },
    });
    linked[change.LogicalResourceId] = Id;
    await createNestedChangeSets(engine, caller, Id, rootId);
  }
  if (!Object.keys(linked).length) return;
  const fresh = store.changeSets.byId(changeSetId)!;
  const changes = docOf(fresh).changes.map((c) =>
    linked[c.LogicalResourceId] ? { ...c, ChangeSetId: linked[c.LogicalResourceId] } : c,
  );
  store.changeSets.save({ ...fresh, doc: { ...fresh.doc, changes, nestedChangeSets: Object.values(linked) } });
}

/** The nested change sets under a change set, depth first. */
export function nestedChangeSetsOf(engine: Engine, cs: ChangeSetRecord): ChangeSetRecord[] {
  const out: ChangeSetRecord[] = [];
  for (const id of docOf(cs).nestedChangeSets ?? []) {
    const child = engine.deps.store.changeSets.byId(id);
    if (child) out.push(child, ...nestedChangeSetsOf(engine, child));
  }
  return out;
}

/** The root's execution runs the whole tree: its nested change sets are executing with it. */
export function startNested(engine: Engine, cs: ChangeSetRecord): void {
  for (const child of nestedChangeSetsOf(engine, cs)) {
    if (child.executionStatus === 'AVAILABLE')
      setChangeSetStatus(engine.deps.store, child, { executionStatus: 'EXECUTE_IN_PROGRESS' });
  }
}

/** Each nested change set ends as its own stack did. */
export function endNested(engine: Engine, cs: ChangeSetRecord): void {
  const { store } = engine.deps;
  for (const child of nestedChangeSetsOf(engine, cs)) {
    const fresh = store.changeSets.byId(child.changeSetId)!;
    if (fresh.executionStatus === 'EXECUTE_IN_PROGRESS')
      endExecution(store, fresh, store.stacks.byId(fresh.stackId)!.status);
  }
}

/**
 * What settles an execution when its operation ends: the change set (and each nested one) becomes EXECUTE_COMPLETE
 * or EXECUTE_FAILED as its stack ended. Also given to an execution resumed after a restart.
 */
export function endOfExecution(engine: Engine, changeSetId: string): () => void {
  const { store } = engine.deps;
  return () => {
    const cs = store.changeSets.byId(changeSetId);
    if (cs?.executionStatus !== 'EXECUTE_IN_PROGRESS') return;
    endExecution(store, cs, store.stacks.byId(cs.stackId)!.status);
    endNested(engine, cs);
  };
}
