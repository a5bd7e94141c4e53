// server/protocol: S3's restXml wire format, walking the generated model: an operation's input from headers, query
// and an XML (or raw) payload; its output as headers and an XML document. Handlers see plain objects with S3's names.
import { XMLParser } from 'fast-xml-parser';
import { escapeXml } from './xml.js';
import { wireModel, type Member, type Operation, type Shape } from './model.js';

export const S3_XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';

type Obj = Record<string, unknown>;

/** An S3 operation of the model, with its HTTP binding; loaded on the first S3 request. */
export function s3Operation(name: string): Operation & { http: NonNullable<Operation['http']> } {
  const op = wireModel('s3').operation(name);
  if (!op?.http) throw new Error(`S3 operation ${name} is not in the model`);
  return { ...op, http: op.http };
}

export const s3Shape = (name: string): Shape => wireModel('s3').shape(name);

/** A malformed XML body: the S3 service answers MalformedXML. */
export class MalformedXml extends Error {}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
});

function scalarFrom(type: string, text: string): unknown {
  if (type === 'number') return Number(text);
  if (type === 'boolean') return text === 'true';
  if (type === 'timestamp') return new Date(text);
  return text;
}

const asArray = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const textOf = (v: unknown): string =>
  typeof v === 'string' ? v : v && typeof v === 'object' && '#text' in v ? String((v as Obj)['#text']) : '';

/** One XML node (as fast-xml-parser gives it) read as a value of the named shape. */
function fromXml(shapeName: string, node: unknown): unknown {
  const shape = s3Shape(shapeName);
  if (shape.type === 'structure') {
    const out: Obj = {};
    const n = (node && typeof node === 'object' ? node : {}) as Obj;
    for (const m of shape.members) {
      const name = m.xmlName ?? m.name;
      if (!(name in n)) continue;
      const memberShape = s3Shape(m.shape);
      if (memberShape.type === 'list') {
        const items = m.flattened
          ? asArray(n[name])
          : asArray((n[name] as Obj | undefined)?.[memberShape.memberName ?? 'member']);
        out[m.name] = items.map((item) => fromXml(memberShape.member, item));
      } else {
        out[m.name] = fromXml(m.shape, n[name]);
      }
    }
    return out;
  }
  if (shape.type === 'list' || shape.type === 'map') return undefined;
  return scalarFrom(shape.type, textOf(node));
}

/** Parses an XML payload into the named structure; the root element's name is not checked, as S3 does not. */
export function parseXmlPayload(shapeName: string, xml: string): Obj {
  let doc: Obj;
  try {
    if (!xml.trim().startsWith('<')) throw new Error('not XML');
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the parser's own check; its successor is another package
    doc = parser.parse(xml, true) as Obj;
  } catch {
    throw new MalformedXml();
  }
  const root = Object.keys(doc).find((k) => k !== '?xml');
  if (!root) throw new MalformedXml();
  return fromXml(shapeName, doc[root]) as Obj;
}

export interface RestRequestParts {
  headers: Record<string, string | string[] | undefined>;
  query: Readonly<Partial<Record<string, string>>>;
  labels: Record<string, string>;
}

/** The input members that travel in headers, query and URI labels (the payload is the service's to read). */
export function decodeRestInput(operation: string, parts: RestRequestParts): Obj {
  const inputName = s3Operation(operation).input;
  const input: Obj = {};
  if (!inputName) return input;
  const shape = s3Shape(inputName);
  if (shape.type !== 'structure') return input;
  for (const m of shape.members) {
    const value = memberFromRequest(m, parts);
    if (value !== undefined) input[m.name] = value;
  }
  return input;
}

function memberFromRequest(m: Member, parts: RestRequestParts): unknown {
  const type = s3Shape(m.shape).type;
  if (m.location === 'label') return parts.labels[m.name];
  if (m.location === 'query') {
    const v = parts.query[m.locationName!];
    return v === undefined ? undefined : scalarFrom(type, v);
  }
  if (m.location === 'header') {
    const raw = parts.headers[m.locationName!.toLowerCase()];
    const v = Array.isArray(raw) ? raw.join(',') : raw;
    return v === undefined ? undefined : scalarFrom(type, v);
  }
  if (m.location === 'headers') {
    const prefix = m.locationName!.toLowerCase();
    const map: Record<string, string> = {};
    for (const [k, v] of Object.entries(parts.headers))
      if (k.startsWith(prefix) && typeof v === 'string') map[k.slice(prefix.length)] = v;
    return Object.keys(map).length ? map : undefined;
  }
  return undefined;
}

const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();

function toXml(shapeName: string, value: unknown, element: string): string {
  const shape = s3Shape(shapeName);
  if (shape.type === 'structure') return `<${element}>${membersXml(shape.members, value as Obj)}</${element}>`;
  if (shape.type === 'list') {
    const itemName = shape.memberName ?? 'member';
    return `<${element}>${(value as unknown[]).map((item) => toXml(shape.member, item, itemName)).join('')}</${element}>`;
  }
  const text = shape.type === 'timestamp' ? iso(value) : String(value);
  return `<${element}>${escapeXml(text)}</${element}>`;
}

function membersXml(members: Member[], value: Obj): string {
  let out = '';
  for (const m of members) {
    const v = value[m.name];
    if (v === undefined || v === null || m.location) continue;
    const name = m.xmlName ?? m.name;
    const shape = s3Shape(m.shape);
    if (shape.type === 'list' && m.flattened)
      out += (v as unknown[]).map((item) => toXml(shape.member, item, name)).join('');
    else out += toXml(m.shape, v, name);
  }
  return out;
}

/** A structure as an XML document with S3's namespace on its root. */
export function xmlDocument(shapeName: string, value: Obj, root?: string): string {
  const shape = s3Shape(shapeName);
  const element = root ?? (shape.type === 'structure' ? shape.xmlName : undefined) ?? shapeName;
  const inner = shape.type === 'structure' ? membersXml(shape.members, value) : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${element} xmlns="${S3_XMLNS}">${inner}</${element}>`;
}

export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  /** The XML or text body; the stream member's value (a Readable) when the payload is a stream; undefined: none. */
  body?: unknown;
}

function headerText(type: string, v: unknown): string {
  if (type === 'timestamp') return (v instanceof Date ? v : new Date(String(v))).toUTCString();
  return String(v);
}

/** An operation's output as S3 sends it: header members, then the payload member or the XML document. */
export function encodeRestOutput(operation: string, output: Obj = {}): RestResponse {
  const op = s3Operation(operation);
  const res: RestResponse = { status: op.http.code, headers: {} };
  if (!op.output) return res;
  const shape = s3Shape(op.output);
  if (shape.type !== 'structure') return res;
  let hasBody = false;
  for (const m of shape.members) {
    const v = output[m.name];
    if (v === undefined || v === null) continue;
    if (m.location === 'header') res.headers[m.locationName!] = headerText(s3Shape(m.shape).type, v);
    else if (m.location === 'headers')
      for (const [k, x] of Object.entries(v as Obj)) res.headers[`${m.locationName}${k}`] = String(x);
    else if (m.location === 'payload') {
      const type = s3Shape(m.shape).type;
      res.body = type === 'structure' ? xmlDocument(m.shape, v as Obj, m.xmlName ?? m.name) : v;
    } else hasBody = true;
  }
  if (hasBody || (res.body === undefined && shape.xmlName)) res.body = xmlDocument(op.output, output);
  return res;
}
