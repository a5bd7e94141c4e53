// What a provider is: the create, update and delete of one resource type in the simulated account, as a function
// of (world, request) → result or refusal. A provider never writes events or statuses.
import type { WorldResource } from '../storage/world.js';
import type { SignalHub } from './signalHub.js';
import type { Timers } from './timers.js';
import type { EventSourcePollers } from './backend/pollers.js';

/** What a provider may ask of the Lambda runtime (runtime/index.ts LambdaRuntime). */
export interface LambdaInvoker {
  invoke(req: {
    account: string;
    region: string;
    functionName: string;
    payload?: Buffer | string;
    invocationType?: 'RequestResponse' | 'Event' | 'DryRun';
  }): Promise<{ statusCode: number; payload: Buffer; functionError?: string }>;
  /** https://127.0.0.1:<port> serving cfn-local's routes, for ResponseURLs (undefined when it cannot). */
  httpsBase(): Promise<string | undefined>;
}

/** What providers that talk to the outside need: cfn-local's own URL, the signal hub, timeouts, a logger. */
export interface ProviderEnv {
  /** The base URL clients reach cfn-local at (wait condition handles, custom resource ResponseURLs). */
  endpoint?: string;
  signals: SignalHub;
  /** What waits' deadlines are computed from (the hub's timers run on the same). */
  timers: Timers;
  /** How long a custom resource handler may take to answer (AWS: one hour). */
  customResourceTimeoutMs: number;
  /** Whether an http(s) ServiceToken is POSTed to (--allow-url-service-tokens); otherwise refused, as AWS does. */
  allowUrlServiceTokens?: boolean;
  /** A Lambda-compatible endpoint that Lambda ServiceTokens are invoked through, when set. */
  lambdaEndpoint?: string;
  /** The runtime that runs the account's functions (undefined with --no-lambda). */
  lambda?: LambdaInvoker;
  /** Signs wait condition handle and ResponseURL URLs (resources/presign.ts); unset, they go out unsigned. */
  signingKey?: Buffer;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** Resolves once the server listens and its endpoint is known (or it closes): a resumed operation waits for it. */
  listening?: Promise<void>;
  /** The engine's door for child stacks (AWS::CloudFormation::Stack), set by the engine for each operation. */
  stacks?: NestedStackDoor;
  /** The AWS-compatible data plane that backend providers provision into (--backend); unset, every type is simulated. */
  backend?: BackendEndpoint;
  /** The pollers of event source mappings from backend queues (set with a backend). */
  pollers?: EventSourcePollers;
}

/** Where backend resources live: moto_server run by cfn-local, or a URL (server/backend/). */
export interface BackendEndpoint {
  readonly kind: 'moto' | 'url';
  /** The base URL, once the endpoint answers (moto started by cfn-local may still be starting). */
  url(): Promise<string>;
  close(): Promise<void>;
}

/**
 * What a nested stack's provider asks of the engine: start the child's create, update or delete and wait for the
 * child to settle. Implemented in state-machine/nestedStacks.ts, so resources/ never imports the engine.
 */
export interface NestedStackDoor {
  /** Inserts the child stack and starts its create; the result's physical id is the child's ARN. */
  create(req: ResourceRequest): Promise<ProviderResult>;
  /** Waits for the child's create to end: its outputs as `Outputs.<Key>` attributes, or the embedded-stack refusal. */
  awaitCreate(req: ResourceRequest, created: Provisioned): Promise<ProviderResult>;
  update(req: ResourceRequest): Promise<ProviderResult>;
  delete(req: ResourceRequest): Promise<Deleted>;
  /** Whether the template at the child's TemplateURL differs from the one the child runs. */
  templateChanged(req: ResourceRequest): Promise<boolean>;
}

export interface AccountScope {
  account: string;
  region: string;
  partition: string;
  urlSuffix: string;
}

export interface ResourceRequest extends AccountScope {
  stackName: string;
  stackId: string;
  logicalId: string;
  type: string;
  properties: Record<string, unknown>;
  /** The physical resource as it stands (update and delete). */
  physicalId?: string;
  previousProperties?: Record<string, unknown>;
  /** A client request token to echo in handler messages. */
  requestToken: string;
  /** Aborts when the operation stops waiting (a sibling failed, the stack timed out). */
  signal?: AbortSignal;
  /** The provider environment (set by the engine; absent in unit tests of pure providers). */
  env?: ProviderEnv;
  /** Set when an update rollback puts the resource back (a nested stack then continues its child's rollback). */
  rollingBack?: boolean;
  /** ContinueUpdateRollback's ResourcesToSkip that name resources of this nested stack (`Child.Logical` → `Logical`). */
  resourcesToSkip?: string[];
}

export interface Provisioned {
  ok: true;
  physicalId: string;
  ref: string;
  attributes: Record<string, unknown>;
}

export interface Refusal {
  ok: false;
  /** The service's error code (BucketNotEmpty, DeleteConflict, AlreadyExists, …). */
  code: string;
  /** The ResourceStatusReason CloudFormation shows. */
  reason: string;
  /** True for refusals a retry may clear (throttling). */
  transient?: boolean;
  /** A create that failed yet left something behind (a custom resource answering FAILED with its id): rollback deletes it. */
  physicalId?: string;
}

export type ProviderResult = Provisioned | Refusal;

/** Read and write access to the account's physical resources, inside the caller's transaction. */
export interface WorldAccess {
  get(type: string, physicalId: string): WorldResource | undefined;
  byName(type: string, name: string): WorldResource | undefined;
  /** The same, in any region of the account (global services' names); absent where the caller cannot look. */
  byNameInAccount?(type: string, name: string): WorldResource | undefined;
  /** Every resource of a type in the caller's account and region; absent where the caller cannot look. */
  list?(type: string): WorldResource[];
  put(resource: WorldResource): void;
  remove(type: string, physicalId: string): void;
  now: () => string;
  random: (length: number) => string;
}

export type Deleted = Refusal | { ok: true };

/**
 * A provider may be asynchronous (a custom resource waits for its handler's reply). Its world writes are staged
 * and committed by the engine together with the status they produce.
 */
export interface Provider {
  create(world: WorldAccess, req: ResourceRequest): ProviderResult | Promise<ProviderResult>;
  update(world: WorldAccess, req: ResourceRequest): ProviderResult | Promise<ProviderResult>;
  delete(world: WorldAccess, req: ResourceRequest): Deleted | Promise<Deleted>;
  /**
   * The resource's actual properties where it lives: the backend's answer for a backend resource (undefined when it
   * is gone), the world row's for a simulated one. Drift compares against it.
   */
  read?(world: WorldAccess, req: ResourceRequest): Promise<Record<string, unknown> | undefined>;
  /** Whether a property change forces a new physical resource. */
  replacementNeeded(type: string, before: Record<string, unknown>, after: Record<string, unknown>): string[];
  /** The reason a property set is invalid for the type, in the registry's words; undefined when valid. */
  validate(type: string, logicalId: string, properties: Record<string, unknown>): string | undefined;
  supportsAttribute(type: string, attribute: string): boolean;
  /** Whether an update is due although the properties are unchanged (a nested stack's template changed at its URL). */
  changedOutside?(req: ResourceRequest): Promise<boolean>;
  /**
   * After "Resource creation Initiated": wait until the new resource is ready (a WaitCondition counting its
   * signals). Absent for types that are ready at once.
   */
  stabilize?(world: WorldAccess, req: ResourceRequest, created: Provisioned): Promise<ProviderResult>;
}
