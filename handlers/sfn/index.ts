// Step Functions over the account's AWS::StepFunctions::StateMachine rows: executions started here run in cfn-local
// (runtime/stepFunctions), their Lambda tasks in its Lambda runtime. The other actions of the model are
// notImplemented.ts's. docs/lambda-runtime.md, "Step Functions".
// https://docs.aws.amazon.com/step-functions/latest/apireference/API_Operations.html
import { v4 as uuidv4 } from 'uuid';
import type { SfnActions } from '../../generated/sfn.js';
import type { Store } from '../../storage/index.js';
import type { WorldResource } from '../../storage/world.js';
import type { Caller } from '../../state-machine/engine.js';
import { ServiceError } from '../../domain/serviceErrors.js';
import { definitionOf } from '../../resources/backend/stepfunctions.js';
import type { Execution, StepFunctionsRunner } from '../../runtime/stepFunctions/executions.js';
import type { NotImplemented } from '../actionTable.js';
import { NOT_SERVED } from './notImplemented.js';

export const STATE_MACHINE_TYPE = 'AWS::StepFunctions::StateMachine';

export interface SfnContext {
  store: Store;
  caller: Caller;
  runner: StepFunctionsRunner;
}

export type SfnAction = keyof SfnActions;
type SfnInputOf<A extends SfnAction> = SfnActions[A]['input'];
type SfnHandler<A extends SfnAction> = (ctx: SfnContext, input: SfnInputOf<A>) => SfnActions[A]['output'];

const sfnError = (code: string, message: string) => new ServiceError(code, message, 400);

const STATE_MACHINE_ARN = /^arn:aws[a-z-]*:states:[a-z0-9-]+:\d{12}:stateMachine:[^:]+$/;
const EXECUTION_ARN = /^arn:aws[a-z-]*:states:[a-z0-9-]+:\d{12}:execution:[^:]+:[^:]+$/;
// A name must not hold white space, brackets, wildcards, these specials, or control characters (AWS's StartExecution).
const BAD_CHARACTERS = /[\s<>{}[\]?*"#%\\^|~`$&,;:/]/;
const isControl = (c: string) => c.charCodeAt(0) <= 0x1f || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f);
const badName = (name: string) =>
  name.length < 1 || name.length > 80 || BAD_CHARACTERS.test(name) || Array.from(name).some(isControl);
const INPUT_LIMIT = 256 * 1024;

function checkArn(arn: string, shape: RegExp) {
  if (!shape.test(arn)) throw sfnError('InvalidArn', `Invalid Arn: 'Resource type not valid in this context: ${arn}'`);
}

/** The state machine row the ARN names (in the ARN's account and region), if the world has it. */
export function stateMachineRow(store: Store, arn: string): WorldResource | undefined {
  const [, , , region, account] = arn.split(':');
  return store.world.get(account, region, STATE_MACHINE_TYPE, arn);
}

function machineOf(ctx: SfnContext, arn: string): WorldResource {
  checkArn(arn, STATE_MACHINE_ARN);
  const row = stateMachineRow(ctx.store, arn);
  if (!row) throw sfnError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`);
  return row;
}

function executionOf(ctx: SfnContext, arn: string): Execution {
  checkArn(arn, EXECUTION_ARN);
  const execution = ctx.runner.get(arn);
  if (!execution) throw sfnError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`);
  return execution;
}

const machineName = (arn: string) => arn.slice(arn.lastIndexOf(':') + 1);

