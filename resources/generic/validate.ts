// Property validation against the resource specification, with the texts CloudFormation puts in CREATE_FAILED reasons.
//
// Two real formats exist, both recorded from AWS:
// - registry types (schema validated by the everit JSON-schema library, its getAllMessages() list printed as a Java list):
//   `Properties validation failed for resource VpcFlowLogsBucket with message: [#/LifecycleConfiguration/Rules/1:
//   extraneous key [TransitionInDays] is not permitted, #/LifecycleConfiguration/Rules/1: extraneous key [StorageClass]
//   is not permitted]`, `… with message: [#/Content: expected type: String, found: JSONObject]`,
//   `#: required key [IsLogging] not found`;
// - types still validated by the legacy engine: `Property validation failure: [The property {/Type} is required]`
//   (AWS::SSM::Parameter, LocalStack snapshot test_invalid_stack_deploy, recorded 2023-06-12),
//   `Encountered unsupported properties in {/}: [FilterGroups]`, `Value of property {/Targets} does not match type {Array}`.
// everit reports an object's problems in this order: required keys, extraneous keys, then each property's own problems.
// Leniency: CloudFormation converts template scalars to the schema's type before validating ("5" → 5, "+5" → 5,
// "true" → true, 5 → "5"; not "1e3" or "30.5" for an integer), so those pass; json properties accept anything.
// A false refusal is worse than a missed one.
// Allowed values (the spec's enums, its only value constraint) are checked on the converted value:
// `#/RetentionInDays: failed validation constraint for keyword [enum]` (recorded in real CREATE_FAILED events).
import { resourceSpec, type PropertySpec, type PropertySpecs, type PropertyType, type ResourceSpec } from '../spec.js';

type Problem =
  | { kind: 'required'; path: string[]; key: string }
  | { kind: 'extraneous'; path: string[]; keys: string[] }
  | { kind: 'type'; path: string[]; expected: PropertyType; found: unknown }
  | { kind: 'enum'; path: string[] };

type Allowed = readonly (string | number)[] | undefined;

/**
 * Types whose CREATE_FAILED reason still uses the legacy engine's wording. Only types with a recorded AWS
 * event belong here; everything else gets the registry (everit) wording.
 */
export const LEGACY_VALIDATION_TYPES: ReadonlySet<string> = new Set(['AWS::SSM::Parameter']);

/** Types that accept properties beyond the spec: custom resources pass anything through to their handler. */
const OPEN_TYPES: ReadonlySet<string> = new Set(['AWS::CloudFormation::CustomResource']);

/**
 * AWS's validation failure text for a resource's resolved properties, or undefined when they are valid
 * (or when the type is unknown to the spec: unrecognized types are refused earlier, at template validation).
 */
export function validateProperties(type: string, properties: unknown, logicalId: string): string | undefined {
  const spec = resourceSpec(type);
  if (!spec || type.startsWith('Custom::')) return undefined;
  const problems: Problem[] = [];
  const open = OPEN_TYPES.has(type);
  checkObject(spec, spec.properties, properties ?? {}, [], problems, { open, attributes: spec.attributes });
  if (problems.length === 0) return undefined;
  if (LEGACY_VALIDATION_TYPES.has(type)) {
    // the legacy engine's wording for a value outside an enum is not recorded: those types keep it unchecked
    const legacy = problems.filter((p) => p.kind !== 'enum');
    return legacy.length ? `Property validation failure: [${legacy.map(legacyText).join(', ')}]` : undefined;
  }
  const messages = problems.flatMap(registryTexts);
  return `Properties validation failed for resource ${logicalId} with message: [${messages.join(', ')}]`;
}

interface ObjectOptions {
  open?: boolean;
  /** Top level only: read-only attribute names a template may carry harmlessly. */
  attributes?: Readonly<Record<string, unknown>>;
}

function checkObject(
  spec: ResourceSpec,
  props: PropertySpecs,
  value: unknown,
  path: string[],
  out: Problem[],
  opts: ObjectOptions = {},
): void {
  if (!isPlainObject(value)) {
    out.push({ kind: 'type', path, expected: { kind: 'ref', name: '' }, found: value });
    return;
  }
  for (const key of requiredKeys(props)) {
    if (!(key in value)) out.push({ kind: 'required', path, key });
  }
  const extraneous = Object.keys(value).filter(
    (k) => !(k in props) && !opts.open && !(opts.attributes && k in opts.attributes),
  );
  if (extraneous.length > 0) out.push({ kind: 'extraneous', path, keys: extraneous });
  for (const [key, item] of Object.entries(value)) {
    const prop = props[key] as PropertySpec | undefined;
    if (prop) checkValue(spec, prop.type, item, [...path, key], out, prop.allowedValues);
  }
}

const required = new WeakMap<PropertySpecs, string[]>();

function requiredKeys(props: PropertySpecs): string[] {
  let keys = required.get(props);
  if (!keys) {
    keys = Object.keys(props).filter((k) => props[k].required);
    required.set(props, keys);
  }
  return keys;
}

