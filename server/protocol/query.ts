// server/protocol: decodes an awsQuery request (form-encoded body) into the typed, nested
// input object of its Action, validating types as AWS's front end does.
import { echo, invalidAction, validationError } from '../../domain/errors.js';
import { noteProblem, validationText } from '../../domain/serviceErrors.js';
import { CLOUDFORMATION_MODEL, type Member, type WireModel } from './model.js';

/** Parses application/x-www-form-urlencoded text (`+` is a space); later duplicates win. */
export function decodeQueryBody(body: string): Record<string, string> {
  const params = Object.create(null) as Record<string, string>;
  if (!body) return params;
  for (const pair of body.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    params[key] = eq === -1 ? '' : decodeComponent(pair.slice(eq + 1));
  }
  return params;
}

function decodeComponent(text: string): string {
  if (text.indexOf('%') === -1 && text.indexOf('+') === -1) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw validationError(`The request contains a malformed percent-encoded sequence: ${text.slice(0, 64)}`);
  }
}

/** Flat `A.member.1.B` keys grouped by their dots; a leaf is the raw string. */
type Node = string | Branch;
type Branch = { [segment: string]: Node | undefined };

function toTree(params: Record<string, string>): Branch {
  const root = Object.create(null) as Branch;
  for (const key in params) {
    const parts = key.split('.');
    let node = root;
    for (let i = 0; i < parts.length - 1; i++) {
      let next = node[parts[i]];
      // `X=` (the SDK's empty-list marker) followed by `X.member.1=…`: the nested form wins.
      if (next === undefined || typeof next === 'string') node[parts[i]] = next = Object.create(null) as Branch;
      node = next;
    }
    const last = parts[parts.length - 1];
    if (node[last] === undefined) node[last] = params[key];
  }
  return root;
}

/**
 * Builds the input object of `action` from decoded parameters, following its input shape.
 * Throws InvalidAction for an Action the model lacks, and one ValidationError listing every
 * wrongly typed or missing required member in AWS's "N validation errors detected" form.
 * Unknown parameters (Action, Version, anything else) are ignored.
 */
export function decodeInput(
  action: string,
  params: Record<string, string>,
  model = CLOUDFORMATION_MODEL,
): Record<string, unknown> {
  const ops = model.operationShapes(action);
  if (!ops) throw invalidAction(action);
  return ops.input === null ? {} : decodeQueryShape(ops.input, params, model);
}

/** decodeInput for any structure shape of the model, by name. */
export function decodeQueryShape(
  structureName: string,
  params: Record<string, string>,
  model: WireModel = CLOUDFORMATION_MODEL,
): Record<string, unknown> {
  const problems: string[] = [];
  const input = decodeStructure(
    model,
    model.shape(structureName) as { members: Member[] },
    toTree(params),
    '',
    problems,
  );
  if (problems.length > 0) {
    throw validationError(validationText(problems));
  }
  return input;
}

// AWS names members in lowerCamel and list items as `tags.1.member.value`.
function memberPath(prefix: string, name: string): string {
  const camel = name[0].toLowerCase() + name.slice(1);
  return prefix ? `${prefix}.${camel}` : camel;
}

function decodeStructure(
  model: WireModel,
  struct: { members: Member[] },
  node: Branch,
  path: string,
  problems: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const member of struct.members) {
    const at = memberPath(path, member.name);
    const raw = node[member.name];
    const value = raw === undefined ? undefined : decodeValue(model, member.shape, raw, at, problems);
    if (value !== undefined) out[member.name] = value;
    else if (member.required && raw === undefined) {
      problems.push(`Value null at '${at}' failed to satisfy constraint: Member must not be null`);
    }
  }
  return out;
}

function decodeValue(model: WireModel, shapeName: string, raw: Node, path: string, problems: string[]): unknown {
  const s = model.shape(shapeName);
  switch (s.type) {
    case 'structure':
      return typeof raw === 'string' ? (raw === '' ? {} : undefined) : decodeStructure(model, s, raw, path, problems);
    case 'list':
      if (typeof raw === 'string') return raw === '' ? [] : undefined;
      return indexed(raw.member)
        .map(([n, item]) => decodeValue(model, s.member, item, `${path}.${n}.member`, problems))
        .filter((item) => item !== undefined);
    case 'map': {
      if (typeof raw === 'string') return raw === '' ? {} : undefined;
      const out: Record<string, unknown> = {};
      for (const [n, entry] of indexed(raw.entry)) {
        if (typeof entry === 'string' || typeof entry.key !== 'string' || entry.value === undefined) continue;
        const value = decodeValue(model, s.value, entry.value, `${path}.${n}.value`, problems);
        Object.defineProperty(out, entry.key, { value, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    default:
      return typeof raw === 'string' ? decodeScalar(s.type, raw, path, problems) : undefined;
  }
}

/** `X.member.N` / `X.entry.N` children in ascending N (from 1); gaps and junk keys are ignored. */
function indexed(node: Node | undefined): [number, Node][] {
  if (node === undefined || typeof node === 'string') return [];
  const items: [number, Node][] = [];
  for (const [key, child] of Object.entries(node))
    if (child !== undefined && /^[1-9]\d{0,8}$/.test(key)) items.push([Number(key), child]);
  return items.sort((a, b) => a[0] - b[0]);
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const EPOCH = /^[+-]?\d+(\.\d+)?$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function decodeScalar(type: string, raw: string, path: string, problems: string[]): unknown {
  const bad = (constraint: string) => {
    noteProblem(problems, () => `Value '${echo(raw)}' at '${path}' failed to satisfy constraint: ${constraint}`);
    return undefined;
  };
  switch (type) {
    case 'number':
      return DECIMAL.test(raw) ? Number(raw) : bad('Member must be a number');
    case 'integer':
    case 'long': {
      const n = Number(raw);
      return INTEGER.test(raw) && Number.isSafeInteger(n) ? n : bad('Member must be a number');
    }
    case 'double':
      return DECIMAL.test(raw) ? Number(raw) : bad('Member must be a number');
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : bad('Member must be a boolean');
    case 'timestamp':
      return decodeTimestamp(raw) ?? bad('Member must be a timestamp in ISO 8601 or epoch seconds format');
    case 'blob':
      return Buffer.from(raw, 'base64');
    default:
      return raw;
  }
}

function decodeTimestamp(raw: string): Date | undefined {
  const date = EPOCH.test(raw) ? new Date(Number(raw) * 1000) : ISO_8601.test(raw) ? new Date(raw) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}
