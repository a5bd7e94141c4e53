// server/protocol: the awsJson 1.0 door (`X-Amz-Target: CloudFormation.<Action>`), used by SDK
// clients configured with the AwsJson1_0Protocol; query-compatible errors via x-amzn-query-error.
import { echo, invalidAction, validationError, type AwsError } from '../../domain/errors.js';
import { noteProblem, validationText } from '../../domain/serviceErrors.js';
import { MODEL_ERRORS, operationShapes, shape, type Member } from './shapes.js';

export const JSON_TARGET_PREFIX = 'CloudFormation';
export const JSON_CONTENT_TYPE = 'application/x-amz-json-1.0';
const NAMESPACE = 'com.amazonaws.cloudformation';

/** `CloudFormation.CreateStack` → `CreateStack`; undefined for another service's target. */
export function actionFromTarget(target?: string): string | undefined {
  const dot = target?.lastIndexOf('.') ?? -1;
  if (!target || dot === -1 || target.slice(0, dot) !== JSON_TARGET_PREFIX) return undefined;
  return target.slice(dot + 1) || undefined;
}

/** Decodes a JSON request body into the Action's input (timestamps become Dates). */
export function decodeJsonInput(action: string, body: string): Record<string, unknown> {
  const ops = operationShapes(action);
  if (!ops) throw invalidAction(action);
  if (ops.input === null) return {};
  let parsed: unknown;
  try {
    parsed = body.trim() === '' ? {} : JSON.parse(body);
  } catch {
    throw validationError('The request body is not valid JSON');
  }
  const problems: string[] = [];
  const input = readValue(ops.input, parsed, '', problems) as Record<string, unknown> | undefined;
  if (problems.length > 0) {
    throw validationError(validationText(problems));
  }
  return input ?? {};
}

function readValue(shapeName: string, value: unknown, path: string, problems: string[]): unknown {
  if (value === null || value === undefined) return undefined;
  const s = shape(shapeName);
  const bad = (constraint: string) => {
    noteProblem(
      problems,
      () => `Value '${echo(JSON.stringify(value))}' at '${path}' failed to satisfy constraint: ${constraint}`,
    );
    return undefined;
  };
  switch (s.type) {
    case 'structure': {
      if (typeof value !== 'object' || Array.isArray(value)) return bad('Member must be a structure');
      const out: Record<string, unknown> = {};
      for (const m of s.members) {
        const camel = m.name[0].toLowerCase() + m.name.slice(1);
        const at = path ? `${path}.${camel}` : camel;
        const v = readValue(m.shape, (value as Record<string, unknown>)[m.name], at, problems);
        if (v !== undefined) out[m.name] = v;
        else if (m.required && (value as Record<string, unknown>)[m.name] == null) {
          problems.push(`Value null at '${at}' failed to satisfy constraint: Member must not be null`);
        }
      }
      return out;
    }
    case 'list':
      if (!Array.isArray(value)) return bad('Member must be a list');
      return value
        .map((v, i) => readValue(s.member, v, `${path}.${i + 1}.member`, problems))
        .filter((v) => v !== undefined);
    case 'map': {
      if (typeof value !== 'object' || Array.isArray(value)) return bad('Member must be a map');
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const decoded = readValue(s.value, v, `${path}.${k}`, problems);
        Object.defineProperty(out, k, { value: decoded, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    case 'integer':
    case 'long':
      return Number.isSafeInteger(value) ? value : bad('Member must be a number');
    case 'double':
      return typeof value === 'number' ? value : bad('Member must be a number');
    case 'boolean':
      return typeof value === 'boolean' ? value : bad('Member must be a boolean');
    case 'timestamp': {
      const date =
        typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' ? new Date(value) : undefined;
      return date && !Number.isNaN(date.getTime()) ? date : bad('Member must be a timestamp');
    }
    case 'blob':
      return typeof value === 'string' ? Buffer.from(value, 'base64') : bad('Member must be a blob');
    default:
      return typeof value === 'string' ? value : bad('Member must be a string');
  }
}

/** The JSON response body; timestamps travel as epoch seconds, as awsJson 1.0 wants. */
export function encodeJsonResult(action: string, output: Record<string, unknown> | undefined): string {
  const ops = operationShapes(action);
  if (!ops) throw new Error(`unknown action ${action}`);
  if (ops.output === null || !output) return '{}';
  return JSON.stringify(writeValue(ops.output, output));
}

function writeValue(shapeName: string, value: unknown): unknown {
  const s = shape(shapeName);
  switch (s.type) {
    case 'structure': {
      const out: Record<string, unknown> = {};
      for (const m of s.members as Member[]) {
        const v = (value as Record<string, unknown>)[m.name];
        if (v !== undefined && v !== null) out[m.name] = writeValue(m.shape, v);
      }
      return out;
    }
    case 'list':
      return (value as unknown[]).filter((v) => v !== undefined && v !== null).map((v) => writeValue(s.member, v));
    case 'map': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        if (v != null) out[k] = writeValue(s.value, v);
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

const SHAPE_BY_CODE = new Map(Object.entries(MODEL_ERRORS).map(([name, e]) => [e.code, name]));

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