function checkValue(
  spec: ResourceSpec,
  type: PropertyType,
  value: unknown,
  path: string[],
  out: Problem[],
  allowed?: Allowed,
): void {
  if (value === null || value === undefined) return;
  switch (type.kind) {
    case 'list':
      if (!Array.isArray(value)) return void out.push({ kind: 'type', path, expected: type, found: value });
      return value.forEach((item, i) => checkValue(spec, type.element, item, [...path, String(i)], out, allowed));
    case 'map':
      if (!isPlainObject(value)) return void out.push({ kind: 'type', path, expected: type, found: value });
      return Object.entries(value).forEach(([k, item]) =>
        checkValue(spec, type.element, item, [...path, k], out, allowed),
      );
    case 'ref': {
      const definition = spec.definitions[type.name] as PropertySpecs | undefined;
      if (definition) checkObject(spec, definition, value, path, out);
      return;
    }
    case 'tag':
      return checkObject(spec, TAG_PROPERTIES, value, path, out);
    case 'union':
      return checkUnion(spec, type.types, value, path, out);
    default:
      if (!scalarAccepts(type.kind, value)) out.push({ kind: 'type', path, expected: type, found: value });
      else if (allowed && !isAllowed(type.kind, value, allowed)) out.push({ kind: 'enum', path });
  }
}

/** The value after CloudFormation's conversion to the schema's type, compared with the allowed values. */
function isAllowed(kind: string, value: unknown, allowed: readonly (string | number)[]): boolean {
  if (kind === 'integer' || kind === 'number') return allowed.includes(Number(value));
  return allowed.map(String).includes(String(value));
}

// everit's anyOf keeps each member's failure as a cause; getAllMessages() prints all of them.
function checkUnion(
  spec: ResourceSpec,
  types: readonly PropertyType[],
  value: unknown,
  path: string[],
  out: Problem[],
): void {
  const failures: Problem[] = [];
  for (const member of types) {
    const own: Problem[] = [];
    checkValue(spec, member, value, path, own);
    if (own.length === 0) return;
    failures.push(...own);
  }
  out.push(...failures);
}

const TAG_PROPERTIES: PropertySpecs = {
  Key: { type: { kind: 'string' }, required: true, replacement: 'Never', deprecated: false },
  Value: { type: { kind: 'string' }, required: false, replacement: 'Never', deprecated: false },
};

function scalarAccepts(kind: string, value: unknown): boolean {
  switch (kind) {
    case 'string':
    case 'date-time':
      return isScalar(value);
    case 'integer':
      return (
        (typeof value === 'number' && Number.isInteger(value)) ||
        (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value))
      );
    case 'number':
      return (
        (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
      );
    case 'boolean':
      return typeof value === 'boolean' || (typeof value === 'string' && /^(true|false)$/i.test(value));
    default:
      return true; // json, null
  }
}

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointer(path: string[]): string {
  return '#' + path.map((p) => '/' + p).join('');
}

function registryTexts(p: Problem): string[] {
  switch (p.kind) {
    case 'required':
      return [`${pointer(p.path)}: required key [${p.key}] not found`];
    case 'extraneous':
      return p.keys.map((k) => `${pointer(p.path)}: extraneous key [${k}] is not permitted`);
    case 'type':
      return [`${pointer(p.path)}: expected type: ${everitExpected(p.expected)}, found: ${everitFound(p.found)}`];
    case 'enum':
      return [`${pointer(p.path)}: failed validation constraint for keyword [enum]`];
  }
}

function everitExpected(type: PropertyType): string {
  const names: Record<string, string> = {
    string: 'String',
    'date-time': 'String',
    integer: 'Integer',
    number: 'Number',
    boolean: 'Boolean',
    list: 'JSONArray',
    map: 'JSONObject',
    ref: 'JSONObject',
    tag: 'JSONObject',
  };
  return names[type.kind] ?? 'JSONObject';
}

// The Java class of the value as org.json parsed it.
function everitFound(value: unknown): string {
  if (Array.isArray(value)) return 'JSONArray';
  if (value === null) return 'Null';
  if (typeof value === 'object') return 'JSONObject';
  if (typeof value === 'boolean') return 'Boolean';
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return 'BigDecimal';
    return Math.abs(value) <= 2147483647 ? 'Integer' : 'Long';
  }
  return 'String';
}

function legacyPath(path: string[]): string {
  return '{/' + path.join('/') + '}';
}

function legacyText(p: Problem): string {
  switch (p.kind) {
    case 'required':
      return `The property ${legacyPath([...p.path, p.key])} is required`;
    case 'extraneous':
      return `Encountered unsupported properties in ${legacyPath(p.path)}: [${p.keys.join(', ')}]`;
    case 'type':
      return `Value of property ${legacyPath(p.path)} does not match type {${legacyTypeName(p.expected)}}`;
    case 'enum':
      return '';
  }
}

function legacyTypeName(type: PropertyType): string {
  const names: Record<string, string> = {
    string: 'String',
    'date-time': 'Timestamp',
    integer: 'Integer',
    number: 'Double',
    boolean: 'Boolean',
    list: 'Array',
    map: 'Map',
    ref: 'Object',
    tag: 'Object',
    json: 'Json',
  };
  return names[type.kind] ?? 'Object';
}
