// Third pass: evaluate every declared condition once, in dependency order, detecting cycles.
import { validationError } from '../domain/errors.js';
import { evaluate } from './intrinsics/index.js';
import type { EvalContext } from './intrinsics/context.js';

export function evaluateConditions(ctx: EvalContext): Map<string, boolean> {
  const declared = ctx.model.conditions;
  const results = new Map<string, boolean>();
  const visiting = new Set<string>();
  // Conditions may refer to each other through `Condition`; resolve them lazily.
  const lazy = { has: (name: string) => Object.hasOwn(declared, name), get: (name: string) => resolve(name) };
  const scoped: EvalContext = { ...ctx, conditions: lazy };
  function resolve(name: string): boolean {
    const known = results.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name))
      throw validationError(
        `Template format error: Circular dependency between conditions: [${[...visiting].join(', ')}]`,
      );
    visiting.add(name);
    const value = evaluate(declared[name], scoped);
    visiting.delete(name);
    if (typeof value !== 'boolean') {
      throw validationError(
        `Template format error: Conditions can only be boolean operations on parameters and other conditions`,
      );
    }
    results.set(name, value);
    return value;
  }
  for (const name of Object.keys(declared)) resolve(name);
  return results;
}
