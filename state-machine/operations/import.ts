// ChangeSetType IMPORT: bring physical resources the account already holds (a retained resource no stack owns) into
// a stack. CreateChangeSet checks what AWS checks; ExecuteChangeSet runs IMPORT_IN_PROGRESS → per resource
// IMPORT_IN_PROGRESS → IMPORT_COMPLETE → stack IMPORT_COMPLETE, or IMPORT_ROLLBACK_* when a resource is gone by then.
import type { ResourceRecord, StackRecord, Store } from '../../storage/index.js';
import type { WorldResource } from '../../storage/world.js';
import { echo, validationError } from '../../domain/errors.js';
import type { PreparedTemplate } from '../../template/index.js';
import type { ChangeModel } from '../../template/diff.js';
import { refValue } from '../../resources/generic.js';
import { setResourceStatus } from '../transitions.js';
import { RESOURCE_PHASES } from '../statuses.js';
import { prepareForStack } from '../prepare.js';
import { applyPolicies } from '../resourceActions.js';
import { evaluateIn, type Runtime } from '../runtime.js';
import { sleep } from '../providerCalls.js';
import { evaluateOutputs } from './outputs.js';
import type { Engine } from '../engine.js';
import type { CreateStackInput } from '../inputs.js';
import { tagsOf } from '../stackRecords.js';
import type { ExecuteExtras } from './create.js';
import type { ResourceToImport } from '../inputs.js';
import { reachOutcome } from '../outcomes.js';
import { keepPrevious, runOperation, type RunRow } from './run.js';
import { ownedBy, rowOf } from '../../resources/worldRows.js';

export type { ResourceToImport };

export interface ImportCheck {
  physicalIds: Map<string, string>;
  /** Why the change set ends FAILED (the resource is missing or owned by a stack), found while it is created. */
  failure?: string;
}

const list = (ids: string[]) => `[${ids.map(echo).join(', ')}]`;

/** The synchronous checks of an IMPORT change set, then where each resource to import is in the account. */
export function checkImport(
  store: Store,
  stack: StackRecord,
  after: PreparedTemplate,
  before: PreparedTemplate | undefined,
  items: ResourceToImport[] | undefined,
): ImportCheck {
  if (!items?.length) throw validationError('ResourcesToImport must be specified for an IMPORT change set.');
  const notInTemplate = items
    .filter((i) => !i.LogicalResourceId || !after.active.has(i.LogicalResourceId))
    .map((i) => String(i.LogicalResourceId));
  if (notInTemplate.length)
    throw validationError(`The following resources to import ${list(notInTemplate)} are not present in the template.`);
  const noPolicy = items
    .filter((i) => after.model.resources.get(i.LogicalResourceId!)!.deletionPolicy === undefined)
    .map((i) => i.LogicalResourceId!);
  // Real AWS text, quoted in many GitHub issues (e.g. aws-quickstart/quickstart-awx#38).
  if (noPolicy.length)
    throw validationError(
      `The following resources to import ${list(noPolicy)} must have DeletionPolicy attribute specified in the template.`,
    );
  // Text quoted in awslabs/aws-security-assessment-solution#6.
  if (JSON.stringify(before?.model.doc.Outputs ?? {}) !== JSON.stringify(after.model.doc.Outputs ?? {})) {
    throw validationError('As part of the import operation, you cannot modify or add [Outputs]');
  }
  const inStack = items.filter((i) => before?.active.has(i.LogicalResourceId!)).map((i) => i.LogicalResourceId!);
  if (inStack.length)
    throw validationError(`The following resources to import ${list(inStack)} already exist in the stack.`);
  const physicalIds = new Map<string, string>();
  const failures: string[] = [];
  for (const item of items) {
    const type = after.model.resources.get(item.LogicalResourceId!)!.type;
    if (item.ResourceType !== undefined && item.ResourceType !== type) {
      throw validationError(
        `The ResourceType ${item.ResourceType} of resource to import ${item.LogicalResourceId} does not match the template's ${type}.`,
      );
    }
    const identifier = Object.values(item.ResourceIdentifier ?? {}).at(0);
    if (identifier === undefined)
      throw validationError(`ResourceIdentifier is required for resource to import ${item.LogicalResourceId}.`);
    const found = findInWorld(store, stack, type, identifier);
    physicalIds.set(item.LogicalResourceId!, found?.physicalId ?? identifier);
    if (!found) failures.push(`Resource of type '${type}' with identifier '${identifier}' was not found.`);
    else if (found.stackId) failures.push(`${identifier} already exists in stack ${found.stackId}`);
  }
  return {
    physicalIds,
    failure: failures.length ? `Import of the following resources failed: ${failures.join(' ')}` : undefined,
  };
}

