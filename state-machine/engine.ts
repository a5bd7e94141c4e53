// The engine and its one door for starting operations: startOperation(kind) records the first status change
// synchronously (so two racing calls never both start), then runs the operation in the background until it ends.
// What each operation checks and runs is its module under state-machine/operations/; the engine imports none of them:
// what it needs from them (the nested stacks' door, which runs them) is handed to it by server/app.ts.
import { v4 as uuidv4 } from 'uuid';
import type { Logger } from 'pino';
import type { Store, StackDoc, StackRecord, ResourceRecord } from '../storage/index.js';
import type { PreparedTemplate } from '../template/index.js';
import type { Faults } from '../resources/faults.js';
import type { HookDoor } from './hooks/invoke.js';
import { REAL_TIMERS, type Timers } from '../resources/timers.js';
import type { NestedStackDoor, ProviderEnv } from '../resources/provider.js';
import type { TransformServices } from './expansions.js';
import { isInProgress, type FirstStackStatus, type OperationType, type StackStatus } from './statuses.js';
import { failInternally, insertStack, setStackStatus, type Clock, type OperationContext } from './transitions.js';
import { accountScope, worldAccess, type Runtime } from './runtime.js';
import { newStackRecord } from './stackRecords.js';
import { rememberToken, type TokenAction } from './tokens.js';
import { logOperationEnd, markOperation } from './operationLog.js';
import { failInProgress } from './guard.js';
import { beginOperation, endOperations, resumeOperation } from './operationHistory.js';
import { REASONS } from './outcomes.js';

export interface Caller {
  account: string;
  region: string;
}

export interface EngineDeps {
  store: Store;
  clock: Clock;
  faults: Faults;
  /** The hooks' door (state-machine/hooks/): the configured hooks and their verdicts. */
  hooks?: HookDoor;
  log: Logger;
  /** Multiplies every AWS duration (TimeoutInMinutes…): tests and impatient users shrink time with it. */
  timeScale?: number;
  /** What TimeoutInMinutes runs on (default the real timers; tests move manual ones). */
  timers?: Timers;
  /** Set by server/app.ts; its endpoint is filled in once the server listens. */
  providerEnv?: ProviderEnv;
  /** The SAM translator, macros' Lambda endpoint and AWS::Include's S3 reader (set by server/app.ts). */
  transforms?: TransformServices;
  /** Builds the door nested stacks' providers use to run their children through this engine (nestedStacks.ts). */
  nestedStacks(engine: Engine): NestedStackDoor;
}

/** The options of one run (each defaults to what the stack keeps, or AWS's default). */
export interface RunOptions {
  disableRollback?: boolean;
  retainExceptOnCreate?: boolean;
  retainResources?: string[];
  /** ImportExistingResources' choices, logical id → the unowned physical resource to import instead of creating. */
  adopt?: Record<string, string>;
  /** DeploymentConfig.Mode EXPRESS: resource completes carry AWS's Express status reason. */
  express?: boolean;
}

/** What an operation module hands the door. */
export interface OperationLaunch {
  operation: OperationContext;
  stack: StackRecord;
  template: PreparedTemplate;
  /** The stack's resources as the run starts; by default, its stored ones. */
  resources?: Map<string, ResourceRecord>;
  options?: RunOptions;
  /** ClientRequestToken idempotency: the action the call's token is remembered for. */
  tokenAction?: TokenAction;
  /** The first status, recorded with "User Initiated" before the call returns. */
  first?: StackStatus;
  /** A new stack: its first row (template body, CREATE_IN_PROGRESS) is inserted instead of a status change. */
  insertBody?: string;
  /** A restart resuming an interrupted operation: no first status. */
  resumes?: boolean;
  /** When the resumed operation first started: its TimeoutInMinutes still counts from there. */
  startedAt?: string;
  /** A create's OnFailure: ROLLBACK, DELETE or DO_NOTHING (ROLLBACK when unset). */
  onFailure?: string;
  /** Synchronous work right after the first status (ContinueUpdateRollback's skipped resources). */
  begin?(rt: Runtime): void;
  /** What the run waits for after the first status: a nested stack's parent recording "Resource creation Initiated". */
  after?: Promise<void>;
  run(rt: Runtime): Promise<void>;
  onEnd?(): void;
}

