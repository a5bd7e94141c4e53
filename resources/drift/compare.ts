// Drift: a resource's expected properties (its template's resolved values) against its actual ones, as AWS's
// PropertyDifferences report them: JSON-pointer paths, values as text, ADD / REMOVE / NOT_EQUAL.
import { DEFAULTS, UNORDERED, WRITE_ONLY } from './rules.js';
import { resourceSpec } from '../spec.js';
import { isObject } from '../../domain/values.js';

export type DifferenceType = 'ADD' | 'REMOVE' | 'NOT_EQUAL';

export interface PropertyDifference {
  PropertyPath: string;
  ExpectedValue: string;
  ActualValue: string;
  DifferenceType: DifferenceType;
}

export interface Comparison {
  /** The template's properties AWS checks (write-only ones and unresolvable references left out), keys sorted. */
  expected: Record<string, unknown>;
  /** The actual values of those same properties. */
  actual: Record<string, unknown>;
  differences: PropertyDifference[];
}

/** Only the properties the template sets are checked (AWS's rule); a default the template states matches absence. */
export function compareProperties(
  type: string,
  template: Record<string, unknown>,
  world: Record<string, unknown>,
): Comparison {
  const writeOnly = WRITE_ONLY[type] ?? [];
  // the resource specification's defaults, and the hand-written ones where the spec records none
  const defaults = { ...resourceSpec(type)?.defaults, ...DEFAULTS[type] };
  const expected: Record<string, unknown> = {};
  const actual: Record<string, unknown> = {};
  for (const key of Object.keys(template).sort()) {
    if (writeOnly.includes(key) || template[key] === undefined) continue;
    expected[key] = template[key];
    const value = world[key] ?? defaults[key];
    if (value !== undefined) actual[key] = value;
  }
  const differences: PropertyDifference[] = [];
  const unordered = new Set([...(UNORDERED[type] ?? []), '/Tags']);
  for (const key of Object.keys(expected)) {
    diff(`/${escape(key)}`, expected[key], actual[key], unordered, differences);
  }
  return { expected, actual, differences };
}

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** A value as PropertyDifferences shows it: scalars as their text, objects and lists as JSON, absence as `null`. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** CloudFormation compares scalars as text: a template's "128" is the service's 128, "true" its true. */
function sameScalar(a: unknown, b: unknown): boolean {
  return asText(a) === asText(b);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => deepEqual(a[k], b[k]));
  }
  if (Array.isArray(a) || Array.isArray(b) || isObject(a) || isObject(b)) return false;
  return sameScalar(a, b);
}

function diff(path: string, expected: unknown, actual: unknown, unordered: Set<string>, out: PropertyDifference[]) {
  const push = (DifferenceType: DifferenceType, e: unknown, a: unknown) =>
    out.push({ PropertyPath: path, ExpectedValue: asText(e), ActualValue: asText(a), DifferenceType });
  if (actual === undefined) return push('REMOVE', expected, undefined);
  if (isObject(expected) && isObject(actual)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const child = `${path}/${escape(key)}`;
      if (expected[key] === undefined) out.push(added(child, actual[key]));
      else diff(child, expected[key], actual[key], unordered, out);
    }
    return;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (unordered.has(path.replace(/\/\d+(?=\/|$)/g, ''))) return diffAsSet(path, expected, actual, out);
    expected.forEach((e, i) => {
      if (i < actual.length) diff(`${path}/${i}`, e, actual[i], unordered, out);
      else
        out.push({
          PropertyPath: `${path}/${i}`,
          ExpectedValue: asText(e),
          ActualValue: 'null',
          DifferenceType: 'REMOVE',
        });
    });
    for (let i = expected.length; i < actual.length; i++) out.push(added(`${path}/${i}`, actual[i]));
    return;
  }
  if (!deepEqual(expected, actual)) push('NOT_EQUAL', expected, actual);
}

const added = (path: string, value: unknown): PropertyDifference => ({
  PropertyPath: path,
  ExpectedValue: 'null',
  ActualValue: asText(value),
  DifferenceType: 'ADD',
});

/** A list whose order means nothing (Tags, and the lists the rules name): members matched by value. */
function diffAsSet(path: string, expected: unknown[], actual: unknown[], out: PropertyDifference[]) {
  const unmatched = [...actual.keys()];
  expected.forEach((e, i) => {
    const at = unmatched.findIndex((j) => deepEqual(e, actual[j]));
    if (at >= 0) unmatched.splice(at, 1);
    else
      out.push({
        PropertyPath: `${path}/${i}`,
        ExpectedValue: asText(e),
        ActualValue: 'null',
        DifferenceType: 'REMOVE',
      });
  });
  for (const j of unmatched) out.push(added(`${path}/${j}`, actual[j]));
}
