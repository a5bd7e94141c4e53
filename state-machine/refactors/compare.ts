// No configuration change: each matched resource's properties, evaluated in its new template where every resource
// reads as the existing one it will be, equal what the resource has now (its stored, evaluated properties).
import { isDeepStrictEqual } from 'node:util';
import { evaluateRefactored, type RefactorView } from './context.js';
import type { Match } from './match.js';

/** AWS's refusal naming the resources whose configuration the new templates change, or undefined. */
export function changedResources(view: RefactorView, matches: Match[]): string | undefined {
  const changed: string[] = [];
  for (const m of matches) {
    const def = m.to.template.model.resources.get(m.logicalId)!;
    let after: unknown;
    try {
      after = evaluateRefactored(view, m.to, def.properties);
    } catch (err) {
      return `Template of stack [${m.to.stack.name}]: ${(err as Error).message}`;
    }
    if (!isDeepStrictEqual(normal(after), normal(m.source.doc.properties ?? {}))) {
      changed.push(`${m.to.stack.name}/${m.logicalId}`);
    }
  }
  if (!changed.length) return undefined;
  return `Stack refactor cannot modify resource configuration. The following resources have changes: [${changed.join(', ')}].`;
}

/** Values as JSON carries them (numbers and booleans written as strings compare as written). */
const normal = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? {}));
