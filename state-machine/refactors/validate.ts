// CreateStackRefactor's validation, run after the call returns as AWS's is: the stacks are in a state a refactor may
// change, the new templates parse, every resource of the new templates is an existing resource of the named stacks
// (moved, renamed or left where it is: by ResourceMappings, or found by its logical id), none is added or removed,
// none changes its configuration, and Parameters, Mappings and Conditions stay as they are. AWS refuses stacks with a
// stack policy, moving or renaming a resource of a type it lists as unsupported (unsupported.ts), and of a type whose
// registry ProvisioningType is not FULLY_MUTABLE.
// AWS's user guide, "Stack refactoring": https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/stack-refactoring.html
import type { ResourceRecord, StackRecord, StackRefactorRecord, Store } from '../../storage/index.js';
import { newStackRecord } from '../stackRecords.js';
import { prepareRefactored, type RefactorView, type RefactoredStack } from './context.js';
import { matchResources, type Match } from './match.js';
import { changedResources } from './compare.js';
import { actionsOf } from './actions.js';
import { refactorRefuses } from './unsupported.js';
import { provisioningTypeIn } from '../registry/provisioning.js';

/** The stack statuses a refactor may start from: settled, with a template that deployed. */
const REFACTORABLE = new Set([
  'CREATE_COMPLETE',
  'UPDATE_COMPLETE',
  'UPDATE_ROLLBACK_COMPLETE',
  'IMPORT_COMPLETE',
  'IMPORT_ROLLBACK_COMPLETE',
]);
/** Resource statuses with nothing in the account behind them: such a row is not a resource a refactor moves. */
const NOT_STANDING = new Set(['CREATE_FAILED', 'DELETE_COMPLETE', 'DELETE_SKIPPED', 'CREATE_IN_PROGRESS']);
/** Template sections a refactor may not add to or change (it may drop what nothing uses any more). */
const FIXED_SECTIONS = ['Parameters', 'Mappings', 'Conditions'] as const;

export type Validation =
  | { failure: string }
  | { plan: Pick<StackRefactorRecord, 'moves' | 'actions' | 'stacks'>; view: RefactorView; matches: Match[] };

/** Validates a refactor as it was created; the failure is AWS's StatusReason of CREATE_FAILED. */
export function validateRefactor(store: Store, r: StackRefactorRecord): Validation {
  const stacks: RefactoredStack[] = [];
  for (const s of r.stacks) {
    const stack = s.isNew ? newStackOf(r, s.stackName, s.stackId) : store.stacks.byId(s.stackId);
    if (!stack || stack.status === 'DELETE_COMPLETE') return { failure: `Stack [${s.stackName}] does not exist.` };
    if (!s.isNew && !REFACTORABLE.has(stack.status)) {
      return { failure: `Stack [${s.stackName}] is in ${stack.status} state and cannot be refactored.` };
    }
    if (!s.isNew && stack.doc.stackPolicyBody !== undefined) {
      return { failure: `Stack refactor does not support stacks with a stack policy: [${s.stackName}].` };
    }
    let template;
    try {
      template = prepareRefactored(store, stack, s.body, s.isNew);
    } catch (err) {
      return { failure: `Template of stack [${s.stackName}]: ${(err as Error).message}` };
    }
    if (!s.isNew) {
      const fixed = changedSection(store, stack, template.model.doc);
      if (fixed) return { failure: `Stack refactor cannot add or change ${fixed} of stack [${s.stackName}].` };
    }
    stacks.push({ stack, isNew: s.isNew, template, sources: new Map(), imports: new Set() });
  }
  const view: RefactorView = { store, stacks };
  const standing = (stack: StackRecord) =>
    store.resources.byStack(stack.stackId).filter((x: ResourceRecord) => !NOT_STANDING.has(x.status));
  const matched = matchResources(view, r.mappings, standing);
  if ('failure' in matched) return matched;
  const moves = matched.matches.filter((m) => m.moves);
  const refused = moves.filter((m) => refactorRefuses(m.source.type));
  if (refused.length) {
    const names = refused.map((m) => `${m.from.stack.name}/${m.source.logicalId} (${m.source.type})`);
    return {
      failure: `Stack refactor does not support moving or renaming these resource types: [${names.join(', ')}].`,
    };
  }
  const immutable = moves.find((m) => !fullyMutable(store, r, m.source.type));
  if (immutable) {
    return {
      failure: `Stack Refactor does not support ${immutable.source.type} because the resource type does not allow tag updates after creation.`,
    };
  }
  const changed = changedResources(view, matched.matches);
  if (changed) return { failure: changed };
  if (!moves.length) return { failure: 'Stack refactor has no resources to move or rename.' };
  return {
    view,
    matches: matched.matches,
    plan: {
      moves: moves.map((m) => ({
        from: { stackId: m.source.stackId, logicalId: m.source.logicalId },
        to: { stackId: m.to.stack.stackId, logicalId: m.logicalId },
      })),
      actions: actionsOf(view, r, moves),
      stacks: r.stacks.map((s, i) => ({ ...s, imports: [...stacks[i].imports] })),
    },
  };
}

/**
 * Whether the registry's ProvisioningType of the type is FULLY_MUTABLE (DescribeType's answer), as AWS's refactors
 * require: a type with no update handler cannot have its stack tags changed. A type the registry does not know is
 * no bar here.
 */
function fullyMutable(store: Store, r: StackRefactorRecord, type: string): boolean {
  const provisioning = provisioningTypeIn(store, r, type);
  return provisioning === undefined || provisioning === 'FULLY_MUTABLE';
}

/** The record of a stack EnableStackCreation makes, with the id the refactor chose for it. */
export function newStackOf(r: StackRefactorRecord, name: string, stackId: string): StackRecord {
  return { ...newStackRecord(r, name, 'CREATE_IN_PROGRESS', new Date(r.createdAt)), stackId };
}

/** The first of Parameters, Mappings and Conditions the new template adds to or changes, if any. */
function changedSection(store: Store, stack: StackRecord, after: Record<string, unknown>): string | undefined {
  const before = deployedDoc(store, stack);
  for (const section of FIXED_SECTIONS) {
    const was = (before[section] ?? {}) as Record<string, unknown>;
    const now = (after[section] ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(now)) {
      if (!(key in was) || JSON.stringify(was[key]) !== JSON.stringify(value)) return section;
    }
  }
  return undefined;
}

function deployedDoc(store: Store, stack: StackRecord): Record<string, unknown> {
  try {
    return prepareRefactored(store, stack, store.templates.body(stack.templateId) ?? '{}', false).model.doc;
  } catch {
    return {};
  }
}
