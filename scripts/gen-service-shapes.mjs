// Build step for the other services on cfn-local's port (SSM, STS, Lambda): turns the smithy schema shipped inside
// each @aws-sdk/client-<service> into generated/services/<service>.json (operations with their HTTP bindings,
// shapes with their members' wire locations, errors with their codes and statuses).
//
// The schema arrays are read from each client's CommonJS build, as scripts/gen-shapes.mjs does for CloudFormation.
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
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each served service: its SDK package and the protocol facts the schema does not carry. */
const SERVICES = {
  ssm: { sdk: '@aws-sdk/client-ssm', protocol: 'awsJson1_1', targetPrefix: 'AmazonSSM' },
  sts: { sdk: '@aws-sdk/client-sts', protocol: 'awsQuery', xmlNamespace: 'https://sts.amazonaws.com/doc/2011-06-15/' },
  lambda: { sdk: '@aws-sdk/client-lambda', protocol: 'restJson1' },
};

const SIMPLE = { ...SIMPLE_TYPES, 16: 'string', 17: 'long', 19: 'double', 42: 'blob' };
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

function generate(service, spec) {
  const sdk = require(spec.sdk);
  const shapes = {};
  for (const s of ['blob', 'boolean', 'document', 'double', 'long', 'number', 'string', 'timestamp'])
    shapes[s] = { type: s };

  const unwrap = (schema) => (typeof schema === 'function' ? schema() : schema);

  function shapeName(raw) {
    const schema = unwrap(raw);
    if (typeof schema === 'number') return simpleName(schema);
    if (schema === 'unit') return null;
    if (!Array.isArray(schema)) throw new Error(`${service}: unknown schema ${String(schema)}`);
    const [kind, , name] = schema;
    if (shapes[name]) return name;
    if (kind === STRUCTURE || kind === UNION || kind === ERROR) return structure(schema);
    if (kind === LIST) {
      shapes[name] = { type: 'list', member: null };
      shapes[name].member = memberShape(schema[4]);
      return name;
    }
    if (kind === MAP) {
      shapes[name] = { type: 'map', key: 'string', value: null };
      shapes[name].value = memberShape(schema[5]);
      return name;
    }
    // A schema with traits of a simple type (a timestamp with its format, a streaming blob): [0, ns, name, traits, type].
    if (kind === 0) return simpleName(schema[4], schema[3]);
    throw new Error(`${service}: unknown schema kind ${kind} for ${name}`);
  }

  /** A list member or map value: `[target, traits]` when it carries traits. */
  const memberShape = (raw) =>
    shapeName(Array.isArray(raw) && raw.length === 2 && typeof raw[1] !== 'string' ? raw[0] : raw);

  function simpleName(code, traits) {
    if (code & LIST_MODIFIER || code & MAP_MODIFIER) {
      const isList = (code & LIST_MODIFIER) !== 0;
      const member = simpleName(code & 0b0011_1111);
      const name = `${member[0].toUpperCase()}${member.slice(1)}${isList ? 'List' : 'Map'}`;
      shapes[name] ??= isList ? { type: 'list', member } : { type: 'map', key: 'string', value: member };
      return name;
    }
    const simple = SIMPLE[code];
    if (!simple) throw new Error(`${service}: unknown simple schema code ${code}`);
    if (simple === 'timestamp' && traits?.timestampFormat) return simple;
    return simple;
  }

  function structure(schema) {
    const [kind, , name, traits, names, targets, requiredCount = 0] = schema;
    const shape = { type: 'structure', members: [] };
    if (kind === ERROR) shape.error = true;
    shapes[name] = shape;
    shape.members = names.map((member, i) => {
      let target = targets[i];
      let memberTraits = {};
      if (Array.isArray(target) && target.length === 2 && typeof target[1] !== 'string') {
        memberTraits = traitsOf(target[1]);
        target = target[0];
      }
      const m = { name: member, shape: shapeName(target) };
      if (i < requiredCount) m.required = true;
      Object.assign(m, location(memberTraits));
      return m;
    });
    if (traits?.error) shape.error = true;
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
      errors[name] = { status: traits?.httpError ?? (server ? 500 : 400), type: server ? 'Receiver' : 'Sender' };
      if (traits?.awsQueryError) errors[name].code = traits.awsQueryError[0];
      shapeName(schema);
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
  const metadata = Object.fromEntries(Object.entries(spec).filter(([key]) => key !== 'sdk'));
  return {
    metadata: { service, ...metadata },
    operations: sorted(operations),
    shapes: sorted(shapes),
    errors: sorted(errors),
  };
}

/** Where a member travels in a REST protocol (absent: in the JSON body). */
function location(traits) {
  if (traits.httpLabel) return { location: 'uri' };
  if (traits.httpQuery) return { location: 'querystring', locationName: traits.httpQuery };
  if (traits.httpHeader) return { location: 'header', locationName: traits.httpHeader };
  if (traits.httpPrefixHeaders !== undefined) return { location: 'headers', locationName: traits.httpPrefixHeaders };
  if (traits.httpPayload) return { location: 'payload' };
  if (traits.httpResponseCode) return { location: 'statusCode' };
  if (traits.httpQueryParams) return { location: 'querystringMap' };
  return {};
}

mkdirSync(join(root, 'generated', 'services'), { recursive: true });
for (const [service, spec] of Object.entries(SERVICES)) {
  const out = generate(service, spec);
  writeFileSync(join(root, 'generated', 'services', `${service}.json`), JSON.stringify(out) + '\n');
  console.log(
    `generated/services/${service}.json: ${Object.keys(out.operations).length} operations, ${Object.keys(out.shapes).length} shapes, ${Object.keys(out.errors).length} errors`,
  );
}
