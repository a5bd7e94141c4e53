// Build step for server/protocol: turns the CloudFormation model shipped inside
// @aws-sdk/client-cloudformation into generated/shapes.json (operations, shapes, errors).
//
// The SDK's smithy schema arrays are read from its CommonJS build: the dist-es copy
// (dist-es/schemas/schemas_0.js) uses extension-less imports that Node's ESM loader
// refuses, and the CJS index exports the very same arrays (every `X$` structure,
// operation and error; lists and maps are reached through the members' lazy refs).
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR, LIST, LIST_MODIFIER, MAP, MAP_MODIFIER, OPERATION, SIMPLE_TYPES, STRUCTURE } from './smithySchema.mjs';

const require = createRequire(import.meta.url);
const sdk = require('@aws-sdk/client-cloudformation');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const SIMPLE = { ...SIMPLE_TYPES, 17: 'long', 19: 'double' };

// The schema encodes integer, long, float and double all as NUMERIC (1). Every
// numeric member of the CloudFormation model is an integer except these two
// (botocore/smithy model: PercentageCompleted is a Double, MajorVersion a Long).
const NUMERIC_MEMBERS = { PercentageCompleted: 'double', MajorVersion: 'long' };

const SCALARS = ['blob', 'boolean', 'document', 'double', 'integer', 'long', 'string', 'timestamp'];
const shapes = {};
for (const s of SCALARS) shapes[s] = { type: s };

// The generated schema hoists required members to the front of each structure;
// the declared TypeScript interfaces keep the model's own order, so we sort by them.
const modelOrder = readModelOrder();

function readModelOrder() {
  const dts = readFileSync(require.resolve('@aws-sdk/client-cloudformation/dist-types/models/models_0.d.ts'), 'utf8');
  const order = {};
  for (const m of dts.matchAll(/^export interface (\w+) \{\n([\s\S]*?)^\}/gm)) {
    order[m[1]] = [...m[2].matchAll(/^ {4}(\w+)\??: /gm)].map((x) => x[1]);
  }
  return order;
}

function unwrapMember(schema) {
  // A member with traits is `[target, traits]`; a schema array always has a namespace string second.
  if (Array.isArray(schema) && schema.length === 2 && typeof schema[1] !== 'string') schema = schema[0];
  return typeof schema === 'function' ? schema() : schema;
}

/** Registers the shape for a schema and returns its name. */
function shapeName(raw, memberName) {
  const schema = unwrapMember(raw);
  if (typeof schema === 'number') return simpleName(schema, memberName);
  if (schema === 'unit') return null;
  if (!Array.isArray(schema)) throw new Error(`unknown schema ${String(schema)}`);
  const [kind, , name] = schema;
  if (shapes[name]) return name;
  if (kind === STRUCTURE || kind === ERROR) return structure(schema);
  if (kind === LIST) {
    shapes[name] = { type: 'list', member: null };
    shapes[name].member = shapeName(schema[4]);
    if (schema[3]?.sparse) shapes[name].sparse = true;
    return name;
  }
  if (kind === MAP) {
    shapes[name] = { type: 'map', key: null, value: null };
    shapes[name].key = shapeName(schema[4]);
    shapes[name].value = shapeName(schema[5]);
    if (schema[3]?.sparse) shapes[name].sparse = true;
    return name;
  }
  throw new Error(`unknown schema kind ${kind} for ${name}`);
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
  if (!simple) throw new Error(`unknown simple schema code ${code}`);
  return simple === 'number' ? (NUMERIC_MEMBERS[memberName] ?? 'integer') : simple;
}

function structure(schema) {
  const [, , name, , names, targets, requiredCount = 0] = schema;
  const shape = { type: 'structure', members: [] };
  shapes[name] = shape;
  const members = names.map((member, i) => {
    const m = { name: member, shape: shapeName(targets[i], member) };
    if (i < requiredCount) m.required = true;
    return m;
  });
  const order = modelOrder[name];
  if (order) members.sort((a, b) => rank(order, a.name) - rank(order, b.name));
  shape.members = members;
  return name;
}

const rank = (order, name) => (order.includes(name) ? order.indexOf(name) : order.length);

const operations = {};
const errors = {};
const exported = Object.values(sdk).filter((v) => Array.isArray(v) && typeof v[2] === 'string');
for (const schema of exported) {
  const [kind, , name, traits] = schema;
  if (kind === OPERATION) {
    operations[name] = { input: shapeName(schema[4]), output: shapeName(schema[5]) };
  } else if (kind === ERROR && traits?.awsQueryError) {
    const [code, status] = traits.awsQueryError;
    errors[name] = { code, status, type: traits.error === 'server' ? 'Receiver' : 'Sender' };
  } else if (kind === STRUCTURE) {
    shapeName(schema);
  }
}

const sorted = (obj) =>
  Object.fromEntries(
    Object.keys(obj)
      .sort()
      .map((k) => [k, obj[k]]),
  );
const out = { operations: sorted(operations), shapes: sorted(shapes), errors: sorted(errors) };
mkdirSync(join(root, 'generated'), { recursive: true });
writeFileSync(join(root, 'generated', 'shapes.json'), JSON.stringify(out, null, 1) + '\n');
console.log(
  `generated/shapes.json: ${Object.keys(operations).length} operations, ${Object.keys(shapes).length} shapes, ${Object.keys(errors).length} errors`,
);