/** During an import nothing else may change (AWS's wording for resources modified alongside an import). */
export function checkOnlyImports(model: ChangeModel): void {
  const others = model.changes.filter((c) => c.Action !== 'Import').map((c) => c.LogicalResourceId);
  if (others.length) {
    throw validationError(
      `You have modified resources ${list(others)} in your template that are not being imported. Update, create or delete operations cannot be executed during import operations.`,
    );
  }
}

function findInWorld(store: Store, stack: StackRecord, type: string, identifier: string): WorldResource | undefined {
  return (
    store.world.get(stack.account, stack.region, type, identifier) ??
    store.world.byName(stack.account, stack.region, type, identifier)
  );
}

/** ExecuteChangeSet of an IMPORT change set (AWS names the operation UPDATE_STACK, even for a new stack). */
export function startImport(
  engine: Engine,
  stack: StackRecord,
  input: CreateStackInput,
  body: string,
  extras: ExecuteExtras,
): void {
  const { store, clock } = engine.deps;
  const reviewing = stack.status === 'REVIEW_IN_PROGRESS';
  const template = prepareForStack(store, stack, body, input.Parameters, reviewing ? undefined : stack.doc.parameters);
  const operation = engine.operationContext(input.ClientRequestToken);
  // what the import's rollback, or a restart's, goes back to
  keepPrevious(stack, operation.operationId);
  Object.assign(stack.doc, {
    changeSetId: extras.changeSetId,
    viaChangeSet: true,
    description: template.model.description,
    parameters: template.parameters.map((p) => ({ ParameterKey: p.key, ParameterValue: p.raw })),
    noEchoKeys: template.parameters.filter((p) => p.noEcho).map((p) => p.key),
    ...(input.Tags ? { tags: tagsOf(input.Tags) } : {}),
    ...(input.Capabilities ? { capabilities: input.Capabilities } : {}),
  });
  stack.templateId = store.templates.insert(stack.stackId, body, clock.now().toISOString());
  stack.updatedAt = clock.now().toISOString();
  engine.startOperation('UPDATE_STACK', {
    operation: operation,
    stack,
    template,
    first: 'IMPORT_IN_PROGRESS',
    options: { disableRollback: input.DisableRollback, retainExceptOnCreate: input.RetainExceptOnCreate },
    run: (rt) => runOperation(rt, IMPORT_RUN),
    onEnd: extras.onEnd,
  });
}

export const failedToImport = (ids: Iterable<string>) =>
  `The following resource(s) failed to import: ${list([...ids])}. `;

/**
 * The import's row of the run skeleton: each resource the change set imports in turn, each tried whatever failed
 * before; any failure rolls back (an import has no failed-and-kept status).
 */
export const IMPORT_RUN: RunRow = {
  kind: 'IMPORT',
  action: 'Import',
  plan: (rt) => {
    const ids = new Set(importItems(rt).map((i) => i.LogicalResourceId));
    return {
      ids: rt.template.graph.order.filter((id) => ids.has(id)),
      act: (id) => importOne(rt, id),
      failed: failedToImport,
      oneByOne: true,
    };
  },
  outputs: evaluateOutputs,
  complete: async (rt) => {
    rt.stack.doc.previous = undefined;
    reachOutcome(rt, 'IMPORT', 'complete');
  },
  fail: async (rt, reason) => {
    reachOutcome(rt, 'IMPORT', 'rollbackInProgress', reason);
    rollbackImport(rt);
  },
  rollBack: async (rt) => rollbackImport(rt),
  interrupted: (rt, cancelled) => IMPORT_RUN.fail(rt, failedToImport(cancelled)),
};

