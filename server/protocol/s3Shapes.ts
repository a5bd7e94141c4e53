// server/protocol: the S3 API model (each operation's HTTP binding, shapes with their restXml traits), loaded on the
// first S3 request from generated/s3-shapes.json (scripts/gen-s3-shapes.mjs), so a start without S3 never pays for it.
import { readFileSync } from 'node:fs';

export interface RestMember {
  name: string;
  shape: string;
  required?: boolean;
  /** Where the member travels; absent: in the XML body. `headers` is a prefix map (`x-amz-meta-`). */
  location?: 'header' | 'headers' | 'query' | 'label' | 'payload';
  locationName?: string;
  xmlName?: string;
  flattened?: boolean;
  attribute?: boolean;
}

export type RestShape =
  | { type: 'structure'; members: RestMember[]; xmlName?: string; error?: { status: number } }
  | { type: 'list'; member: string; memberName?: string }
  | { type: 'map'; key: string; value: string }
  | { type: 'string' | 'number' | 'boolean' | 'timestamp' | 'blob' | 'stream' | 'document' };

export interface RestOperation {
  method: string;
  uri: string;
  /** The HTTP status of a success (204 for most deletes). */
  status: number;
  input: string | null;
  output: string | null;
}

interface S3Model {
  operations: Partial<Record<string, RestOperation>>;
  shapes: Partial<Record<string, RestShape>>;
}

// Source runs from server/protocol/, compiled code from dist/server/protocol/, the bundle from dist/.
const CANDIDATES = [
  '../../generated/s3-shapes.json',
  '../../../generated/s3-shapes.json',
  '../generated/s3-shapes.json',
];

let model: S3Model | undefined;

function load(): S3Model {
  for (const candidate of CANDIDATES) {
    try {
      return JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as S3Model;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  throw new Error('generated/s3-shapes.json is missing: run `node scripts/gen-s3-shapes.mjs` (npm run generate)');
}

export function s3Operation(name: string): RestOperation {
  model ??= load();
  const op = model.operations[name];
  if (!op) throw new Error(`S3 operation ${name} is not in the model`);
  return op;
}

const SCALARS = new Set(['string', 'number', 'boolean', 'timestamp', 'blob', 'stream', 'document']);

export function s3Shape(name: string): RestShape {
  if (SCALARS.has(name)) return { type: name as 'string' };
  model ??= load();
  const found = model.shapes[name];
  if (!found) throw new Error(`S3 shape ${name} is not in the model`);
  return found;
}