const startExecution: SfnHandler<'StartExecution'> = (ctx, input) => {
  const row = machineOf(ctx, input.stateMachineArn);
  const name = input.name ?? uuidv4();
  if (badName(name)) throw sfnError('InvalidName', `Invalid Name: '${name}'`);
  const text = input.input ?? '{}';
  if (Buffer.byteLength(text) > INPUT_LIMIT)
    throw sfnError(
      'InvalidExecutionInput',
      `Invalid State Machine Execution Input: 'Input exceeds the 262144 bytes limit'`,
    );
  try {
    JSON.parse(text);
  } catch (err) {
    throw sfnError('InvalidExecutionInput', `Invalid State Machine Execution Input: '${(err as Error).message}'`);
  }
  const arn = input.stateMachineArn;
  const existing = ctx.runner.get(`${arn.replace(':stateMachine:', ':execution:')}:${name}`);
  if (existing) {
    // StartExecution is idempotent for a running execution of the same name and input
    if (existing.status === 'RUNNING' && existing.input === text)
      return { executionArn: existing.executionArn, startDate: existing.startDate };
    throw sfnError('ExecutionAlreadyExists', `Execution Already Exists: '${existing.executionArn}'`);
  }
  const p = row.properties;
  const started = ctx.runner.start(
    { arn, name: machineName(arn), definition: definitionOf(p), roleArn: p.RoleArn as string | undefined },
    name,
    text,
  );
  return { executionArn: started.executionArn, startDate: started.startDate };
};

const describeExecution: SfnHandler<'DescribeExecution'> = (ctx, input) => {
  const e = executionOf(ctx, input.executionArn);
  return {
    executionArn: e.executionArn,
    stateMachineArn: e.stateMachineArn,
    name: e.name,
    status: e.status,
    startDate: e.startDate,
    stopDate: e.stopDate,
    input: e.input,
    inputDetails: { included: true },
    output: e.output,
    outputDetails: e.output === undefined ? undefined : { included: true },
    error: e.error,
    cause: e.cause,
    redriveCount: 0,
    redriveStatus: 'NOT_REDRIVABLE',
  };
};

const stopExecution: SfnHandler<'StopExecution'> = (ctx, input) => {
  executionOf(ctx, input.executionArn);
  const stopped = ctx.runner.stop(input.executionArn, input.error, input.cause)!;
  return { stopDate: stopped.stopDate ?? new Date() };
};

const STATUSES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED', 'PENDING_REDRIVE'];

const listExecutions: SfnHandler<'ListExecutions'> = (ctx, input) => {
  if (!input.stateMachineArn) throw sfnError('ValidationException', 'Must provide a StateMachine ARN or MapRun ARN');
  machineOf(ctx, input.stateMachineArn);
  if (input.statusFilter !== undefined && !STATUSES.includes(input.statusFilter))
    throw sfnError(
      'ValidationException',
      `1 validation error detected: Value '${input.statusFilter}' at 'statusFilter' failed to satisfy constraint: Member must satisfy enum value set: [${STATUSES.join(', ')}]`,
    );
  const all = ctx.runner
    .list(input.stateMachineArn)
    .filter((e) => input.statusFilter === undefined || e.status === input.statusFilter);
  const size = input.maxResults || 100;
  const from = input.nextToken ? Number(Buffer.from(input.nextToken, 'base64').toString('utf8')) || 0 : 0;
  const page = all.slice(from, from + size);
  return {
    executions: page.map((e) => ({
      executionArn: e.executionArn,
      stateMachineArn: e.stateMachineArn,
      name: e.name,
      status: e.status,
      startDate: e.startDate,
      stopDate: e.stopDate,
    })),
    nextToken: from + size < all.length ? Buffer.from(String(from + size)).toString('base64') : undefined,
  };
};

const describeStateMachine: SfnHandler<'DescribeStateMachine'> = (ctx, input) => {
  const row = machineOf(ctx, input.stateMachineArn);
  const p = row.properties;
  return {
    stateMachineArn: row.physicalId,
    name: machineName(row.physicalId),
    status: 'ACTIVE',
    definition: definitionOf(p),
    roleArn: String(p.RoleArn ?? ''),
    type: String(p.StateMachineType ?? 'STANDARD'),
    creationDate: new Date(row.createdAt),
    loggingConfiguration: { level: 'OFF', includeExecutionData: false },
    tracingConfiguration: { enabled: false },
  };
};

/** Total over the model's actions: the served ones here, the others NOT_IMPLEMENTED (notImplemented.ts). */
export const SFN_ACTIONS: { readonly [A in SfnAction]: SfnHandler<A> | NotImplemented } = {
  ...NOT_SERVED,
  StartExecution: startExecution,
  DescribeExecution: describeExecution,
  StopExecution: stopExecution,
  ListExecutions: listExecutions,
  DescribeStateMachine: describeStateMachine,
};
