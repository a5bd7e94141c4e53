// Build step for server/protocol: turns the smithy schema shipped inside each @aws-sdk/client-<service> of MODELS
// (scripts/models.mjs) into generated/models/<service>.json, one format for every protocol: operations with their
// HTTP bindings, shapes with their members' wire traits (HTTP location, XML name, flattening), errors with their
// HTTP status, Sender/Receiver and awsQuery code.
//
// The schema arrays are read from each client's CommonJS build: the dist-es copy uses extension-less imports that
// Node's ESM loader refuses, and the CJS index exports the very same arrays (every structure, operation and error;
// lists and maps are reached through the members' lazy refs).
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODELS } from './models.mjs';
import {
  ERROR,
  LIST,
  LIST_MODIFIER,
  MAP,
  MAP_MODIFIER,
  OPERATION,
  SIMPLE_TYPES,
  STRUCTURE,
  UNION,
} from './smithySchema.mjs';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const SIMPLE = { ...SIMPLE_TYPES, 16: 'string', 17: 'long', 19: 'double', 42: 'stream' };
/** Every scalar shape a model may name; each is listed in every model's shapes, named by its type. */
const SCALARS = ['blob', 'boolean', 'document', 'double', 'integer', 'long', 'number', 'stream', 'string', 'timestamp'];
// A member's numeric trait indicator, bit by bit (@smithy/core translateTraits).
const TRAIT_BITS = [
  'httpLabel',
  'idempotent',
  'idempotencyToken',
  'sensitive',
  'httpPayload',
  'httpResponseCode',
  'httpQueryParams',
];

function traitsOf(indicator) {
  if (indicator && typeof indicator === 'object') return indicator;
  const traits = {};
  TRAIT_BITS.forEach((name, i) => {
    if (((indicator | 0) >> i) & 1) traits[name] = 1;
  });
  return traits;
}

/** A member or list item with traits is `[target, traits]`; a schema array always has a namespace string second. */
function split(raw) {
  if (Array.isArray(raw) && raw.length === 2 && typeof raw[1] !== 'string') return [raw[0], traitsOf(raw[1])];
  return [raw, {}];
}

/** Where a member travels and how XML names it (absent: in the body, under its own name). */
function wireTraits(traits) {
  const m = {};
  if (traits.httpLabel) m.location = 'label';
  else if (traits.httpQuery) Object.assign(m, { location: 'query', locationName: traits.httpQuery });
  else if (traits.httpHeader) Object.assign(m, { location: 'header', locationName: traits.httpHeader });
  else if (traits.httpPrefixHeaders !== undefined)
    Object.assign(m, { location: 'headers', locationName: traits.httpPrefixHeaders });
  else if (traits.httpPayload) m.location = 'payload';
  else if (traits.httpResponseCode) m.location = 'statusCode';
  else if (traits.httpQueryParams) m.location = 'queryParams';
  if (traits.xmlName) m.xmlName = traits.xmlName;
  if (traits.xmlFlattened) m.flattened = true;
  if (traits.xmlAttribute) m.attribute = true;
  if (traits.xmlNamespace) m.namespace = traits.xmlNamespace;
  return m;
}

/** The declared member order of each structure, from the SDK's TypeScript interfaces. */
function declaredOrder(sdk) {
  const dts = readFileSync(require.resolve(`${sdk}/dist-types/models/models_0.d.ts`), 'utf8');
  const order = {};
  for (const m of dts.matchAll(/^export interface (\w+) \{\n([\s\S]*?)^\}/gm)) {
    order[m[1]] = [...m[2].matchAll(/^ {4}(\w+)\??: /gm)].map((x) => x[1]);
  }
  return order;
}