export class Engine {
  private readonly inFlight = new Set<Promise<void>>();
  /** The runtime of the operation each stack is running: CancelUpdateStack and live stack settings go through it. */
  readonly running = new Map<string, Runtime>();
  /** The task of the operation each stack is running, for what waits on a stack (a parent on its child). */
  private readonly tasks = new Map<string, Promise<void>>();
  /** The door nested stacks' providers use to run their children. */
  readonly nested: NestedStackDoor;

  constructor(readonly deps: EngineDeps) {
    this.nested = deps.nestedStacks(this);
  }

  /** The stack once no operation runs on it (undefined if `signal` stops the wait first). */
  async stackWhenIdle(stackId: string, signal?: AbortSignal): Promise<StackRecord | undefined> {
    for (;;) {
      if (signal?.aborted) return undefined;
      const stack = this.deps.store.stacks.byId(stackId);
      if (!stack || !isInProgress(stack.status)) return stack;
      const task = this.tasks.get(stackId) ?? new Promise<void>((resolve) => setTimeout(resolve, 10));
      await new Promise<void>((resolve) => {
        // the listener goes with the wait: a parent's signal outlives many of its child's statuses
        const done = () => {
          signal?.removeEventListener('abort', done);
          resolve();
        };
        void task.then(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  /**
   * The one door: every operation starts here, with AWS's OperationType as its kind (what LastOperations shows).
   * The caller has already made AWS's checks; from here on the stack is the operation's.
   */
  startOperation(kind: OperationType, launch: OperationLaunch): Runtime {
    const { operation: operation, stack } = launch;
    const rt = this.runtime(launch);
    if (launch.tokenAction) rememberToken(stack, operation.token, launch.tokenAction);
    if (launch.resumes) resumeOperation(rt, stack);
    else beginOperation(operation, stack, kind, operation.clock.now().toISOString());
    if (launch.insertBody !== undefined) insertStack(operation, stack, launch.insertBody, REASONS.userInitiated);
    else if (launch.first) setStackStatus(operation, stack, launch.first, REASONS.userInitiated);
    launch.begin?.(rt);
    this.launch(rt, kind, launch);
    return rt;
  }

  /** A new stack record (not yet stored), with AWS's time-based stack id. */
  newStack(caller: Caller, name: string, status: FirstStackStatus): StackRecord {
    return newStackRecord(caller, name, status, this.deps.clock.now());
  }

  /** A new operation's identity: its id, and the ClientRequestToken its events carry. */
  operationContext(token?: string, operationId = uuidv4()): OperationContext {
    return { store: this.deps.store, clock: this.deps.clock, operationId, token };
  }

  /**
   * A stack setting changed by a call (termination protection, stack policy) goes through the record the running
   * operation holds, when one runs: that record is saved at each status change, so a copy read from storage and
   * saved beside it would be overwritten when the operation moves on.
   */
  changeSettings(stack: StackRecord, change: (doc: StackDoc) => void): void {
    const live = this.running.get(stack.stackId)?.stack ?? stack;
    change(live.doc);
    if (live !== stack) change(stack.doc);
    this.deps.store.stacks.saveDoc(live);
  }

  /** Resolves when every running operation has ended (tests, graceful stop). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private runtime(launch: OperationLaunch): Runtime {
    const { stack, options = {} } = launch;
    const account = accountScope(stack);
    const resources =
      launch.resources ?? new Map(this.deps.store.resources.byStack(stack.stackId).map((r) => [r.logicalId, r]));
    return {
      ...launch.operation,
      express: options.express,
      onFailure: launch.onFailure,
      stack,
      template: launch.template,
      resources,
      accountScope: account,
      faults: this.deps.faults,
      hooks: this.deps.hooks,
      imports: new Set(),
      env: this.operationEnv(),
      stop: new AbortController(),
      world: worldAccess(this.deps.store, account, () => this.deps.clock.now()),
      options: {
        disableRollback: options.disableRollback ?? stack.doc.disableRollback,
        retainExceptOnCreate: options.retainExceptOnCreate ?? false,
        retainResources: options.retainResources,
        adopt: options.adopt,
        express: options.express,
      },
    };
  }

  /** The providers' env of one operation; the endpoint is read when used (a restart resumes before it listens). */
  private operationEnv(): ProviderEnv | undefined {
    const env = this.deps.providerEnv;
    if (!env) return undefined;
    return {
      ...env,
      stacks: this.nested,
      get endpoint() {
        return env.endpoint;
      },
    };
  }

  /** Runs an operation in the background, recorded in the operations table until it ends. */
  private launch(rt: Runtime, kind: OperationType, launch: OperationLaunch): void {
    const { store, log } = this.deps;
    const startedAt = launch.startedAt ?? rt.clock.now().toISOString();
    store.journal.startOperation({
      operationId: rt.operationId,
      stackId: rt.stack.stackId,
      kind,
      startedAt,
      // the call's ClientRequestToken (the events of a resumed operation carry it still) and its run options
      // (RetainResources, ImportExistingResources' choices…), which a resumed operation keeps
      doc: { ...(rt.token === undefined ? {} : { token: rt.token }), options: rt.options },
    });
    this.running.set(rt.stack.stackId, rt);
    // a resumed operation has had the time since its first start already
    const elapsed = launch.resumes ? Math.max(0, rt.clock.now().getTime() - Date.parse(startedAt)) : 0;
    const clearTimer = this.timeoutOf(rt, kind, elapsed);
    const mark = markOperation(store, rt.stack.stackId);
    const task = Promise.resolve(launch.after)
      .then(() => launch.run(rt))
      .catch((err: unknown) => {
        log.error({ err, stackId: rt.stack.stackId, kind }, 'operation failed unexpectedly');
        for (const r of rt.resources.values()) failInProgress(rt, r, err);
        failInternally(rt, rt.stack);
      })
      .finally(() => {
        store.journal.endOperation(rt.operationId);
        endOperations(rt, rt.stack, rt.clock.now().toISOString());
        // nothing waits on the stack any more: signals sent for a wait that never began are dropped
        this.deps.providerEnv?.signals.abandon(rt.stack.stackId, 'cancelled');
        clearTimer?.();
        if (rt.stack.doc.duringUpdatePolicyBody !== undefined) {
          rt.stack.doc.duringUpdatePolicyBody = undefined;
          store.stacks.saveDoc(rt.stack);
        }
        if (this.running.get(rt.stack.stackId) === rt) this.running.delete(rt.stack.stackId);
        if (this.tasks.get(rt.stack.stackId) === task) this.tasks.delete(rt.stack.stackId);
        this.inFlight.delete(task);
        // what is kept per stack in memory lasts as long as its operation: the next one reads it back
        const treeRoot = store.eventTreeRoot.get(rt.stack.stackId);
        if (treeRoot && !this.running.has(treeRoot)) store.lastEventTime.delete(treeRoot);
        store.lastEventTime.delete(rt.stack.stackId);
        store.eventTreeRoot.delete(rt.stack.stackId);
        if (rt.stack.status === 'DELETE_COMPLETE') this.deps.faults.forgetStack(rt.stack.stackId);
        logOperationEnd(log, store, rt.stack, kind, mark);
        launch.onEnd?.();
      });
    this.inFlight.add(task);
    this.tasks.set(rt.stack.stackId, task);
  }

  /**
   * TimeoutInMinutes bounds a create (and the updates of that stack, as on AWS), from the operation's start: a
   * restart does not give a resumed operation more time (`elapsed`). Returns what clears it.
   */
  private timeoutOf(rt: Runtime, kind: OperationType, elapsed: number): (() => void) | undefined {
    const minutes = rt.stack.doc.timeoutInMinutes;
    if (!minutes || (kind !== 'CREATE_STACK' && kind !== 'UPDATE_STACK')) return undefined;
    const timers = this.deps.timers ?? REAL_TIMERS;
    const timer = timers.setTimeout(
      () => {
        rt.stopReason ??= 'timed-out';
        rt.stop.abort();
      },
      Math.max(0, minutes * 60_000 * (this.deps.timeScale ?? 1) - elapsed),
    );
    // a real timer alone must not keep the process alive (a test's manual one has nothing to unref)
    (timer as { unref?: () => void }).unref?.();
    return () => timers.clearTimeout(timer);
  }
}
