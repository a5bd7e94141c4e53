// The AWS resource specification for providers: reads generated/spec.json (built by scripts/gen-spec.mjs) lazily, one type at a time.
//
// generated/spec.json holds one resource type per line (`"AWS::S3::Bucket":{...},`) and, on its last line, an index
// of each entry's byte range. The first call reads only the file's tail and parses the index (about 3 ms, against
// some 40 ms to read and parse the whole 1.8 MB); a type's entry is read and parsed on first use, then cached.
// Entry keys:
//   p  properties           name → property code          d   type definitions  name → (name → property code)
//   a  attributes (GetAtt)  name → type code              pi  primaryIdentifier  ref cfnRefIdentifier (what Ref returns)
//   arn arnTemplate         n  name property              st  isStateful         tag [tag property, variant]
//   dep deprecated type     ar extra replacement paths    tf  required transform
//   e  allowed values       `Property` or `Definition.Property` → the values the spec allows (its only value constraint)
//   da attributes AWS's user guide documents that the spec lacks (already merged into `a`)
//   ds attribute → the sample value AWS's user guide shows for it      rs the sample value it shows for Ref
// A property code is "<type code>[ <flags>]"; flags: r required, R replacement always, C replacement conditional,
// D deprecated. Type codes: s string, n number, i integer, b boolean, j json, d date-time, t tag, z null,
// [X list of X, {X map of X, #Name type definition, (X|Y) union.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type ScalarKind = 'string' | 'number' | 'integer' | 'boolean' | 'json' | 'date-time' | 'tag' | 'null';

export type PropertyType =
  | { readonly kind: ScalarKind }
  | { readonly kind: 'list' | 'map'; readonly element: PropertyType }
  | { readonly kind: 'ref'; readonly name: string }
  | { readonly kind: 'union'; readonly types: readonly PropertyType[] };

export type ReplacementKind = 'Always' | 'Conditionally' | 'Never';

export interface PropertySpec {
  readonly type: PropertyType;
  readonly required: boolean;
  /** Whether changing the property replaces the resource (the spec's causesReplacement yes / maybe / no). */
  readonly replacement: ReplacementKind;
  readonly deprecated: boolean;
  /** The values the spec allows (for a list or map: for each element); the spec's only value constraint. */
  readonly allowedValues?: readonly (string | number)[];
}

export type PropertySpecs = Readonly<Record<string, PropertySpec>>;

export interface ResourceSpec {
  readonly type: string;
  readonly properties: PropertySpecs;
  /** Named type definitions that properties refer to with { kind: 'ref', name }. */
  readonly definitions: Readonly<Record<string, PropertySpecs>>;
  /** Fn::GetAtt names, dotted ones included (`Endpoint.Address`), with their types. */
  readonly attributes: Readonly<Record<string, PropertyType>>;
  readonly primaryIdentifier: readonly string[];
  /** What Ref returns: the spec's cfnRefIdentifier, else the primary identifier. */
  readonly refIdentifier: readonly string[];
  readonly arnTemplate?: string;
  /** The property that becomes the physical name when set, and that CloudFormation generates when omitted. */
  readonly nameProperty?: string;
  /** Top-level properties whose change always replaces the resource ("causes replacement", createOnly). */
  readonly createOnlyProperties: readonly string[];
  readonly conditionalReplacementProperties: readonly string[];
  /** Nested paths (`*` = any list index) that also replace, beyond what the definitions mark. */
  readonly additionalReplacementPaths: readonly (readonly string[])[];
  readonly isStateful: boolean;
  readonly tagging?: { readonly property: string; readonly variant: 'standard' | 'asg' | 'map' };
  readonly deprecated: boolean;
  readonly requiredTransform?: string;
  /** The registry schemas' defaults of top-level properties, where the spec records one. */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** The sample values AWS's user guide shows for attributes (`arn:aws:ecr:eu-west-1:123456789012:repository/…`). */
  readonly attributeSamples: Readonly<Partial<Record<string, string>>>;
  /** The sample value AWS's user guide shows for Ref, if any. */
  readonly refSample?: string;
}

