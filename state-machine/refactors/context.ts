// The refactor's view of its stacks after the move: each stack's new template, prepared with the parameter values
// the stack has, and an evaluation context in which every resource reads as the existing resource it will be. A
// refactor changes no resource, so every resource's properties evaluated so must equal what it has now.
import type { ResourceRecord, StackRecord, Store } from '../../storage/index.js';
import type { PreparedTemplate } from '../../template/index.js';
import { evaluate } from '../../template/intrinsics/index.js';
import { TemplateError, type EvalContext, type ParameterValue } from '../../template/intrinsics/context.js';
import { parseTemplate } from '../../template/parse.js';
import { availabilityZones } from '../../resources/regions.js';
import { providerFor } from '../../resources/registry.js';
import { prepareBody } from '../prepare.js';
import { accountScope, pseudoParameters, templateWorld } from '../runtime.js';

/** One stack as the refactor leaves it. */
export interface RefactoredStack {
  stack: StackRecord;
  isNew: boolean;
  template: PreparedTemplate;
  /** The existing resource each of its logical ids will be (filled in by the matching). */
  sources: Map<string, ResourceRecord>;
  /** The export names its template reads through Fn::ImportValue. */
  imports: Set<string>;
}

/** The new template of `stack`, with the parameter values it has (those the new template still declares). */
export function prepareRefactored(store: Store, stack: StackRecord, body: string, isNew: boolean): PreparedTemplate {
  const declared = Object.keys(parseTemplate(body).doc.Parameters ?? {});
  const kept = isNew ? [] : stack.doc.parameters.filter((p) => declared.includes(p.ParameterKey));
  return prepareBody(store, stack, body, kept);
}

/** Every stack the refactor names, as it leaves them, over the one store. */
export interface RefactorView {
  store: Store;
  stacks: RefactoredStack[];
}

/** Evaluates `value` in `at`'s new template; exports the other new templates make read as their new values. */
export function evaluateRefactored(view: RefactorView, at: RefactoredStack, value: unknown, depth = 0): unknown {
  return evaluate(value, contextOf(view, at, depth));
}

function contextOf(view: RefactorView, at: RefactoredStack, depth: number): EvalContext {
  const { stack, template } = at;
  const world = templateWorld(view.store, stack);
  const source = (logicalId: string) => {
    const r = at.sources.get(logicalId);
    if (!r) throw new TemplateError(`Resource ${logicalId} is not available`);
    return r;
  };
  return {
    model: template.model,
    parameters: new Map<string, ParameterValue>(template.parameters.map((p) => [p.key, p.value])),
    pseudo: pseudoParameters(stack, accountScope(stack)),
    conditions: template.conditions,
    resourceRef: (logicalId) => source(logicalId).doc.ref,
    resourceAttribute(logicalId, attribute) {
      const r = source(logicalId);
      if (!providerFor(r.type).supportsAttribute(r.type, attribute)) {
        throw new TemplateError(
          `Template error: resource ${logicalId} does not support attribute type ${attribute} in Fn::GetAtt`,
        );
      }
      return r.doc.attributes?.[attribute];
    },
    importValue(name) {
      at.imports.add(name);
      const made = depth < 8 ? exportedBy(view, name, depth) : undefined;
      if (made !== undefined) return made;
      const found = view.store.exports.get(stack.account, stack.region, name);
      // an export of a refactored stack that its new template no longer makes is gone once the refactor runs
      if (!found || view.stacks.some((s) => s.stack.stackId === found.stackId)) {
        throw new TemplateError(`No export named ${name} found.`);
      }
      return found.value;
    },
    availabilityZones,
    stackOutput: (req) => world.stackOutput(req),
    path: [],
    budget: { steps: 0 },
  };
}

/** The value a new template exports under `name`, if one does. */
function exportedBy(view: RefactorView, name: string, depth: number): string | undefined {
  for (const s of view.stacks) {
    for (const o of s.template.model.outputs) {
      if (o.exportName === undefined) continue;
      if (o.condition !== undefined && !s.template.conditions.get(o.condition)) continue;
      if (String(evaluateRefactored(view, s, o.exportName, depth + 1)) !== name) continue;
      const value = evaluateRefactored(view, s, o.value, depth + 1);
      return Array.isArray(value) ? value.join(',') : String(value);
    }
  }
  return undefined;
}
