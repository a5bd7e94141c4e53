// Which property changes an update makes, and which of them replace the resource, from the spec's replacement marks.
//
// A top-level property marked "causes replacement" replaces on any change (Always); "maybe" gives Conditionally
// (AWS decides at run time, e.g. EC2 Instance BlockDeviceMappings). Marks inside type definitions replace only when
// that nested field changes (EC2 Instance BlockDeviceMappings/*/Ebs/KmsKeyId); the spec's extra paths likewise.
import { resourceSpec, type PropertySpec, type PropertySpecs, type PropertyType, type ResourceSpec } from '../spec.js';

export type RequiresRecreation = 'Always' | 'Conditionally';

export interface ReplacementCause {
  readonly property: string;
  readonly requiresRecreation: RequiresRecreation;
}

type Props = Readonly<Record<string, unknown>> | undefined;

/** Top-level properties whose value differs (deep compare), in the order they appear before, then after. */
export function changedProperties(before: Props, after: Props): string[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys.filter((k) => !sameValue(before?.[k], after?.[k]));
}

/** The changed properties that force replacement, with how surely. Unknown types never replace. */
export function replacementProperties(type: string, before: Props, after: Props): ReplacementCause[] {
  const spec = resourceSpec(type);
  if (!spec) return [];
  const causes: ReplacementCause[] = [];
  for (const property of changedProperties(before, after)) {
    const cause = propertyCause(spec, property, before?.[property], after?.[property]);
    if (cause) causes.push({ property, requiresRecreation: cause });
  }
  return causes;
}

function propertyCause(spec: ResourceSpec, property: string, a: unknown, b: unknown): RequiresRecreation | undefined {
  const prop = spec.properties[property] as PropertySpec | undefined;
  if (!prop) return undefined;
  if (prop.replacement === 'Always') return 'Always';
  const paths = spec.additionalReplacementPaths.filter((p) => p[0] === property).map((p) => p.slice(1));
  if (paths.some((path) => !samePaths(a, b, path))) return 'Always';
  // A "may replace" property can still hold fields that always replace (Instance BlockDeviceMappings/*/Ebs/KmsKeyId).
  const nested = nestedCause(spec, prop.type, a, b);
  return prop.replacement === 'Conditionally' ? strongest([nested, 'Conditionally']) : nested;
}

function nestedCause(spec: ResourceSpec, type: PropertyType, a: unknown, b: unknown): RequiresRecreation | undefined {
  if (sameValue(a, b)) return undefined;
  switch (type.kind) {
    case 'ref':
      return definitionCause(spec, type.name, a, b);
    case 'list': {
      const [x, y] = [asArray(a), asArray(b)];
      return strongest(
        Array.from({ length: Math.max(x.length, y.length) }, (_, i) => nestedCause(spec, type.element, x[i], y[i])),
      );
    }
    case 'map': {
      const [x, y] = [asObject(a), asObject(b)];
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      return strongest([...keys].map((k) => nestedCause(spec, type.element, x[k], y[k])));
    }
    default:
      return undefined;
  }
}

function definitionCause(spec: ResourceSpec, name: string, a: unknown, b: unknown): RequiresRecreation | undefined {
  const definition = spec.definitions[name] as PropertySpecs | undefined;
  if (!definition) return undefined;
  const [x, y] = [asObject(a), asObject(b)];
  const causes = Object.entries(definition).map(([key, prop]) => {
    if (sameValue(x[key], y[key])) return undefined;
    return prop.replacement !== 'Never' ? prop.replacement : nestedCause(spec, prop.type, x[key], y[key]);
  });
  return strongest(causes);
}

function strongest(causes: (RequiresRecreation | undefined)[]): RequiresRecreation | undefined {
  if (causes.includes('Always')) return 'Always';
  return causes.includes('Conditionally') ? 'Conditionally' : undefined;
}

// Compares the values at `path` (`*` = every list index) under a and b.
function samePaths(a: unknown, b: unknown, path: readonly string[]): boolean {
  if (path.length === 0) return sameValue(a, b);
  const [head, ...rest] = path;
  if (head === '*') {
    const [x, y] = [asArray(a), asArray(b)];
    return Array.from({ length: Math.max(x.length, y.length) }).every((_, i) => samePaths(x[i], y[i], rest));
  }
  return samePaths(asObject(a)[head], asObject(b)[head], rest);
}

/**
 * Deep equality as CloudFormation sees resolved values: scalars compare by their string form, because the
 * template's `5` and `"5"` reach the resource as the same value.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (typeof a === 'object' || typeof b === 'object') {
    if (typeof a !== 'object' || typeof b !== 'object') return false;
    const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    return [...keys].every((k) => sameValue(x[k], y[k]));
  }
  return String(a) === String(b);
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function asObject(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