interface RawEntry {
  p: Record<string, string>;
  d?: Record<string, Record<string, string>>;
  a?: Record<string, string>;
  pi?: string[];
  ref?: string[];
  arn?: string;
  n?: string;
  st?: 1;
  tag?: [string, 'standard' | 'asg' | 'map'];
  dep?: 1;
  ar?: string[][];
  tf?: string;
  df?: Record<string, unknown>;
  ds?: Record<string, string>;
  rs?: string;
  e?: Record<string, (string | number)[]>;
}

interface SpecFile {
  readonly path: string;
  /** Byte range [start, end) of each type's entry. */
  readonly index: Readonly<Record<string, [number, number]>>;
  readonly types: readonly string[];
}

const SCALARS: Partial<Record<string, ScalarKind>> = {
  s: 'string',
  n: 'number',
  i: 'integer',
  b: 'boolean',
  j: 'json',
  d: 'date-time',
  t: 'tag',
  z: 'null',
};
// The compiled file runs from dist/resources/, the source (vitest, tsx) from resources/.
const CANDIDATE_PATHS = ['../generated/spec.json', '../../generated/spec.json'];

let file: SpecFile | undefined;
/** Decoded specifications, at most one per type of the file (~1,800); a miss is one index lookup and not kept. */
const cache = new Map<string, ResourceSpec>();

/**
 * The specification of one resource type, or undefined when CloudFormation does not know the type. Unknown types
 * are not remembered: any `Custom::<name>` reaches here, and a fuzzer's names would otherwise be kept for ever.
 */
export function resourceSpec(type: string): ResourceSpec | undefined {
  const hit = cache.get(type);
  if (hit) return hit;
  const spec = decode(type);
  if (spec) cache.set(type, spec);
  return spec ?? PRIVATE_SPECS.get(type);
}

/**
 * The specifications of extensions registered (RegisterType) or activated (ActivateType) in the registry, from their
 * default version's schema (state-machine/registry/specs.ts keeps it): the generic provider serves their resources.
 * Keyed by type name alone, as the provider is asked by type; which accounts may use a type is the template
 * check's business (state-machine/prepare.ts).
 */
export const PRIVATE_SPECS = new Map<string, ResourceSpec>();

export function isKnownType(type: string): boolean {
  return Object.prototype.hasOwnProperty.call(specFile().index, type);
}

export function typeCount(): number {
  return specFile().types.length;
}

export function knownTypes(): string[] {
  return [...specFile().types];
}

function specFile(): SpecFile {
  file ??= loadFile();
  return file;
}

function loadFile(): SpecFile {
  for (const candidate of CANDIDATE_PATHS) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      continue;
    }
    try {
      const index = readIndex(fd);
      return { path, index, types: Object.keys(index) };
    } finally {
      closeSync(fd);
    }
  }
  throw new Error(
    `generated/spec.json not found near ${fileURLToPath(import.meta.url)}; run "node scripts/gen-spec.mjs"`,
  );
}

// The last line is `"index":{...}}`; read a tail large enough to hold it, growing it if needed.
function readIndex(fd: number): Record<string, [number, number]> {
  const size = fstatSync(fd).size;
  for (let tail = 256 * 1024; ; tail *= 2) {
    const length = Math.min(tail, size);
    const bytes = readBytes(fd, size - length, size);
    const end = bytes[bytes.length - 1] === 0x0a ? bytes.length - 1 : bytes.length;
    const newline = bytes.lastIndexOf(0x0a, end - 1);
    if (newline !== -1 || length === size) {
      const line = bytes.toString('utf8', newline + 1, end);
      return (JSON.parse(`{${line}`) as { index: Record<string, [number, number]> }).index;
    }
  }
}

function readBytes(fd: number, start: number, end: number): Buffer {
  const buffer = Buffer.allocUnsafe(end - start);
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, start + read);
    if (n === 0) throw new Error('generated/spec.json is truncated');
    read += n;
  }
  return buffer;
}

