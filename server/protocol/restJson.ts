// server/protocol: restJson1 (Lambda): which operation a method and path name (the model's URI templates), the
// input read from the URI labels, query string, headers and JSON body, and the output written back the same way.
import { echo } from '../../domain/errors.js';
import { noteProblem } from '../../domain/serviceErrors.js';
import type { Member, WireModel } from './model.js';
import { nestsDeeper, readJsonMembers, readJsonValue, writeJsonValue } from './json.js';

interface Route {
  operation: string;
  method: string;
  pattern: RegExp;
  labels: string[];
  /** Query keys the URI template requires (`?List=ALL`). */
  query: Record<string, string>;
  /** Literal characters: the more, the more specific the template. */
  weight: number;
}

const ROUTES = new WeakMap<WireModel, Route[]>();

function compile(operation: string, method: string, uri: string): Route {
  const [path, queryPart] = uri.split('?') as [string, string | undefined];
  const labels: string[] = [];
  const source = path
    .replace(/\/$/, '')
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const label = /^\{([^}+]+)(\+?)\}$/.exec(part);
      if (!label) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      labels.push(label[1]);
      return label[2] ? '(.+)' : '([^/]+)';
    })
    .join('');
  const query = Object.fromEntries(
    (queryPart ?? '')
      .split('&')
      .filter(Boolean)
      .map((kv) => kv.split('=') as [string, string]),
  );
  return {
    operation,
    method,
    pattern: new RegExp(`^${source}/?$`),
    labels,
    query,
    weight: path.replace(/\{[^}]+\}/g, '').length,
  };
}

function routesOf(model: WireModel): Route[] {
  let routes = ROUTES.get(model);
  if (!routes) {
    routes = model
      .operationNames()
      .flatMap((name) => {
        const http = model.operation(name)!.http;
        return http ? [compile(name, http.method, http.uri)] : [];
      })
      .sort((a, b) => b.weight - a.weight);
    ROUTES.set(model, routes);
  }
  return routes;
}

/** The operation a request names, with its URI labels (decoded); undefined when no template matches. */
export function matchOperation(
  model: WireModel,
  method: string,
  path: string,
  query: Record<string, string>,
): { operation: string; labels: Record<string, string> } | undefined {
  for (const route of routesOf(model)) {
    if (route.method !== method) continue;
    const m = route.pattern.exec(path);
    if (!m || !Object.entries(route.query).every(([k, v]) => query[k] === v || (v === '' && k in query))) continue;
    const labels = Object.fromEntries(route.labels.map((name, i) => [name, safeDecode(m[i + 1])]));
    return { operation: route.operation, labels };
  }
  return undefined;
}

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

function scalarFrom(model: WireModel, shapeName: string, raw: string, at: string, problems: string[]): unknown {
  const type = model.shape(shapeName).type;
  if (type === 'number' || type === 'long' || type === 'double') {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n))
      noteProblem(
        problems,
        () => `Value '${echo(raw)}' at '${at}' failed to satisfy constraint: Member must be a number`,
      );
    return n;
  }
  if (type === 'boolean') return raw === 'true';
  if (type === 'list') return raw.split(',');
  return raw;
}

export interface RestRequest {
  labels: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Builds the operation's input from every part of the request; problems are AWS's validation texts. */
export function decodeRestInput(
  model: WireModel,
  inputShape: string,
  req: RestRequest,
  problems: string[],
): Record<string, unknown> {
  const shape = model.structure(inputShape);
  const located: Record<string, unknown> = {};
  const at = (m: Member) => m.name[0].toLowerCase() + m.name.slice(1);
  for (const m of shape.members) {
    const raw =
      m.location === 'label'
        ? req.labels[m.name]
        : m.location === 'query'
          ? req.query[m.locationName!]
          : m.location === 'header'
            ? headerText(req.headers[m.locationName!.toLowerCase()])
            : undefined;
    if (raw !== undefined) located[m.name] = scalarFrom(model, m.shape, raw, at(m), problems);
    if (m.location === 'payload')
      located[m.name] = ['blob', 'stream'].includes(model.shape(m.shape).type)
        ? req.body
        : readPayload(model, m.shape, req.body, problems);
  }
  const bodyMembers = shape.members.filter((m) => m.location === undefined);
  const json = bodyMembers.length > 0 ? parseJson(req.body, problems) : {};
  const fromBody = readJsonMembers(model, bodyMembers, json, '', problems);
  for (const m of shape.members) {
    if (m.required && m.location && m.location !== 'payload' && located[m.name] === undefined) {
      problems.push(`Value null at '${at(m)}' failed to satisfy constraint: Member must not be null`);
    }
  }
  return { ...fromBody, ...located };
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : value);

function parseJson(body: Buffer, problems: string[]): Record<string, unknown> {
  if (body.length === 0) return {};
  const text = body.toString('utf8');
  // A body that is JSON but no object reads as no members, as before; one too deep is no JSON (parseJsonObject).
  if (nestsDeeper(text)) {
    problems.push('Could not parse request body into json');
    return {};
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    problems.push('Could not parse request body into json');
    return {};
  }
}

function readPayload(model: WireModel, shapeName: string, body: Buffer, problems: string[]): unknown {
  return readJsonValue(model, shapeName, parseJson(body, problems), '', problems);
}

/** The response's status, headers and JSON body, following the output shape's member locations. */
export function encodeRestOutput(
  model: WireModel,
  outputShape: string | null,
  output: Record<string, unknown> | undefined,
  defaultStatus: number,
): { status: number; headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = {};
  let status = defaultStatus;
  if (outputShape === null || !output) return { status, headers, body: '{}' };
  const shape = model.structure(outputShape);
  for (const m of shape.members) {
    const v = output[m.name];
    if (v === undefined || v === null) continue;
    if (m.location === 'header') headers[m.locationName!] = String(v);
    if (m.location === 'statusCode') status = Number(v);
  }
  return { status, headers, body: JSON.stringify(writeJsonValue(model, outputShape, output)) };
}
