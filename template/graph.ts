// The dependency graph of the resources that exist under the current conditions: implicit edges from Ref,
// Fn::GetAtt and Fn::Sub, explicit edges from DependsOn; unresolved and circular dependencies as AWS words them.
import { validationError } from '../domain/errors.js';
import type { TemplateModel } from './model.js';
import { PSEUDO_PARAMETERS } from './intrinsics/references.js';
import { isList, entriesOf } from '../domain/values.js';

export interface ResourceGraph {
  /** Logical ids in a dependency-respecting order (template order among independent ones). */
  order: string[];
  /** logicalId → the resources it depends on. */
  dependsOn: Map<string, Set<string>>;
  /** logicalId → the resources that depend on it. */
  dependents: Map<string, Set<string>>;
}

/**
 * Every name a value refers to through Ref, Fn::GetAtt or Fn::Sub. Given the evaluated conditions, the branch of an
 * `Fn::If` that is not taken is skipped: AWS resolves conditions before it looks for dependencies, so that branch may
 * name a resource whose condition is false (the CDK bootstrap template does, in Resources and Outputs).
 */
export function referencedNames(
  value: unknown,
  out: Set<string> = new Set(),
  conditions?: Map<string, boolean>,
): Set<string> {
  if (value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const v of value) referencedNames(v, out, conditions);
    return out;
  }
  for (const [key, arg] of entriesOf(value)) {
    const taken = key === 'Fn::If' ? takenBranch(arg, conditions) : undefined;
    if (taken) referencedNames(taken[0], out, conditions);
    else if (key === 'Ref' && typeof arg === 'string') out.add(arg);
    else if (key === 'Fn::GetAtt') {
      const target = typeof arg === 'string' ? arg.split('.')[0] : isList(arg) ? arg[0] : undefined;
      if (typeof target === 'string') out.add(target);
      if (isList(arg)) referencedNames(arg[1], out, conditions);
    } else if (key === 'Fn::Sub') {
      const text = typeof arg === 'string' ? arg : isList(arg) ? arg[0] : undefined;
      const locals = isList(arg) && arg[1] && typeof arg[1] === 'object' ? Object.keys(arg[1]) : [];
      if (typeof text === 'string') {
        for (const m of text.matchAll(/\$\{([^!}][^}]*)\}/g)) {
          const name = m[1].trim();
          if (!locals.includes(name)) out.add(PSEUDO_PARAMETERS.has(name) ? name : name.split('.')[0]);
        }
      }
      if (isList(arg)) referencedNames(arg[1], out, conditions);
    } else referencedNames(arg, out, conditions);
  }
  return out;
}

/** The branch an `Fn::If` takes (boxed, as it may be any value), when its condition is known. */
function takenBranch(arg: unknown, conditions?: Map<string, boolean>): [unknown] | undefined {
  if (!conditions || !isList(arg) || arg.length !== 3 || typeof arg[0] !== 'string') return undefined;
  const value = conditions.get(arg[0]);
  return value === undefined ? undefined : [value ? arg[1] : arg[2]];
}

/**
 * A name no section defines is refused wherever it appears; a resource whose condition is false is refused only
 * where the reference is really evaluated (outside the untaken branch of every `Fn::If`).
 */
export function buildGraph(
  model: TemplateModel,
  active: Set<string>,
  conditions?: Map<string, boolean>,
): ResourceGraph {
  const dependsOn = new Map<string, Set<string>>();
  const unresolved: string[] = [];
  const defined = (name: string) =>
    PSEUDO_PARAMETERS.has(name) || name in model.parameters || model.resources.has(name);
  for (const id of active) {
    const def = model.resources.get(id)!;
    const deps = new Set<string>();
    const names = referencedNames(def.properties, new Set(), conditions);
    referencedNames(def.metadata, names, conditions);
    const everywhere = referencedNames(def.metadata, referencedNames(def.properties));
    for (const name of everywhere) if (!defined(name) && !unresolved.includes(name)) unresolved.push(name);
    for (const name of names) {
      if (PSEUDO_PARAMETERS.has(name) || name in model.parameters) continue;
      if (active.has(name)) deps.add(name);
      else if (!unresolved.includes(name)) unresolved.push(name);
    }
    for (const name of def.dependsOn) {
      if (active.has(name)) deps.add(name);
      else if (!unresolved.includes(name)) unresolved.push(name);
    }
    deps.delete(id);
    dependsOn.set(id, deps);
  }
  if (unresolved.length) {
    throw validationError(
      `Template format error: Unresolved resource dependencies [${unresolved.join(', ')}] in the Resources block of the template`,
    );
  }
  const dependents = new Map<string, Set<string>>([...active].map((id) => [id, new Set<string>()]));
  for (const [id, deps] of dependsOn) for (const d of deps) dependents.get(d)!.add(id);
  return { order: topologicalOrder(model, active, dependsOn, dependents), dependsOn, dependents };
}

function topologicalOrder(
  model: TemplateModel,
  active: Set<string>,
  dependsOn: Map<string, Set<string>>,
  dependents: Map<string, Set<string>>,
): string[] {
  const byOrd = [...active].sort((a, b) => model.resources.get(a)!.ord - model.resources.get(b)!.ord);
  const waiting = new Map(byOrd.map((id) => [id, dependsOn.get(id)!.size]));
  const ready = byOrd.filter((id) => waiting.get(id) === 0);
  const order: string[] = [];
  for (let i = 0; i < ready.length; i++) {
    const id = ready[i];
    order.push(id);
    for (const next of dependents.get(id)!) {
      const left = waiting.get(next)! - 1;
      waiting.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  if (order.length !== active.size) {
    const cyclic = byOrd.filter((id) => !order.includes(id));
    throw validationError(`Circular dependency between resources: [${cyclic.join(', ')}]`);
  }
  return order;
}