function readEntry(path: string, [start, end]: [number, number]): string {
  const fd = openSync(path, 'r');
  try {
    return readBytes(fd, start, end).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Every type's specification, decoded from one read of the whole file (what listing all of AWS's types needs: one
 * read instead of a read per type), then kept in the cache as single lookups keep them.
 */
export function allResourceSpecs(): ResourceSpec[] {
  const { path, index, types } = specFile();
  if (cache.size < types.length) {
    const fd = openSync(path, 'r');
    let bytes: Buffer;
    try {
      bytes = readBytes(fd, 0, fstatSync(fd).size);
    } finally {
      closeSync(fd);
    }
    for (const type of types) {
      if (cache.has(type)) continue;
      const [start, end] = index[type];
      cache.set(type, decodeEntry(type, bytes.toString('utf8', start, end)));
    }
  }
  return types.map((t) => cache.get(t)!);
}

function decode(type: string): ResourceSpec | undefined {
  const { path, index } = specFile();
  if (!Object.prototype.hasOwnProperty.call(index, type)) return undefined;
  return decodeEntry(type, readEntry(path, index[type]));
}

function decodeEntry(type: string, entry: string): ResourceSpec {
  const raw = JSON.parse(entry) as RawEntry;
  const properties = decodeProperties(raw.p, raw.e, '');
  const names = Object.keys(properties);
  const pi = raw.pi ?? [];
  return {
    type,
    properties,
    definitions: Object.fromEntries(
      Object.entries(raw.d ?? {}).map(([k, v]) => [k, decodeProperties(v, raw.e, `${k}.`)]),
    ),
    attributes: Object.fromEntries(Object.entries(raw.a ?? {}).map(([k, v]) => [k, parseType(v)])),
    primaryIdentifier: pi,
    refIdentifier: raw.ref ?? pi,
    arnTemplate: raw.arn,
    nameProperty: raw.n,
    createOnlyProperties: names.filter((n) => properties[n].replacement === 'Always'),
    conditionalReplacementProperties: names.filter((n) => properties[n].replacement === 'Conditionally'),
    additionalReplacementPaths: raw.ar ?? [],
    isStateful: raw.st === 1,
    tagging: raw.tag ? { property: raw.tag[0], variant: raw.tag[1] } : undefined,
    deprecated: raw.dep === 1,
    requiredTransform: raw.tf,
    defaults: raw.df ?? {},
    attributeSamples: raw.ds ?? {},
    refSample: raw.rs,
  };
}

function decodeProperties(raw: Record<string, string>, allowed: RawEntry['e'], prefix: string): PropertySpecs {
  const out: Record<string, PropertySpec> = {};
  for (const [name, code] of Object.entries(raw)) {
    const values = allowed?.[`${prefix}${name}`];
    out[name] = values ? { ...decodeProperty(code), allowedValues: values } : decodeProperty(code);
  }
  return out;
}

function decodeProperty(code: string): PropertySpec {
  const space = code.indexOf(' ');
  const flags = space === -1 ? '' : code.slice(space + 1);
  const replacement: ReplacementKind = flags.includes('R') ? 'Always' : flags.includes('C') ? 'Conditionally' : 'Never';
  return {
    type: parseType(space === -1 ? code : code.slice(0, space)),
    required: flags.includes('r'),
    replacement,
    deprecated: flags.includes('D'),
  };
}

/** Parses a type code (`[#Tag`, `{s`, `(j|s)`) into a PropertyType. */
export function parseType(code: string): PropertyType {
  const [type, rest] = parseAt(code, 0);
  if (rest !== code.length) throw new Error(`bad type code ${code}`);
  return type;
}

function parseAt(code: string, at: number): [PropertyType, number] {
  const c = code[at];
  if (c === '[' || c === '{') {
    const [element, next] = parseAt(code, at + 1);
    return [{ kind: c === '[' ? 'list' : 'map', element }, next];
  }
  if (c === '#') {
    let end = at + 1;
    while (end < code.length && !'|)'.includes(code[end])) end++;
    return [{ kind: 'ref', name: code.slice(at + 1, end) }, end];
  }
  if (c === '(') return parseUnion(code, at + 1);
  const kind = SCALARS[c];
  if (!kind) throw new Error(`bad type code ${code} at ${at}`);
  return [{ kind }, at + 1];
}

function parseUnion(code: string, at: number): [PropertyType, number] {
  const types: PropertyType[] = [];
  let pos = at;
  for (;;) {
    const [type, next] = parseAt(code, pos);
    types.push(type);
    if (code[next] === ')') return [{ kind: 'union', types }, next + 1];
    pos = next + 1;
  }
}
