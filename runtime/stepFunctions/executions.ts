// Step Functions executions run in cfn-local: the Amazon States Language is executed by aws-local-stepfunctions (a
// maintained ASL interpreter), its Task states wired to cfn-local's Lambda runtime (lambdaTasks.ts). This is what the
// CDK's Provider framework needs for `isComplete`: its onEvent function starts the waiter state machine, whose task
// retries isComplete until it answers CloudFormation. Executions live in memory, as long as the server runs.
// https://docs.aws.amazon.com/step-functions/latest/apireference/API_StartExecution.html
import { lambdaTaskHandlers, withTaskTimeouts, type Invoke, type States } from './lambdaTasks.js';
import { aslInterpreter } from './interpreter.js';

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

export interface Execution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: ExecutionStatus;
  startDate: Date;
  stopDate?: Date;
  input: string;
  output?: string;
  error?: string;
  cause?: string;
}

export interface MachineToRun {
  arn: string;
  name: string;
  /** The definition's JSON text, DefinitionSubstitutions already filled in. */
  definition: string;
  roleArn?: string;
}

interface Running {
  execution: Execution;
  abort?: () => void;
  done: Promise<void>;
}

/** How many executions are kept; past it the oldest finished ones are forgotten (AWS keeps them 90 days). */
const KEPT = 10_000;

/** A call, not a comparison: the status changes while an execution awaits (StopExecution). */
const isRunning = (execution: Execution) => execution.status === 'RUNNING';

const where = (arn: string) => {
  const parts = arn.split(':');
  return { region: parts[3], account: parts[4] };
};

export class StepFunctionsRunner {
  private readonly executions = new Map<string, Running>();

  constructor(
    private readonly options: {
      /** cfn-local's Lambda runtime (undefined with --no-lambda: Lambda tasks then fail). */
      invoke: () => Invoke | undefined;
      log: { info(obj: object, msg?: string): void };
      now?: () => Date;
    },
  ) {}

  get(executionArn: string): Execution | undefined {
    return this.executions.get(executionArn)?.execution;
  }

  /** The executions of one state machine, newest first. */
  list(stateMachineArn: string): Execution[] {
    return [...this.executions.values()]
      .map((r) => r.execution)
      .filter((e) => e.stateMachineArn === stateMachineArn)
      .reverse();
  }

  /** Starts the execution in the background; resolves once it is RUNNING (its ARN known). */
  start(machine: MachineToRun, name: string, input: string): Execution {
    const arn = machine.arn.replace(':stateMachine:', ':execution:') + `:${name}`;
    const execution: Execution = {
      executionArn: arn,
      stateMachineArn: machine.arn,
      name,
      status: 'RUNNING',
      startDate: this.now(),
      input,
    };
    const running: Running = { execution, done: Promise.resolve() };
    this.executions.set(arn, running);
    this.forgetOld();
    running.done = this.run(machine, running).catch(() => {});
    return execution;
  }

  /** StopExecution: a running execution ends ABORTED with the error and cause given. */
  stop(executionArn: string, error?: string, cause?: string): Execution | undefined {
    const running = this.executions.get(executionArn);
    if (!running) return undefined;
    if (running.execution.status === 'RUNNING') {
      this.finish(running.execution, 'ABORTED', { error, cause });
      running.abort?.();
    }
    return running.execution;
  }

  /** Resolves once every execution started so far has ended (tests, close). */
  async idle(): Promise<void> {
    await Promise.all([...this.executions.values()].map((r) => r.done));
  }

  close(): void {
    for (const running of this.executions.values()) if (running.execution.status === 'RUNNING') running.abort?.();
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private async run(machine: MachineToRun, running: Running): Promise<void> {
    const { execution } = running;
    const started = Date.now();
    try {
      // StartExecution answers first: the interpreter's first load takes a moment
      await new Promise((resolve) => setImmediate(resolve));
      const { StateMachine } = aslInterpreter();
      const parsed = JSON.parse(machine.definition) as { States: States };
      const definition = { ...parsed, States: withTaskTimeouts(parsed.States) } as unknown as ConstructorParameters<
        typeof StateMachine
      >[0];
      const sm = new StateMachine(definition, { validationOptions: { checkArn: false } });
      const invoke = this.options.invoke();
      const refused: Invoke = async () => {
        throw new Error('cfn-local runs no function code (--no-lambda)');
      };
      const input = JSON.parse(execution.input) as Parameters<typeof sm.run>[0];
      const run = sm.run(input, {
        overrides: {
          taskResourceLocalHandlers: lambdaTaskHandlers(
            definition as unknown as Parameters<typeof lambdaTaskHandlers>[0],
            where(machine.arn),
            invoke ?? refused,
          ),
        },
        noThrowOnAbort: true,
        context: {
          Execution: {
            Id: execution.executionArn,
            Name: execution.name,
            Input: input,
            StartTime: execution.startDate.toISOString(),
            RoleArn: machine.roleArn,
          },
          StateMachine: { Id: machine.arn, Name: machine.name },
        },
      });
      running.abort = run.abort;
      if (!isRunning(execution)) return run.abort();
      const output = await run.result;
      // StopExecution may have ended it meanwhile
      if (isRunning(execution)) this.finish(execution, 'SUCCEEDED', { output: JSON.stringify(output) });
    } catch (err) {
      if (execution.status !== 'RUNNING') return;
      const e = err as Error & { cause?: Error };
      if (e.name === 'ExecutionTimeoutError') this.finish(execution, 'TIMED_OUT', { error: 'States.Timeout' });
      else if (e.name === 'ExecutionError' && e.cause)
        this.finish(execution, 'FAILED', { error: e.cause.name, cause: e.cause.message });
      else this.finish(execution, 'FAILED', { error: 'States.Runtime', cause: e.message });
    } finally {
      this.options.log.info(
        { executionArn: execution.executionArn, status: execution.status, durationMs: Date.now() - started },
        `step functions ${execution.name} ended ${execution.status}`,
      );
    }
  }

  private finish(execution: Execution, status: ExecutionStatus, fields: Partial<Execution>) {
    Object.assign(execution, { status, stopDate: this.now() }, fields);
  }

  private forgetOld() {
    if (this.executions.size <= KEPT) return;
    for (const [arn, running] of this.executions) {
      if (this.executions.size <= KEPT) break;
      if (running.execution.status !== 'RUNNING') this.executions.delete(arn);
    }
  }
}
