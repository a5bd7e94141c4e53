// server/protocol: the one wire-model format every codec walks: each served AWS API's operations, shapes (with their
// members' wire traits) and errors, loaded on first use from generated/models/<service>.json (scripts/gen-models.mjs,
// one line per service in scripts/models.mjs); CloudFormation's model is the codecs' default.
import { readFileSync } from 'node:fs';

export type ScalarType =
  'string' | 'integer' | 'long' | 'double' | 'number' | 'boolean' | 'timestamp' | 'blob' | 'stream' | 'document';

export interface Member {
  name: string;
  shape: string;
  required?: boolean;
  /** Where the member travels in a REST protocol; absent: in the body. `headers` is a prefix map (`x-amz-meta-`). */
  location?: 'label' | 'query' | 'header' | 'headers' | 'payload' | 'statusCode' | 'queryParams';
  locationName?: string;
  xmlName?: string;
  flattened?: boolean;
  attribute?: boolean;
}

export interface StructureShape {
  type: 'structure';
  members: Member[];
  xmlName?: string;
  error?: boolean;
}
export interface ListShape {
  type: 'list';
  member: string;
  /** The XML element of each item (restXml); absent: `member`. */
  memberName?: string;
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

export interface Operation extends OperationShapes {
  /** REST protocols: the operation's method, URI template and success status. */
  http?: { method: string; uri: string; code: number };
}

/** An error structure of the model: its HTTP status, Sender/Receiver, and its awsQuery code when it has one. */
export interface ModelError {
  status: number;
  type: 'Sender' | 'Receiver';
  code?: string;
}

export interface ModelMetadata {
  service: string;
  protocol: 'awsQuery' | 'awsJson1_0' | 'awsJson1_1' | 'restJson1' | 'restXml';
  targetPrefix?: string;
  xmlNamespace?: string;
  /** How a JSON request's wrongly typed value is echoed: `json` as its JSON text, else a string as it is. */
  jsonEcho?: 'json';
}

interface ModelFile {
  metadata: ModelMetadata;
  operations: Record<string, Operation>;
  shapes: Record<string, Shape>;
  errors: Record<string, ModelError>;
}

/** One service's model, as the decoders and encoders of every protocol read it. */
export class WireModel {
  readonly metadata: ModelMetadata;
  readonly errors: Readonly<Record<string, ModelError>>;
  private readonly operations: Map<string, Operation>;
  private readonly shapes: Map<string, Shape>;

  constructor(file: ModelFile) {
    this.metadata = file.metadata;
    this.errors = Object.freeze(file.errors);
    this.operations = new Map(Object.entries(file.operations));
    this.shapes = new Map(Object.entries(file.shapes));
  }

  operation(name: string): Operation | undefined {
    return this.operations.get(name);
  }

  /** Input and output shape names of an operation, or undefined when the model has no such operation. */
  operationShapes(name: string): OperationShapes | undefined {
    const op = this.operations.get(name);
    return op && { input: op.input, output: op.output };
  }

  /** Every operation of the model, sorted. */
  operationNames(): string[] {
    return [...this.operations.keys()];
  }

  /** A shape by name; throws on a name the model does not define (a bug, not a client error). */
  shape(name: string): Shape {
    const found = this.shapes.get(name);
    if (!found) throw new Error(`${this.metadata.service}: unknown shape ${name}`);
    return found;
  }

  /** A structure by name; throws when the name is not a structure of the model. */
  structure(name: string): StructureShape {
    const found = this.shape(name);
    if (found.type !== 'structure') throw new Error(`${this.metadata.service}: ${name} is not a structure`);
    return found;
  }
}

// Source runs from server/protocol/, compiled code from dist/server/protocol/, the bundle from dist/.
const CANDIDATES = ['../../generated/models/', '../../../generated/models/', '../generated/models/'];
const LOADED = new Map<string, WireModel>();

/** The model of one service (`cloudformation`, `s3`, `ssm`, `sts`, `lambda`), read once, on first use. */
export function wireModel(service: string): WireModel {
  const cached = LOADED.get(service);
  if (cached) return cached;
  for (const candidate of CANDIDATES) {
    try {
      const text = readFileSync(new URL(`${candidate}${service}.json`, import.meta.url), 'utf8');
      const model = new WireModel(JSON.parse(text) as ModelFile);
      LOADED.set(service, model);
      return model;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  throw new Error(`generated/models/${service}.json is missing: run \`npm run generate\``);
}

/** CloudFormation's model: the default of the awsQuery and awsJson codecs. */
export const CLOUDFORMATION_MODEL = wireModel('cloudformation');

/** Every CloudFormation Action of the model, sorted. */
export const KNOWN_ACTIONS: readonly string[] = Object.freeze(CLOUDFORMATION_MODEL.operationNames());

/** CloudFormation's error structures keyed by shape name (ChangeSetNotFoundException → code ChangeSetNotFound). */
export const MODEL_ERRORS: Readonly<Record<string, ModelError & { code: string }>> = Object.freeze(
  Object.fromEntries(
    Object.entries(CLOUDFORMATION_MODEL.errors).flatMap(([name, e]) =>
      e.code === undefined ? [] : [[name, { ...e, code: e.code }]],
    ),
  ),
);

export const isKnownAction = (action: string): boolean => CLOUDFORMATION_MODEL.operation(action) !== undefined;
export const operationShapes = (action: string) => CLOUDFORMATION_MODEL.operationShapes(action);
export const shape = (name: string): Shape => CLOUDFORMATION_MODEL.shape(name);
