// The operations handlers start: each checks what AWS checks at the call, makes the first status change
// synchronously (so two racing calls never both start), then runs the rest in the background.
import { v1 as uuidv1, v4 as uuidv4 } from 'uuid';
import type { Logger } from 'pino';
import type { Store, StackRecord, ResourceRecord, StackParameter } from '../storage/index.js';
import { awsError, validationError } from '../domain/errors.js';
import { checkCapabilities, type PreparedTemplate } from '../template/index.js';
import type { GivenParameter } from '../template/parameters.js';
import type { Faults } from '../resources/faults.js';
import type { ProviderEnv } from '../resources/provider.js';
import { canStart, type StackOperation, type StackStatus } from './statuses.js';
import { setStackStatus, type Clock, type OperationScope } from './transitions.js';
import { accountScope, worldAccess, type Runtime } from './runtime.js';
import { prepareForStack } from './prepare.js';
import { insertStack } from './stackRecords.js';
import {
  applyCreateOptions, checkRetainable, emptyTemplate, failInternally, markObsolete, rememberToken, repeatOf, tagsOf,
} from './stackOptions.js';
import { parseStackPolicy } from './stackPolicy.js';
import { runCreate } from './operations/create.js';
import { runUpdate } from './operations/update.js';
import { runDelete } from './operations/delete.js';
import { logOperationEnd, markOperation } from './operationLog.js';

export interface Caller {
  account: string;
  region: string;
}

export interface EngineDeps {
  store: Store;
  clock: Clock;
  faults: Faults;
  log: Logger;
  /** Multiplies every AWS duration (TimeoutInMinutes…): tests and impatient users shrink time with it. */
  timeScale?: number;
  /** Set by server/app.ts; its endpoint is filled in once the server listens. */
  providerEnv?: ProviderEnv;
}

export interface StackTemplateInput {
  /** Internal: the call executes a reviewed change set, whose review acknowledged its transforms. */
  reviewed?: boolean;
  /** Internal: ImportExistingResources' choices, logical id → the unowned physical resource to import. */
  adopt?: Record<string, string>;
  StackPolicyBody?: string;
  StackPolicyDuringUpdateBody?: string;
  TemplateBody?: string;
  TemplateURL?: string;
  UsePreviousTemplate?: boolean;
  Parameters?: GivenParameter[];
  Capabilities?: string[];
  Tags?: { Key?: string; Value?: string }[];
  NotificationARNs?: string[];
  ClientRequestToken?: string;
  DisableRollback?: boolean;
  RetainExceptOnCreate?: boolean;
  RoleARN?: string;
}

export interface CreateStackInput extends StackTemplateInput {
  StackName?: string;
  OnFailure?: 'ROLLBACK' | 'DELETE' | 'DO_NOTHING';
  TimeoutInMinutes?: number;
  EnableTerminationProtection?: boolean;
}

export interface DeleteStackInput {
  StackName?: string;
  RetainResources?: string[];
  ClientRequestToken?: string;
}

export class Engine {
  private readonly inFlight = new Set<Promise<void>>();
  /** The runtime of the operation each stack is running, for CancelUpdateStack. */
  readonly running = new Map<string, Runtime>();

  constructor(readonly deps: EngineDeps) {}

  /** AWS's refusal of an operation a stack's status does not allow. */
  static refuse(operation: StackOperation, stack: StackRecord) {
    if (operation === 'DeleteStack') {
      return validationError(`Stack [${stack.name}] cannot be deleted while in status ${stack.status}`);
    }
    return validationError(`Stack:${stack.stackId} is in ${stack.status} state and can not be updated.`);
  }

  createStack(caller: Caller, input: CreateStackInput, body: string): string {
    const { store } = this.deps;
    const name = input.StackName!;
    const existing = store.stacks.liveByName(caller.account, caller.region, name);
    if (existing && repeatOf(existing, input.ClientRequestToken, 'CreateStack')) return existing.stackId;
    // AWS accepts a CreateStack over a stack still in review: its pending change sets become OBSOLETE.
    if (existing && existing.status !== 'REVIEW_IN_PROGRESS') {
      throw awsError('AlreadyExistsException', `Stack [${name}] already exists`);
    }
    const stack = existing ?? this.newStack(caller, name, 'CREATE_IN_PROGRESS');
    applyCreateOptions(stack, input);
    if (input.StackPolicyBody !== undefined) parseStackPolicy(input.StackPolicyBody);
    const template = prepareForStack(store, stack, body, input.Parameters);
    checkCapabilities(template, input.Capabilities);
    this.describeTemplate(stack, template);
    const scope = this.scope(input.ClientRequestToken);
    rememberToken(stack, input.ClientRequestToken, 'CreateStack');
    if (existing) {
      stack.templateId = store.templates.insert(stack.stackId, body, this.deps.clock.now().toISOString());
      markObsolete(store, stack.stackId);
      setStackStatus(scope, stack, 'CREATE_IN_PROGRESS', 'User Initiated');
    } else insertStack(scope, stack, body, 'User Initiated');
    this.startCreate(scope, stack, template, input);
    return stack.stackId;
  }

