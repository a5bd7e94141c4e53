// server/protocol: the API models of the services other than CloudFormation (SSM, STS, Lambda), loaded from
// generated/services/<service>.json (scripts/gen-service-shapes.mjs), with the members' HTTP locations.
import { readFileSync } from 'node:fs';

export type ServiceScalar = 'string' | 'number' | 'long' | 'double' | 'boolean' | 'timestamp' | 'blob' | 'document';

export interface ServiceMember {
  name: string;
  shape: string;
  required?: boolean;
  /** Where the member travels in a REST protocol; absent: in the body. */
  location?: 'uri' | 'querystring' | 'header' | 'headers' | 'payload' | 'statusCode' | 'querystringMap';
  locationName?: string;
}

export type ServiceShape =
  | { type: 'structure'; members: ServiceMember[]; error?: boolean }
  | { type: 'list'; member: string }
  | { type: 'map'; key: string; value: string }
  | { type: ServiceScalar };

export interface ServiceOperation {
  input: string | null;
  output: string | null;
  /** restJson1: the operation's method, URI template and success status. */
  http?: { method: string; uri: string; code: number };
}

export interface ServiceModelFile {
  metadata: { service: string; protocol: string; targetPrefix?: string; xmlNamespace?: string };
  operations: Record<string, ServiceOperation>;
  shapes: Record<string, ServiceShape>;
  /** Error shapes by name: HTTP status, Sender/Receiver, and the awsQuery code when it differs. */
  errors: Record<string, { status: number; type: 'Sender' | 'Receiver'; code?: string }>;
}

export class ServiceModel {
  readonly metadata: ServiceModelFile['metadata'];
  readonly errors: ServiceModelFile['errors'];
  private readonly operations: Map<string, ServiceOperation>;
  private readonly shapes: Map<string, ServiceShape>;

  constructor(file: ServiceModelFile) {
    this.metadata = file.metadata;
    this.errors = file.errors;
    this.operations = new Map(Object.entries(file.operations));
    this.shapes = new Map(Object.entries(file.shapes));
  }

  operation(name: string): ServiceOperation | undefined {
    return this.operations.get(name);
  }

  /** Input and output shape names (the ShapeSource door that the awsQuery decoder and XML encoder take). */
  operationShapes(name: string): { input: string | null; output: string | null } | undefined {
    return this.operations.get(name);
  }

  operationNames(): string[] {
    return [...this.operations.keys()];
  }

  /** A shape by name; throws on a name the model does not define (a bug, not a client error). */
  shape(name: string): ServiceShape {
    const found = this.shapes.get(name);
    if (!found) throw new Error(`${this.metadata.service}: unknown shape ${name}`);
    return found;
  }
}

// Source runs from server/protocol/, compiled code from dist/server/protocol/, the bundle from dist/.
const CANDIDATES = ['../../generated/services/', '../../../generated/services/', '../generated/services/'];
const LOADED = new Map<string, ServiceModel>();

/** The model of one service (`ssm`, `sts`, `lambda`), read once. */
export function serviceModel(service: string): ServiceModel {
  const cached = LOADED.get(service);
  if (cached) return cached;
  for (const candidate of CANDIDATES) {
    try {
      const file = JSON.parse(
        readFileSync(new URL(`${candidate}${service}.json`, import.meta.url), 'utf8'),
      ) as ServiceModelFile;
      const model = new ServiceModel(file);
      LOADED.set(service, model);
      return model;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  throw new Error(`generated/services/${service}.json is missing: run \`npm run generate\``);
}
