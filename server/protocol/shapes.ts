// server/protocol: the CloudFormation API model (operations, shapes, errors) that every
// decoder and encoder walks, loaded once from generated/shapes.json (scripts/gen-shapes.mjs).
import { readFileSync } from 'node:fs';

export type ScalarType =
  'string' | 'integer' | 'long' | 'double' | 'boolean' | 'timestamp' | 'blob' | 'document' | 'number';

export interface Member {
  name: string;
  shape: string;
  required?: boolean;
}

export interface StructureShape {
  type: 'structure';
  members: Member[];
}
export interface ListShape {
  type: 'list';
  member: string;
  sparse?: boolean;
}
export interface MapShape {
  type: 'map';
  key: string;
  value: string;
  sparse?: boolean;
}
export interface ScalarShape {
  type: ScalarType;
}
export type Shape = StructureShape | ListShape | MapShape | ScalarShape;

export interface OperationShapes {
  /** Input structure name; null when the operation takes no input. */
  input: string | null;
  /** Output structure name; null when the model says the operation returns nothing (smithy Unit). */
  output: string | null;
}

/** An error structure of the model: its awsQuery wire code and HTTP status. */
export interface ModelError {
  code: string;
  status: number;
  type: 'Sender' | 'Receiver';
}

interface ShapesFile {
  operations: Record<string, OperationShapes>;
  shapes: Record<string, Shape>;
  errors: Record<string, ModelError>;
}

// Source runs from server/protocol/, compiled code from dist/server/protocol/.
const CANDIDATES = ['../../generated/shapes.json', '../../../generated/shapes.json', '../generated/shapes.json'];

function load(): ShapesFile {
  for (const candidate of CANDIDATES) {
    try {
      return JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as ShapesFile;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  throw new Error('generated/shapes.json is missing: run `node scripts/gen-shapes.mjs` (npm run generate)');
}

const MODEL = load();
const OPERATIONS = new Map(Object.entries(MODEL.operations));
const SHAPES = new Map(Object.entries(MODEL.shapes));

/** Every CloudFormation Action of the model, sorted. */
export const KNOWN_ACTIONS: readonly string[] = Object.freeze([...OPERATIONS.keys()]);

/** Error structures of the model keyed by shape name (e.g. ChangeSetNotFoundException → code ChangeSetNotFound). */
export const MODEL_ERRORS: Readonly<Record<string, ModelError>> = Object.freeze(MODEL.errors);

export function isKnownAction(action: string): boolean {
  return OPERATIONS.has(action);
}

/** Input and output shape names of an Action, or undefined when the model has no such Action. */
export function operationShapes(action: string): OperationShapes | undefined {
  return OPERATIONS.get(action);
}

/** A shape by name; throws on a name the model does not define (a bug, not a client error). */
export function shape(name: string): Shape {
  const found = SHAPES.get(name);
  if (!found) throw new Error(`unknown shape ${name}`);
  return found;
}

/** Where the awsQuery decoder and XML encoder read shapes: CloudFormation's model, or another query service's (STS). */
export interface ShapeSource {
  shape(name: string): Shape;
  operationShapes(action: string): OperationShapes | undefined;
}

export const CLOUDFORMATION_SHAPES: ShapeSource = { shape, operationShapes };