  /** A new stack record (not yet stored), with AWS's time-based stack id. */
  newStack(caller: Caller, name: string, status: StackStatus): StackRecord {
    return {
      stackId: `arn:aws:cloudformation:${caller.region}:${caller.account}:stack/${name}/${uuidv1()}`,
      account: caller.account, region: caller.region, name, status,
      createdAt: this.deps.clock.now().toISOString(), templateId: 0,
      doc: {
        parameters: [], noEchoKeys: [], outputs: [], tags: [], notificationARNs: [], disableRollback: false,
        terminationProtection: false, rollbackConfiguration: {},
      },
    };
  }

  /** Runs a create whose first status (CREATE_IN_PROGRESS) is already recorded. */
  startCreate(scope: OperationScope, stack: StackRecord, template: PreparedTemplate, input: CreateStackInput, onEnd?: () => void) {
    const rt = this.runtime(scope, stack, template, new Map(), input);
    this.launch(rt, 'CREATE_STACK', () => runCreate(rt, input.OnFailure ?? 'ROLLBACK'), onEnd);
  }

  updateStack(stack: StackRecord, input: StackTemplateInput, body: string, onEnd?: () => void): string {
    const { store } = this.deps;
    if (repeatOf(stack, input.ClientRequestToken, 'UpdateStack')) return stack.stackId;
    if (!canStart('UpdateStack', stack.status as StackStatus)) throw Engine.refuse('UpdateStack', stack);
    if (input.StackPolicyDuringUpdateBody !== undefined) parseStackPolicy(input.StackPolicyDuringUpdateBody);
    const template = prepareForStack(store, stack, body, input.Parameters, stack.doc.parameters);
    checkCapabilities(template, input.Capabilities, input.reviewed);
    const resources = new Map(store.resources.byStack(stack.stackId).map((r) => [r.logicalId, r]));
    if (this.isNoOp(stack, template, input)) throw validationError('No updates are to be performed.');
    const scope = this.scope(input.ClientRequestToken);
    stack.doc.previous = {
      templateId: stack.templateId, parameters: stack.doc.parameters, outputs: stack.doc.outputs,
      description: stack.doc.description, operationId: scope.operationId,
    };
    stack.templateId = store.templates.insert(stack.stackId, body, this.deps.clock.now().toISOString());
    if (input.Capabilities) stack.doc.capabilities = input.Capabilities;
    if (input.Tags) stack.doc.tags = tagsOf(input.Tags);
    if (input.NotificationARNs) stack.doc.notificationARNs = input.NotificationARNs;
    stack.doc.disableRollback = input.DisableRollback ?? false;
    stack.doc.retainExceptOnCreate = input.RetainExceptOnCreate;
    stack.doc.changeSetId = undefined;
    stack.doc.duringUpdatePolicyBody = input.StackPolicyDuringUpdateBody;
    if (input.StackPolicyBody !== undefined) stack.doc.stackPolicyBody = input.StackPolicyBody;
    rememberToken(stack, input.ClientRequestToken, 'UpdateStack');
    markObsolete(store, stack.stackId);
    this.describeTemplate(stack, template);
    setStackStatus(scope, stack, 'UPDATE_IN_PROGRESS', 'User Initiated');
    const rt = this.runtime(scope, stack, template, resources, input);
    this.launch(rt, 'UPDATE_STACK', () => runUpdate(rt), onEnd);
    return stack.stackId;
  }

  deleteStack(stack: StackRecord, input: DeleteStackInput): void {
    const { store } = this.deps;
    if (stack.status === 'DELETE_COMPLETE' || repeatOf(stack, input.ClientRequestToken, 'DeleteStack')) return;
    if (stack.doc.terminationProtection) {
      throw validationError(`Stack [${stack.name}] cannot be deleted while TerminationProtection is enabled`);
    }
    if (input.RetainResources?.length && stack.status !== 'DELETE_FAILED') {
      throw validationError(`Invalid operation on stack [${stack.stackId}]. RetainResources can only be specified when a stack is in the DELETE_FAILED state`);
    }
    if (stack.status === 'DELETE_IN_PROGRESS') return;
    if (!canStart('DeleteStack', stack.status as StackStatus)) throw Engine.refuse('DeleteStack', stack);
    const resources = new Map(store.resources.byStack(stack.stackId).map((r) => [r.logicalId, r]));
    checkRetainable(resources, input.RetainResources);
    const statusBefore = stack.status as StackStatus;
    rememberToken(stack, input.ClientRequestToken, 'DeleteStack');
    const scope = this.scope(input.ClientRequestToken);
    setStackStatus(scope, stack, 'DELETE_IN_PROGRESS', 'User Initiated');
    const template = emptyTemplate();
    const rt = this.runtime(scope, stack, template, resources, { RetainResources: input.RetainResources });
    this.launch(rt, 'DELETE_STACK', () => runDelete(rt, statusBefore));
  }

