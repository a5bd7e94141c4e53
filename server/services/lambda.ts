// server/services: the Lambda entry of SERVICES: restJson1 on `/2015-03-31/…` (the model's URI templates),
// dispatched to handlers/lambda's LAMBDA_ACTIONS; Invoke runs the function (runtime/index.ts), or is forwarded to
// --lambda-endpoint when one is set.
import type { Readable } from 'node:stream';
import { lambdaHandlerOf } from '../../handlers/lambda/index.js';
import { findFunction, type LambdaContext } from '../../handlers/lambda/functions.js';
import { ServiceError, validationText } from '../../domain/serviceErrors.js';
import { NOT_IMPLEMENTED } from '../../handlers/actionTable.js';
import { wireModel } from '../protocol/model.js';
import { decodeRestInput, encodeRestOutput, matchOperation } from '../protocol/restJson.js';
import { asServiceError, notServed, sendJsonError } from './jsonErrors.js';
import type { AwsService, RoutingFacts, ServiceRequest } from './types.js';
import type { LambdaRuntime } from '../../runtime/index.js';
import { noteCall } from '../requestLog.js';

const CONTENT_TYPE = 'application/json';
// The largest request Lambda takes: a 50 MB zip sent base64-encoded in UpdateFunctionCode's JSON body.
const BODY_LIMIT = 70 * 1024 * 1024;

async function readBuffer(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT)
      throw new ServiceError(
        'RequestTooLargeException',
        'Request must be smaller than 70167211 bytes for the UpdateFunctionCode operation',
        413,
        { Type: 'User' },
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Runs an Invoke in cfn-local's runtime, answering Lambda's status, headers and payload. */
async function runLocally(
  lambda: LambdaRuntime,
  ctx: LambdaContext,
  input: Record<string, unknown>,
  request: ServiceRequest,
) {
  const result = await lambda.invoke({
    account: ctx.caller.account,
    region: ctx.caller.region,
    functionName: String(input.FunctionName),
    qualifier: input.Qualifier as string | undefined,
    payload: input.Payload as Buffer | undefined,
    invocationType: input.InvocationType as 'RequestResponse' | 'Event' | 'DryRun' | undefined,
    logType: input.LogType as 'None' | 'Tail' | undefined,
    clientContext: input.ClientContext as string | undefined,
  });
  const { reply } = request;
  if (result.functionError) reply.header('X-Amz-Function-Error', result.functionError);
  if (result.logTail !== undefined) reply.header('X-Amz-Log-Result', result.logTail);
  if (result.executedVersion) reply.header('X-Amz-Executed-Version', result.executedVersion);
  if (result.statusCode === 200) reply.type(CONTENT_TYPE);
  return reply.status(result.statusCode).send(result.payload);
}

/** Invoke: forwarded to --lambda-endpoint when set, else run here, else (--no-lambda) refused. */
async function invoke(ctx: LambdaContext, input: Record<string, unknown>, request: ServiceRequest) {
  const { row, qualifier } = findFunction(ctx, String(input.FunctionName));
  const lambda = request.deps.lambda;
  if (!ctx.lambdaEndpoint && lambda) return runLocally(lambda, ctx, input, request);
  if (!ctx.lambdaEndpoint) {
    throw new ServiceError(
      'NotImplemented',
      `cfn-local runs no function code (--no-lambda): start it without --no-lambda or CFN_LOCAL_LAMBDA=off, or with --lambda-endpoint <url> (a Lambda-compatible endpoint, e.g. \`sam local start-lambda\`) to forward Invoke there. Function: ${row.physicalId}`,
      501,
    );
  }
  const q = (input.Qualifier as string | undefined) ?? qualifier;
  const url = `${ctx.lambdaEndpoint.replace(/\/$/, '')}/2015-03-31/functions/${encodeURIComponent(row.physicalId)}/invocations${q ? `?Qualifier=${encodeURIComponent(q)}` : ''}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const h of ['x-amz-invocation-type', 'x-amz-log-type', 'x-amz-client-context']) {
    const v = request.req.headers[h];
    if (typeof v === 'string') headers[h] = v;
  }
  const answer = await fetch(url, {
    method: 'POST',
    headers,
    body: new Uint8Array((input.Payload as Buffer | undefined) ?? Buffer.alloc(0)),
  });
  for (const h of ['x-amz-function-error', 'x-amz-log-result', 'x-amz-executed-version', 'content-type']) {
    const v = answer.headers.get(h);
    if (v !== null) request.reply.header(h, v);
  }
  return request.reply.status(answer.status).send(Buffer.from(await answer.arrayBuffer()));
}

async function handle(request: ServiceRequest) {
  const { req, reply, body, query, caller, requestId, deps } = request;
  const model = wireModel('lambda');
  reply.header('x-amzn-RequestId', requestId);
  try {
    const url = req.raw.url ?? '/';
    const path = url.split('?')[0];
    const matched = matchOperation(model, req.method, path, query);
    if (!matched) throw new ServiceError('UnknownOperationException', `Unknown operation ${req.method} ${path}`, 404);
    noteCall(req, { action: matched.operation });
    const op = model.operation(matched.operation)!;
    const problems: string[] = [];
    const input = decodeRestInput(
      model,
      op.input!,
      { labels: matched.labels, query, headers: req.headers, body: await readBuffer(body) },
      problems,
    );
    if (problems.length > 0) throw new ServiceError('ValidationException', validationText(problems));
    const ctx: LambdaContext = {
      store: deps.store,
      caller,
      now: new Date(),
      lambdaEndpoint: deps.options.lambdaEndpoint,
    };
    if (matched.operation === 'Invoke') return await invoke(ctx, input, request);
    const handler = lambdaHandlerOf(matched.operation);
    if (handler === undefined || handler === NOT_IMPLEMENTED) throw notServed('Lambda', matched.operation);
    const out = encodeRestOutput(model, op.output, await handler(ctx, input), op.http!.code);
    return reply.status(out.status).headers(out.headers).type(CONTENT_TYPE).send(out.body);
  } catch (err) {
    const error = asServiceError(req, err, 'ServiceException');
    return sendJsonError(reply, error, CONTENT_TYPE, undefined, { 'x-amzn-ErrorType': error.code });
  }
}

/** Unsigned requests on Lambda's paths are Lambda's (`/2015-03-31/functions…`, and the model's other dated roots). */
const claims = (facts: RoutingFacts) =>
  /^\/20\d\d-\d\d-\d\d\/(functions|layers|event-source-mappings|tags|account-settings)/.test(facts.path);

export const LAMBDA: AwsService = {
  signingName: 'lambda',
  claims,
  handle,
};