/** IMPORT_ROLLBACK_IN_PROGRESS → IMPORT_ROLLBACK_COMPLETE: what was imported is released, the template goes back. */
function rollbackImport(rt: Runtime): void {
  for (const id of importItems(rt).map((i) => i.LogicalResourceId)) {
    const r = id === undefined ? undefined : rt.resources.get(id);
    if (r?.status === 'IMPORT_COMPLETE') release(rt, r);
  }
  rt.stack.templateId = rt.stack.doc.previous?.templateId ?? rt.stack.templateId;
  rt.stack.doc.previous = undefined;
  reachOutcome(rt, 'IMPORT', 'rollbackComplete');
}

/** IMPORT_IN_PROGRESS → IMPORT_COMPLETE, the world row taking the stack as its owner in the same transaction. */
async function importOne(rt: Runtime, logicalId: string): Promise<boolean> {
  const def = rt.template.model.resources.get(logicalId)!;
  const r: ResourceRecord = {
    stackId: rt.stack.stackId,
    logicalId,
    account: rt.stack.account,
    region: rt.stack.region,
    type: def.type,
    status: RESOURCE_PHASES.Import.start,
    updatedAt: rt.clock.now().toISOString(),
    ord: def.ord,
    doc: { properties: evaluateIn(rt, def.properties) as Record<string, unknown>, createdBy: undefined },
  };
  const identifier = importedIdentifier(rt, logicalId);
  const found = identifier ? (rt.world.get(def.type, identifier) ?? rt.world.byName(def.type, identifier)) : undefined;
  r.physicalId = found?.physicalId ?? identifier;
  applyPolicies(rt, r);
  rt.resources.set(logicalId, r);
  setResourceStatus(rt, r, 'Import', 'start');
  // a DelayMs in the resource's cfn-local Metadata holds the import too (a restart can then land mid-import)
  await sleep(delayOf(def.metadata), rt.stop.signal, rt.env?.timers);
  if (!found || found.stackId) {
    setResourceStatus(rt, r, 'Import', 'failed', {
      reason: `Resource of type '${def.type}' with identifier '${identifier}' was not found.`,
    });
    return false;
  }
  r.doc.attributes = found.attributes;
  r.doc.ref = refValue({ type: def.type, physicalId: found.physicalId, attributes: found.attributes });
  setResourceStatus(rt, r, 'Import', 'complete', {
    alongside: () => rt.world.put({ ...found, stackId: rt.stack.stackId, logicalId }),
  });
  return true;
}

/** The ResourcesToImport of the change set being executed. */
function importItems(rt: Runtime): ResourceToImport[] {
  const cs = rt.stack.doc.changeSetId ? rt.store.changeSets.byId(rt.stack.doc.changeSetId) : undefined;
  return (cs?.doc.imports ?? []) as ResourceToImport[];
}

function importedIdentifier(rt: Runtime, logicalId: string): string | undefined {
  const item = importItems(rt).find((i) => i.LogicalResourceId === logicalId);
  return Object.values(item?.ResourceIdentifier ?? {})[0];
}

function delayOf(metadata: unknown): number {
  const block = (metadata as { 'cfn-local'?: { DelayMs?: unknown } } | undefined)?.['cfn-local'];
  return Number(block?.DelayMs ?? 0) || 0;
}

/** An import rolled back: the resource leaves the stack but stays in the account, as before. */
function release(rt: Runtime, r: ResourceRecord): void {
  const found = rowOf(rt.world, ownedBy(r));
  rt.store.transaction(() => {
    if (found) rt.world.put({ ...found, stackId: undefined, logicalId: undefined });
    setResourceStatus(rt, r, 'ImportRollback', 'complete', { removeRow: true });
  });
}
