// server/protocol: the one JSON codec, for every protocol whose bodies are JSON: awsJson 1.0 (CloudFormation's
// `X-Amz-Target: CloudFormation.<Action>` door), awsJson 1.1 (SSM) and restJson1's bodies (Lambda). It reads and
// writes by walking the service's model; a member with an HTTP location (a URI label, header, query) is not in a body.
import { echo, invalidAction, validationError, type AwsError } from '../../domain/errors.js';
import { noteProblem, validationText } from '../../domain/serviceErrors.js';
import { CLOUDFORMATION_MODEL, type Member, type WireModel } from './model.js';

/** A request body that is not JSON at all: each service answers it in its own words. */
export class MalformedJson extends Error {}

/** How deep a request body may nest: Jackson's default (StreamReadConstraints), which AWS's JSON services parse with. */
export const MAX_JSON_DEPTH = 1000;

/** Whether arrays and objects nest deeper than `max` (strings skipped), in one pass, before anything recurses. */
export function nestsDeeper(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * A request body as the JSON object a structure is (empty: `{}`). Throws MalformedJson when it is not JSON, nests
 * deeper than MAX_JSON_DEPTH (a 100,000-deep body overflowed the stack when echoed in a message), or is JSON but no
 * object (`null`, `[]`, `5`): AWS's deserializers refuse those before any member is read.
 */
export function parseJsonObject(body: string): Record<string, unknown> {
  if (body.trim() === '') return {};
  if (nestsDeeper(body)) throw new MalformedJson('the body nests too deep');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new MalformedJson('the body is not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new MalformedJson('the body is not a JSON object');
  return parsed as Record<string, unknown>;
}

const inBody = (m: Member) => m.location === undefined;
const camel = (name: string) => name[0].toLowerCase() + name.slice(1);

/** The value as a validation message shows it (`jsonEcho` in scripts/models.mjs). */
function echoed(model: WireModel, value: unknown): string {
  if (typeof value === 'string' && model.metadata.jsonEcho !== 'json') return echo(value);
  return echo(JSON.stringify(value));
}

/**
 * Decodes one value of `shapeName`, collecting AWS's "Value … at 'path' failed to satisfy constraint" problems.
 * Members the model does not have are ignored, as AWS's front ends do.
 */
export function readJsonValue(
  model: WireModel,
  shapeName: string,
  value: unknown,
  path: string,
  problems: string[],
): unknown {
  if (value === null || value === undefined) return undefined;
  const s = model.shape(shapeName);
  const bad = (constraint: string) => {
    noteProblem(
      problems,
      () => `Value '${echoed(model, value)}' at '${path}' failed to satisfy constraint: ${constraint}`,
    );
    return undefined;
  };
  switch (s.type) {
    case 'structure':
      if (typeof value !== 'object' || Array.isArray(value)) return bad('Member must be a structure');
      return readJsonMembers(model, s.members.filter(inBody), value as Record<string, unknown>, path, problems);
    case 'list':
      if (!Array.isArray(value)) return bad('Member must be a list');
      return value
        .map((v, i) => readJsonValue(model, s.member, v, `${path}.${i + 1}.member`, problems))
        .filter((v) => v !== undefined);
    case 'map': {
      if (typeof value !== 'object' || Array.isArray(value)) return bad('Member must be a map');
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        Object.defineProperty(out, k, {
          value: readJsonValue(model, s.value, v, `${path}.${k}`, problems),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case 'integer':
      return Number.isSafeInteger(value) ? value : bad('Member must be a number');
    case 'number':
    case 'long':
    case 'double':
      return typeof value === 'number' && Number.isFinite(value) ? value : bad('Member must be a number');
    case 'boolean':
      return typeof value === 'boolean' ? value : bad('Member must be a boolean');
    case 'timestamp': {
      const date =
        typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' ? new Date(value) : undefined;
      return date && !Number.isNaN(date.getTime()) ? date : bad('Member must be a timestamp');
    }
    case 'blob':
    case 'stream':
      return typeof value === 'string' ? Buffer.from(value, 'base64') : bad('Member must be a blob');
    case 'document':
      return value;
    default:
      return typeof value === 'string' ? value : bad('Member must be a string');
  }
}

/** The given members of a structure from a JSON object; a missing required member is a problem. */
export function readJsonMembers(
  model: WireModel,
  members: Member[],
  value: Record<string, unknown>,
  path: string,
  problems: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of members) {
    const at = path ? `${path}.${camel(m.name)}` : camel(m.name);
    const v = readJsonValue(model, m.shape, value[m.name], at, problems);
    if (v !== undefined) out[m.name] = v;
    else if (m.required && value[m.name] == null)
      problems.push(`Value null at '${at}' failed to satisfy constraint: Member must not be null`);
  }
  return out;
}

/**
 * An operation's input from a JSON request body (empty: no members), with the validation problems found; throws
 * MalformedJson when the body is not a JSON object (parseJsonObject).
 */
export function readJsonInput(
  model: WireModel,
  action: string,
  body: string,
): { input: Record<string, unknown>; problems: string[] } {
  const input = model.operation(action)?.input ?? null;
  if (input === null) return { input: {}, problems: [] };
  const parsed = parseJsonObject(body);
  const problems: string[] = [];
  const value = readJsonValue(model, input, parsed, '', problems) as Record<string, unknown> | undefined;
  return { input: value ?? {}, problems };
}

/** Encodes a handler's plain value as JSON following the shape; timestamps leave as epoch seconds. */
export function writeJsonValue(model: WireModel, shapeName: string, value: unknown): unknown {
  const s = model.shape(shapeName);
  switch (s.type) {
    case 'structure': {
      const out: Record<string, unknown> = {};
      for (const m of s.members) {
        if (!inBody(m)) continue;
        const v = (value as Record<string, unknown>)[m.name];
        if (v !== undefined && v !== null) out[m.name] = writeJsonValue(model, m.shape, v);
      }
      return out;
    }
    case 'list':
      return (value as unknown[]).filter((v) => v != null).map((v) => writeJsonValue(model, s.member, v));
    case 'map': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        if (v != null) out[k] = writeJsonValue(model, s.value, v);
      return out;
    }
    case 'timestamp':
      return (value instanceof Date ? value : new Date(value as string | number)).getTime() / 1000;
    case 'blob':
      return Buffer.from(value as Uint8Array | string).toString('base64');
    default:
      return value;
  }
}

/** The JSON response body of an operation: `{}` when the model's output is Unit or there is no output. */
export function encodeJsonResult(
  action: string,
  output: Record<string, unknown> | undefined,
  model: WireModel = CLOUDFORMATION_MODEL,
): string {
  const ops = model.operation(action);
  if (!ops) throw new Error(`unknown action ${action}`);
  if (ops.output === null || !output) return '{}';
  return JSON.stringify(writeJsonValue(model, ops.output, output));
}

/** `<prefix>.CreateStack` → `CreateStack`; undefined for another target prefix. */
export function actionFromTarget(
  target?: string,
  prefix = CLOUDFORMATION_MODEL.metadata.targetPrefix,
): string | undefined {
  const dot = target?.lastIndexOf('.') ?? -1;
  if (!target || dot === -1 || target.slice(0, dot) !== prefix) return undefined;
  return target.slice(dot + 1) || undefined;
}

// CloudFormation's awsJson 1.0 door, used by SDK clients configured with AwsJson1_0Protocol; its errors are
// query-compatible (x-amzn-query-error), its refusals CloudFormation's own.
export const JSON_TARGET_PREFIX = 'CloudFormation';
export const JSON_CONTENT_TYPE = 'application/x-amz-json-1.0';
const NAMESPACE = 'com.amazonaws.cloudformation';

/** Decodes a CloudFormation JSON request body into the Action's input (timestamps become Dates). */
export function decodeJsonInput(action: string, body: string): Record<string, unknown> {
  if (!CLOUDFORMATION_MODEL.operation(action)) throw invalidAction(action);
  try {
    const { input, problems } = readJsonInput(CLOUDFORMATION_MODEL, action, body);
    if (problems.length > 0) throw validationError(validationText(problems));
    return input;
  } catch (err) {
    if (err instanceof MalformedJson) throw validationError('The request body is not valid JSON');
    throw err;
  }
}

const SHAPE_BY_CODE = new Map(
  Object.entries(CLOUDFORMATION_MODEL.errors).flatMap(([name, e]) => (e.code ? [[e.code, name] as const] : [])),
);

/**
 * A query-compatible JSON error: `__type` names the model's error shape (the SDK's class),
 * `x-amzn-query-error: <code>;<Sender|Receiver>` carries the awsQuery code.
 */
export function encodeJsonError(err: AwsError): { status: number; headers: Record<string, string>; body: string } {
  const type = `${NAMESPACE}#${SHAPE_BY_CODE.get(err.code) ?? err.code}`;
  return {
    status: err.status,
    headers: { 'content-type': JSON_CONTENT_TYPE, 'x-amzn-query-error': `${err.code};${err.type}` },
    body: JSON.stringify({ __type: type, message: err.message }),
  };
}
