// server/protocol: JSON bodies of the awsJson 1.1 (SSM) and restJson (Lambda) services, read and written by walking
// the service's model; a member with an HTTP location (a restJson URI label, header, query) is not in the body.
import { echo } from '../../domain/errors.js';
import { noteProblem } from '../../domain/serviceErrors.js';
import type { ServiceModel, ServiceMember } from './serviceModel.js';

const inBody = (m: ServiceMember) => m.location === undefined;
const camel = (name: string) => name[0].toLowerCase() + name.slice(1);

/**
 * Decodes one value of `shapeName`, collecting AWS's "Value … at 'path' failed to satisfy constraint" problems.
 * Members the model does not have are ignored, as AWS's front ends do.
 */
export function readJsonValue(
  model: ServiceModel,
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
      () =>
        `Value '${echo(typeof value === 'string' ? value : JSON.stringify(value))}' at '${path}' failed to satisfy constraint: ${constraint}`,
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
      return typeof value === 'string' ? Buffer.from(value, 'base64') : bad('Member must be a blob');
    case 'document':
      return value;
    default:
      return typeof value === 'string' ? value : bad('Member must be a string');
  }
}

/** The given members of a structure from a JSON object; a missing required member is a problem. */
export function readJsonMembers(
  model: ServiceModel,
  members: ServiceMember[],
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

/** Encodes a handler's plain value as JSON following the shape; timestamps leave as epoch seconds. */
export function writeJsonValue(model: ServiceModel, shapeName: string, value: unknown): unknown {
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
