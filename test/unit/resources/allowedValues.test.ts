// Every allowed-values constraint of the specification digest is enforced: a value outside it fails with the
// registry's `#/<path>: failed validation constraint for keyword [enum]`, a value inside it passes that check.
// Constraints inside type definitions are reached through the first property path that leads to them.
import { describe, expect, it } from 'vitest';
import { validateProperties, LEGACY_VALIDATION_TYPES } from '../../../resources/generic.js';
import {
  knownTypes,
  resourceSpec,
  type PropertySpec,
  type PropertyType,
  type ResourceSpec,
} from '../../../resources/spec.js';

interface Row {
  type: string;
  path: string[];
  prop: PropertySpec;
  wrap: (v: unknown) => Record<string, unknown>;
}

/** How to place a value at a property: as it is, or as the one element of a list or map. */
function placed(type: PropertyType, value: unknown): [unknown, string[]] {
  if (type.kind !== 'list' && type.kind !== 'map') return [value, []];
  const [inner, steps] = placed(type.element, value);
  return type.kind === 'list' ? [[inner], ['0', ...steps]] : [{ k: inner }, ['k', ...steps]];
}

/** A path from the top level to each definition (breadth first, through refs, lists and maps). */
function definitionPaths(
  spec: ResourceSpec,
): Map<string, { path: string[]; build: (inner: unknown) => Record<string, unknown> }> {
  const found = new Map<string, { path: string[]; build: (inner: unknown) => Record<string, unknown> }>();
  const queue: [
    Readonly<Record<string, PropertySpec>>,
    string[],
    (inner: Record<string, unknown>) => Record<string, unknown>,
  ][] = [[spec.properties, [], (x) => x]];
  while (queue.length) {
    const [props, path, build] = queue.shift()!;
    for (const [name, prop] of Object.entries(props)) {
      let t = prop.type;
      const steps: string[] = [];
      while (t.kind === 'list' || t.kind === 'map') {
        steps.push(t.kind === 'list' ? '0' : 'k');
        t = t.element;
      }
      if (t.kind !== 'ref' || found.has(t.name) || !(t.name in spec.definitions)) continue;
      const wrapInner = (inner: unknown) => steps.reduceRight<unknown>((v, s) => (s === '0' ? [v] : { k: v }), inner);
      const entry = { path: [...path, name, ...steps], build: (inner: unknown) => build({ [name]: wrapInner(inner) }) };
      found.set(t.name, entry);
      queue.push([
        spec.definitions[t.name],
        entry.path,
        entry.build as (inner: Record<string, unknown>) => Record<string, unknown>,
      ]);
    }
  }
  return found;
}

const ROWS: Row[] = knownTypes()
  .filter((t) => !LEGACY_VALIDATION_TYPES.has(t))
  .flatMap((type) => {
    const spec = resourceSpec(type)!;
    const rows: Row[] = Object.entries(spec.properties)
      .filter(([, p]) => p.allowedValues)
      .map(([name, prop]) => ({ type, path: [name], prop, wrap: (v) => ({ [name]: v }) }));
    for (const [def, where] of definitionPaths(spec)) {
      for (const [name, prop] of Object.entries(spec.definitions[def])) {
        if (prop.allowedValues)
          rows.push({ type, path: [...where.path, name], prop, wrap: (v) => where.build({ [name]: v }) });
      }
    }
    return rows;
  });

const outside = (prop: PropertySpec) =>
  typeof prop.allowedValues![0] === 'number' ? 987654321 : 'NOT_AN_ALLOWED_VALUE';

describe('allowed values from the specification', () => {
  it('covers thousands of constraints', () => expect(ROWS.length).toBeGreaterThan(3000));

  it.each(ROWS.map((r) => [`${r.type} ${r.path.join('/')}`, r] as const))('%s', (_, row) => {
    const [bad, badSteps] = placed(row.prop.type, outside(row.prop));
    const [good] = placed(row.prop.type, row.prop.allowedValues![0]);
    const text = `#/${[...row.path, ...badSteps].join('/')}: failed validation constraint for keyword [enum]`;
    expect(validateProperties(row.type, row.wrap(bad), 'R') ?? '').toContain(text);
    expect(validateProperties(row.type, row.wrap(good), 'R') ?? '').not.toContain(text);
  });
});
