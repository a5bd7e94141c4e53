// The Task states of a state machine, each run in cfn-local's Lambda runtime: a function ARN as `Resource`, or the
// `arn:aws:states:::lambda:invoke` integration with `Parameters.FunctionName`, as Step Functions runs them. A task of
// any other service fails the execution with a reason naming it. aws-local-stepfunctions calls these handlers (its
// `taskResourceLocalHandlers`, by state name) with the state's effective input.
// https://docs.aws.amazon.com/step-functions/latest/dg/connect-lambda.html
import { isServiceError } from '../../domain/serviceErrors.js';
import type { InvokeRequest, InvokeResult } from '../invoke.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type TaskHandler = (input: Json) => Promise<Json>;
export type Invoke = (req: InvokeRequest) => Promise<InvokeResult>;

interface Where {
  account: string;
  region: string;
}

const FUNCTION_ARN = /^arn:aws[a-z-]*:lambda:[^:]*:\d{12}:function:[^:]+(:[^:]+)?$/;
const LAMBDA_INVOKE = /^arn:aws[a-z-]*:states:::lambda:invoke$/;

/** An error as the state machine sees it: `Error` is the name its Retry and Catch match, `Cause` the message. */
function taskError(name: string, cause: string): Error {
  const err = new Error(cause);
  err.name = name;
  return err;
}

const parsed = (payload: Buffer): Json => {
  const text = payload.toString('utf8');
  if (text === '') return null;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
};

/**
 * Runs one invocation; a function error becomes the task's error as Step Functions reports it: `Error` the function's
 * `errorType`, `Cause` its whole error document (the CDK's timeout handler parses it back). Lambda's own refusal
 * (no such function) is `Lambda.<code>`.
 */
async function invokeOrThrow(invoke: Invoke, req: InvokeRequest): Promise<InvokeResult> {
  let result: InvokeResult;
  try {
    result = await invoke(req);
  } catch (err) {
    if (isServiceError(err)) throw taskError(`Lambda.${err.code}`, err.message);
    throw err;
  }
  if (result.functionError) {
    const text = result.payload.toString('utf8');
    const doc = parsed(result.payload);
    const type = doc && typeof doc === 'object' && !Array.isArray(doc) ? doc.errorType : undefined;
    throw taskError(typeof type === 'string' ? type : 'Lambda.Unknown', text);
  }
  return result;
}

function handlerFor(resource: string, where: Where, invoke: Invoke): TaskHandler {
  if (FUNCTION_ARN.test(resource)) {
    return async (input) =>
      parsed(
        (await invokeOrThrow(invoke, { ...where, functionName: resource, payload: JSON.stringify(input ?? {}) }))
          .payload,
      );
  }
  if (LAMBDA_INVOKE.test(resource)) {
    return async (input) => {
      const p = (input && typeof input === 'object' && !Array.isArray(input) ? input : {}) as Record<string, Json>;
      const payload = 'Payload' in p ? JSON.stringify(p.Payload) : '{}';
      const result = await invokeOrThrow(invoke, {
        ...where,
        functionName: String(p.FunctionName ?? ''),
        qualifier: typeof p.Qualifier === 'string' ? p.Qualifier : undefined,
        payload,
        invocationType: p.InvocationType === 'Event' || p.InvocationType === 'DryRun' ? p.InvocationType : undefined,
      });
      return {
        ExecutedVersion: result.executedVersion ?? '$LATEST',
        Payload: parsed(result.payload),
        SdkHttpMetadata: { HttpStatusCode: result.statusCode },
        SdkResponseMetadata: { RequestId: result.requestId },
        StatusCode: result.statusCode,
      };
    };
  }
  return async () => {
    throw taskError(
      'States.TaskFailed',
      `cfn-local runs only Lambda tasks (a function ARN or arn:aws:states:::lambda:invoke), not ${resource}`,
    );
  };
}

export type States = Record<string, Record<string, unknown>>;

/** Every Task state, in the machine and in its Parallel branches and Map iterators, by state name. */
function tasksOf(states: States | undefined, into: Record<string, string>) {
  for (const [name, state] of Object.entries(states ?? {})) {
    if (state.Type === 'Task') into[name] = String(state.Resource ?? '');
    for (const branch of (state.Branches as { States: States }[] | undefined) ?? []) tasksOf(branch.States, into);
    const inner = (state.ItemProcessor ?? state.Iterator) as { States: States } | undefined;
    if (inner) tasksOf(inner.States, into);
  }
  return into;
}

// The longest timer Node.js keeps (2^31 - 1 ms): AWS sets no Task timeout unless TimeoutSeconds says one, while the
// interpreter's default is the States Language's 60 s, which would cut a Lambda task whose Timeout is longer.
const NO_TIMEOUT_S = Math.floor((2 ** 31 - 1) / 1000);

/** The definition with AWS's "no timeout" on every Task state that names none (nested branches and maps too). */
export function withTaskTimeouts(states: States | undefined): States {
  return Object.fromEntries(
    Object.entries(states ?? {}).map(([name, state]) => {
      const copy: Record<string, unknown> = { ...state };
      if (copy.Type === 'Task' && copy.TimeoutSeconds === undefined && copy.TimeoutSecondsPath === undefined)
        copy.TimeoutSeconds = NO_TIMEOUT_S;
      if (Array.isArray(copy.Branches))
        copy.Branches = (copy.Branches as { States: States }[]).map((b) => ({
          ...b,
          States: withTaskTimeouts(b.States),
        }));
      for (const key of ['ItemProcessor', 'Iterator']) {
        const inner = copy[key] as { States: States } | undefined;
        if (inner) copy[key] = { ...inner, States: withTaskTimeouts(inner.States) };
      }
      return [name, copy];
    }),
  );
}

/** The local handler of each Task state of the definition. */
export function lambdaTaskHandlers(
  definition: { States: States },
  where: Where,
  invoke: Invoke,
): Record<string, TaskHandler> {
  return Object.fromEntries(
    Object.entries(tasksOf(definition.States, {})).map(([name, resource]) => [
      name,
      handlerFor(resource, where, invoke),
    ]),
  );
}
