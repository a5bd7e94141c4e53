// The values a change set previews: a template's resource properties evaluated against the deployed stack, with
// AWS's `{{changeSet:KNOWN_AFTER_APPLY}}` for whatever only execution can tell (a new or replaced resource's Ref and
// attributes, an export that does not exist yet), and the references each property makes.
import type { PreparedTemplate } from './index.js';
import { evaluate } from './intrinsics/index.js';
import type { EvalContext, ParameterValue } from './intrinsics/context.js';
import { PSEUDO_PARAMETERS } from './intrinsics/references.js';
import { isList, entriesOf } from '../domain/values.js';

export const KNOWN_AFTER_APPLY = '{{changeSet:KNOWN_AFTER_APPLY}}';

/** How a resource fares in the change set, as far as the values read from it are concerned. */
export type SourceState = 'added' | 'replaced' | 'conditional' | 'modified';

export interface ValueSources {
  state: Map<string, SourceState>;
  ref(logicalId: string): unknown;
  /** The attribute after the change: the deployed value, or the new property of the same name for an in-place update. */
  attribute(logicalId: string, attribute: string): unknown;
  importValue: (name: string) => string | undefined;
  pseudo: Record<string, unknown>;
  availabilityZones: (region: string) => string[];
}

/** Evaluates a value; an evaluation error or an unknown reference yields KNOWN_AFTER_APPLY, with a warning. */
export function previewValue(
  template: PreparedTemplate,
  sources: ValueSources,
  value: unknown,
  warn: (m: string) => void,
): unknown {
  const unknown = (id: string) => {
    const state = sources.state.get(id);
    return state === 'added' || state === 'replaced' || state === 'conditional';
  };
  const ctx: EvalContext = {
    model: template.model,
    parameters: new Map<string, ParameterValue>(template.parameters.map((p) => [p.key, p.value])),
    pseudo: sources.pseudo,
    conditions: template.conditions,
    resourceRef: (id) => (unknown(id) ? KNOWN_AFTER_APPLY : (sources.ref(id) ?? KNOWN_AFTER_APPLY)),
    resourceAttribute: (id, attr) =>
      unknown(id) ? KNOWN_AFTER_APPLY : (sources.attribute(id, attr) ?? KNOWN_AFTER_APPLY),
    importValue: (name) => {
      const found = sources.importValue(name);
      if (found === undefined) warn(`No export named ${name}`);
      return found ?? KNOWN_AFTER_APPLY;
    },
    availabilityZones: sources.availabilityZones,
    path: [],
    budget: { steps: 0 },
  };
  try {
    return collapse(evaluate(value, ctx));
  } catch (err) {
    warn((err as Error).message);
    return KNOWN_AFTER_APPLY;
  }
}

/** A string built from an unknown value is itself unknown, as AWS shows it. */
function collapse(value: unknown): unknown {
  if (typeof value === 'string') return value.includes(KNOWN_AFTER_APPLY) ? KNOWN_AFTER_APPLY : value;
  if (Array.isArray(value)) return value.map(collapse);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(entriesOf(value).map(([k, v]) => [k, collapse(v)]));
  }
  return value;
}

export function isUnknown(value: unknown): boolean {
  if (value === KNOWN_AFTER_APPLY) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value !== null && typeof value === 'object') return Object.values(value).some(isUnknown);
  return false;
}

export interface Reference {
  kind: 'Ref' | 'GetAtt';
  target: string;
  attribute?: string;
}

/** Every Ref, Fn::GetAtt and Fn::Sub variable in a raw template value, in the order they appear. */
export function references(value: unknown, out: Reference[] = []): Reference[] {
  if (value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const v of value) references(v, out);
    return out;
  }
  for (const [key, arg] of entriesOf(value)) {
    if (key === 'Ref' && typeof arg === 'string') out.push({ kind: 'Ref', target: arg });
    else if (key === 'Fn::GetAtt') {
      const parts = typeof arg === 'string' ? [arg.slice(0, arg.indexOf('.')), arg.slice(arg.indexOf('.') + 1)] : arg;
      if (isList(parts) && typeof parts[0] === 'string') {
        out.push({ kind: 'GetAtt', target: parts[0], attribute: typeof parts[1] === 'string' ? parts[1] : undefined });
      }
    } else if (key === 'Fn::Sub') subReferences(arg, out);
    else references(arg, out);
  }
  return out;
}

function subReferences(arg: unknown, out: Reference[]): void {
  const text = typeof arg === 'string' ? arg : isList(arg) ? arg[0] : undefined;
  const locals = isList(arg) && arg[1] && typeof arg[1] === 'object' ? Object.keys(arg[1]) : [];
  if (isList(arg)) references(arg[1], out);
  if (typeof text !== 'string') return;
  for (const m of text.matchAll(/\$\{([^!}][^}]*)\}/g)) {
    const name = m[1].trim();
    if (locals.includes(name) || PSEUDO_PARAMETERS.has(name)) continue;
    const dot = name.indexOf('.');
    out.push(
      dot > 0
        ? { kind: 'GetAtt', target: name.slice(0, dot), attribute: name.slice(dot + 1) }
        : { kind: 'Ref', target: name },
    );
  }
}

/** How values appear in BeforeValue/AfterValue and the contexts: scalars as strings, structures as JSON text. */
export function shownValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A context document ({"Properties": {...}}) with scalar leaves as strings, as AWS renders it. */
export function contextOf(properties: Record<string, unknown> | undefined): string {
  const stringify = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(stringify);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stringify(x)]));
    return v === null || v === undefined ? v : String(v);
  };
  return JSON.stringify({ Properties: stringify(properties ?? {}) });
}
