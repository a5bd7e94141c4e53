// Build step for the S3 API (server/protocol/restXml.ts): turns the S3 model shipped inside @aws-sdk/client-s3 into
// generated/s3-shapes.json: each operation's HTTP binding, and every shape with the restXml traits of its members
// (where a member travels: header, query, URI label, payload; its XML name, flattening, attribute-ness).
//
// As scripts/gen-shapes.mjs does for CloudFormation, the smithy schema arrays are read from the SDK's CommonJS build.
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
const sdk = require('@aws-sdk/client-s3');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// The member trait bitmask (httpLabel 1, httpPayload 16); the schema type codes are in smithySchema.mjs.
const SIMPLE = { ...SIMPLE_TYPES, 42: 'stream' };
const LABEL = 1,
  PAYLOAD = 16;

const shapes = {};

function split(raw) {
  // A member with traits is `[target, traits]`; a schema array always has a namespace string second.
  if (Array.isArray(raw) && raw.length === 2 && typeof raw[1] !== 'string') return [raw[0], raw[1]];
  return [raw, 0];
}
const resolve = (schema) => (typeof schema === 'function' ? schema() : schema);

function shapeName(raw) {
  const schema = resolve(split(raw)[0]);
  if (typeof schema === 'number') return simpleName(schema);
  if (schema === 'unit') return null;
  const [kind, , name, traits] = schema;
  if (shapes[name]) return name;
  if (kind === STRUCTURE || kind === UNION || kind === ERROR) return structure(schema);
  if (kind === LIST) {
    shapes[name] = { type: 'list', member: null };
    const [target, memberTraits] = split(schema[4]);
    shapes[name].member = shapeName(target);
    if (memberTraits?.xmlName) shapes[name].memberName = memberTraits.xmlName;
    return name;
  }
  if (kind === MAP) {
    shapes[name] = { type: 'map', key: shapeName(schema[4]), value: shapeName(schema[5]) };
    return name;
  }
  // A named simple type (StreamingBlob: `[0, ns, name, {streaming: 1}, 42]`).
  if (kind === 0) return traits?.streaming ? 'stream' : simpleName(schema[4]);
  throw new Error(`unknown schema kind ${kind} for ${name}`);
}

function simpleName(code) {
  if (code & LIST_MODIFIER || code & MAP_MODIFIER) {
    const isList = (code & LIST_MODIFIER) !== 0;
    const member = simpleName(code & 0b0011_1111);
    const name = `${member[0].toUpperCase()}${member.slice(1)}${isList ? 'List' : 'Map'}`;
    shapes[name] ??= isList ? { type: 'list', member } : { type: 'map', key: 'string', value: member };
    return name;
  }
  const simple = SIMPLE[code];
  if (!simple) throw new Error(`unknown simple schema code ${code}`);
  return simple;
}

function memberOf(name, raw) {
  const [target, traits] = split(raw);
  const m = { name, shape: shapeName(target) };
  if (typeof traits === 'number') {
    if (traits & LABEL) m.location = 'label';
    if (traits & PAYLOAD) m.location = 'payload';
    return m;
  }
  if (!traits) return m;
  if (traits.httpHeader) Object.assign(m, { location: 'header', locationName: traits.httpHeader });
  if (traits.httpQuery) Object.assign(m, { location: 'query', locationName: traits.httpQuery });
  if (traits.httpPrefixHeaders) Object.assign(m, { location: 'headers', locationName: traits.httpPrefixHeaders });
  if (traits.httpPayload) m.location = 'payload';
  if (traits.httpLabel) m.location = 'label';
  if (traits.xmlName) m.xmlName = traits.xmlName;
  if (traits.xmlFlattened) m.flattened = true;
  if (traits.xmlAttribute) m.attribute = true;
  if (traits.xmlNamespace) m.namespace = traits.xmlNamespace;
  return m;
}

function structure(schema) {
  const [kind, , name, traits, names, targets, requiredCount = 0] = schema;
  const shape = { type: 'structure', members: [] };
  if (traits?.xmlName) shape.xmlName = traits.xmlName;
  if (kind === ERROR) shape.error = { status: traits?.httpError ?? 400 };
  shapes[name] = shape;
  shape.members = names.map((member, i) => ({
    ...memberOf(member, targets[i]),
    ...(i < requiredCount ? { required: true } : {}),
  }));
  return name;
}

const operations = {};
for (const schema of Object.values(sdk).filter((v) => Array.isArray(v) && typeof v[2] === 'string')) {
  const [kind, , name, traits] = schema;
  if (kind === OPERATION) {
    const [method, uri, status] = traits.http;
    operations[name] = { method, uri, status, input: shapeName(schema[4]), output: shapeName(schema[5]) };
  } else if (kind === ERROR) {
    shapeName(schema);
  }
}

const sorted = (obj) =>
  Object.fromEntries(
    Object.keys(obj)
      .sort()
      .map((k) => [k, obj[k]]),
  );
mkdirSync(join(root, 'generated'), { recursive: true });
writeFileSync(
  join(root, 'generated', 's3-shapes.json'),
  JSON.stringify({ operations: sorted(operations), shapes: sorted(shapes) }) + '\n',
);
console.log(
  `generated/s3-shapes.json: ${Object.keys(operations).length} operations, ${Object.keys(shapes).length} shapes`,
);