function generate(service, spec) {
  const sdk = require(spec.sdk);
  const shapes = Object.fromEntries(SCALARS.map((s) => [s, { type: s }]));
  const order = spec.declaredOrder ? declaredOrder(spec.sdk) : undefined;
  const resolve = (schema) => (typeof schema === 'function' ? schema() : schema);

  function shapeName(raw, memberName) {
    const schema = resolve(raw);
    if (typeof schema === 'number') return simpleName(schema, memberName);
    if (schema === 'unit') return null;
    if (!Array.isArray(schema)) throw new Error(`${service}: unknown schema ${String(schema)}`);
    const [kind, , name, traits] = schema;
    if (shapes[name]) return name;
    if (kind === STRUCTURE || kind === UNION || kind === ERROR) return structure(schema);
    if (kind === LIST) {
      shapes[name] = { type: 'list', member: null };
      const [target, itemTraits] = split(schema[4]);
      shapes[name].member = shapeName(target);
      if (itemTraits.xmlName) shapes[name].memberName = itemTraits.xmlName;
      if (traits?.sparse) shapes[name].sparse = true;
      return name;
    }
    if (kind === MAP) {
      shapes[name] = { type: 'map', key: null, value: null };
      shapes[name].key = shapeName(split(schema[4])[0]);
      shapes[name].value = shapeName(split(schema[5])[0]);
      if (traits?.sparse) shapes[name].sparse = true;
      return name;
    }
    // A simple type with traits (a streaming blob, a timestamp with its format): [0, ns, name, traits, type].
    if (kind === 0) return traits?.streaming ? 'stream' : simpleName(schema[4], memberName);
    throw new Error(`${service}: unknown schema kind ${kind} for ${name}`);
  }

  function simpleName(code, memberName) {
    if (code & LIST_MODIFIER || code & MAP_MODIFIER) {
      // Lists and maps of simple types are inlined as `64 | t` / `128 | t`: their model names are lost.
      const isList = (code & LIST_MODIFIER) !== 0;
      const member = simpleName(code & 0b0011_1111);
      const name = `${member[0].toUpperCase()}${member.slice(1)}${isList ? 'List' : 'Map'}`;
      shapes[name] ??= isList ? { type: 'list', member } : { type: 'map', key: 'string', value: member };
      return name;
    }
    const simple = SIMPLE[code];
    if (!simple) throw new Error(`${service}: unknown simple schema code ${code}`);
    if (simple !== 'number' || !spec.numeric) return simple;
    return spec.numericMembers?.[memberName] ?? spec.numeric;
  }

  function structure(schema) {
    const [kind, , name, traits, names, targets, requiredCount = 0] = schema;
    const shape = { type: 'structure', members: [] };
    if (traits?.xmlName) shape.xmlName = traits.xmlName;
    if (kind === ERROR) shape.error = true;
    shapes[name] = shape;
    const members = names.map((member, i) => {
      const [target, memberTraits] = split(targets[i]);
      const m = { name: member, shape: shapeName(target, member) };
      if (i < requiredCount) m.required = true;
      return Object.assign(m, wireTraits(memberTraits));
    });
    const declared = order?.[name];
    if (declared) members.sort((a, b) => rank(declared, a.name) - rank(declared, b.name));
    shape.members = members;
    return name;
  }

  const operations = {};
  const errors = {};
  for (const schema of Object.values(sdk).filter((v) => Array.isArray(v) && typeof v[2] === 'string')) {
    const [kind, namespace, name, traits] = schema;
    if (!namespace.startsWith('com.amazonaws.')) continue;
    if (kind === OPERATION) {
      const op = { input: shapeName(schema[4]), output: shapeName(schema[5]) };
      if (traits?.http) op.http = { method: traits.http[0], uri: traits.http[1], code: traits.http[2] };
      operations[name] = op;
    } else if (kind === ERROR) {
      const server = traits?.error === 'server';
      const [code, queryStatus] = traits?.awsQueryError ?? [];
      // The awsQuery code's own status is the status on the query protocol; the others answer with httpError's.
      const status =
        (spec.protocol === 'awsQuery' ? queryStatus : undefined) ?? traits?.httpError ?? (server ? 500 : 400);
      errors[name] = { status, type: server ? 'Receiver' : 'Sender', ...(code ? { code } : {}) };
      shapeName(schema);
    } else if (kind === STRUCTURE) {
      shapeName(schema);
    }
  }
  // The metadata is what the codecs read at run time; the generator's own settings stay here.
  const metadata = { service, protocol: spec.protocol };
  for (const key of ['targetPrefix', 'xmlNamespace', 'jsonEcho']) if (spec[key]) metadata[key] = spec[key];
  return {
    metadata,
    operations: sorted(operations),
    shapes: sorted(shapes),
    errors: sorted(errors),
  };
}

const rank = (order, name) => (order.includes(name) ? order.indexOf(name) : order.length);
const sorted = (obj) =>
  Object.fromEntries(
    Object.keys(obj)
      .sort()
      .map((k) => [k, obj[k]]),
  );

mkdirSync(join(root, 'generated', 'models'), { recursive: true });
for (const [service, spec] of Object.entries(MODELS)) {
  const out = generate(service, spec);
  writeFileSync(join(root, 'generated', 'models', `${service}.json`), JSON.stringify(out) + '\n');
  console.log(
    `generated/models/${service}.json: ${Object.keys(out.operations).length} operations, ${Object.keys(out.shapes).length} shapes, ${Object.keys(out.errors).length} errors`,
  );
}