  /** TimeoutInMinutes bounds a create (and the updates of that stack, as on AWS). */
  private timeoutOf(rt: Runtime, kind: string): NodeJS.Timeout | undefined {
    const minutes = rt.stack.doc.timeoutInMinutes;
    if (!minutes || (kind !== 'CREATE_STACK' && kind !== 'UPDATE_STACK')) return undefined;
    const timer = setTimeout(() => {
      rt.stopReason = 'timed-out';
      rt.stop.abort();
    }, minutes * 60_000 * (this.deps.timeScale ?? 1));
    timer.unref();
    return timer;
  }

  /** Resolves when every running operation has ended (tests, graceful stop). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private describeTemplate(stack: StackRecord, template: PreparedTemplate): void {
    stack.doc.description = template.model.description;
    stack.doc.parameters = template.parameters.map((p): StackParameter => ({
      ParameterKey: p.key, ParameterValue: p.raw, ...(p.resolvedValue !== undefined ? { ResolvedValue: p.resolvedValue } : {}),
    }));
    stack.doc.noEchoKeys = template.parameters.filter((p) => p.noEcho).map((p) => p.key);
  }

  /** Same template text (template-level Metadata aside) and the same parameter values: nothing to do. */
  private isNoOp(stack: StackRecord, template: PreparedTemplate, input: StackTemplateInput): boolean {
    const previousBody = this.deps.store.templates.body(stack.templateId);
    if (previousBody === undefined) return false;
    let previous;
    try {
      previous = prepareForStack(this.deps.store, stack, previousBody, stack.doc.parameters.map((p) => ({ ParameterKey: p.ParameterKey, ParameterValue: p.ParameterValue })));
    } catch {
      return false;
    }
    const strip = (doc: Record<string, unknown>) => JSON.stringify({ ...doc, Metadata: undefined });
    const sameParams = JSON.stringify(previous.parameters.map((p) => [p.key, p.raw])) === JSON.stringify(template.parameters.map((p) => [p.key, p.raw]));
    const sameTags = input.Tags === undefined || JSON.stringify(tagsOf(input.Tags)) === JSON.stringify(stack.doc.tags);
    return strip(previous.model.doc) === strip(template.model.doc) && sameParams && sameTags && !template.model.transforms.length;
  }

  scope(token?: string): OperationScope {
    return { store: this.deps.store, clock: this.deps.clock, operationId: uuidv4(), token };
  }

  runtime(
    scope: OperationScope, stack: StackRecord, template: PreparedTemplate, resources: Map<string, ResourceRecord>,
    input: { DisableRollback?: boolean; RetainExceptOnCreate?: boolean; RetainResources?: string[]; adopt?: Record<string, string> },
  ): Runtime {
    const account = accountScope(stack);
    return {
      ...scope, stack, template, resources, scope: account, faults: this.deps.faults, imports: new Set(), env: this.deps.providerEnv,
      stop: new AbortController(),
      world: worldAccess(this.deps.store, account, () => this.deps.clock.now()),
      options: {
        disableRollback: input.DisableRollback ?? stack.doc.disableRollback,
        retainExceptOnCreate: input.RetainExceptOnCreate ?? false,
        retainResources: input.RetainResources,
        adopt: input.adopt,
      },
    };
  }

  /** Runs an operation in the background, recorded in the operations table until it ends. */
  launch(rt: Runtime, kind: string, run: () => Promise<void>, onEnd?: () => void): void {
    const { store, log } = this.deps;
    store.journal.startOperation({ operationId: rt.operationId, stackId: rt.stack.stackId, kind, startedAt: rt.clock.now().toISOString(), doc: {} });
    rt.stack.doc.lastOperation = { OperationId: rt.operationId, OperationType: kind };
    this.running.set(rt.stack.stackId, rt);
    const timer = this.timeoutOf(rt, kind);
    const mark = markOperation(store, rt.stack.stackId);
    const task = Promise.resolve()
      .then(run)
      .catch((err: unknown) => {
        log.error({ err, stackId: rt.stack.stackId, kind }, 'operation failed unexpectedly');
        failInternally(rt);
      })
      .finally(() => {
        store.journal.endOperation(rt.operationId);
        if (timer) clearTimeout(timer);
        if (rt.stack.doc.duringUpdatePolicyBody !== undefined) {
          rt.stack.doc.duringUpdatePolicyBody = undefined;
          store.stacks.save(rt.stack);
        }
        if (this.running.get(rt.stack.stackId) === rt) this.running.delete(rt.stack.stackId);
        this.inFlight.delete(task);
        logOperationEnd(log, store, rt.stack, kind, mark);
        onEnd?.();
      });
    this.inFlight.add(task);
  }
}
