// server/services: what one AWS service on the shared port is (an entry of SERVICES) and what each request hands it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { Store } from '../../storage/index.js';
import type { Engine, Caller } from '../../state-machine/engine.js';
import type { Faults } from '../../resources/faults.js';
import type { AppOptions } from '../appOptions.js';
import type { BackendEndpoint } from '../../resources/provider.js';
import type { LambdaRuntime } from '../../runtime/index.js';
import type { StepFunctionsRunner } from '../../runtime/stepFunctions/executions.js';

/** What every service may use: the account's storage and engine, the app's options, the default caller. */
export interface ServiceDeps {
  store: Store;
  engine: Engine;
  faults: Faults;
  options: AppOptions;
  defaults: Caller;
  /** Where requests for services cfn-local does not serve go (--backend); unset, they get UnknownService. */
  backend?: BackendEndpoint;
  /** Runs function code (undefined with --no-lambda). */
  lambda?: LambdaRuntime;
  /** Runs Step Functions executions of the account's state machines (runtime/stepFunctions). */
  stepFunctions: StepFunctionsRunner;
}

/** One request as the dispatcher hands it to a service: the body is the raw stream, read (or not) by the service. */
export interface ServiceRequest {
  req: FastifyRequest;
  reply: FastifyReply;
  /** The request body, unread: a service that takes a form or JSON reads it with readText (body.ts). */
  body: Readable;
  /** The query string, decoded. */
  query: Record<string, string>;
  caller: Caller;
  requestId: string;
  deps: ServiceDeps;
}

/** What the dispatcher knows before any service has looked at the request. */
export interface RoutingFacts {
  method: string;
  /** The path, without the query string. */
  path: string;
  /** The Host header, lower case, without the port. */
  host: string;
  query: Record<string, string>;
}

/**
 * An AWS service served on the port. It brings its own wire protocol (decoding, encoding) and error envelope: the
 * dispatcher only picks the entry and hands it the request.
 */
export interface AwsService {
  /** The SigV4 signing name, as in the credential scope (`AKID/20261130/us-east-1/s3/aws4_request`). */
  signingName: string;
  /** The `X-Amz-Target` prefixes of its awsJson operations (`AmazonSSM` of `AmazonSSM.GetParameter`). */
  targetPrefixes?: readonly string[];
  /** For unsigned requests with neither scope nor target: whether this request is this service's (Host, path). */
  claims?(facts: RoutingFacts): boolean;
  handle(request: ServiceRequest): Promise<unknown>;
}
