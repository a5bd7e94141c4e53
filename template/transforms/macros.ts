// Macros: a template's Transform entry or Fn::Transform naming an AWS::CloudFormation::Macro of the account calls
// the macro's Lambda function (in cfn-local's runtime, or through --lambda-endpoint) with AWS's event, and
// reads its response as AWS does: `status` must be `success`, and `fragment` replaces what was sent.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/macros-how-it-works.html
import { randomUUID } from 'node:crypto';
import type { TransformOutcome, TransformRequest } from './pending.js';
import type { LambdaInvoker } from '../../resources/provider.js';

type MacroRequest = Extract<TransformRequest, { kind: 'macro' }>;

/** AWS's texts for a macro that failed or answered something CloudFormation cannot use. */
export const MACRO_REASONS = {
  failedWith: (id: string, message: string) => `Transform ${id} failed with: ${message}`,
  failedWithout: (id: string) => `Transform ${id} failed without an error message.`,
  malformed: (id: string) => `Received malformed response from transform ${id}`,
  noEndpoint: (id: string, fn: string) =>
    `Transform ${id} failed with: cfn-local runs no function code (--no-lambda), so the macro's function ${fn} was not invoked; start it without --no-lambda, or with --lambda-endpoint (CFN_LOCAL_LAMBDA_ENDPOINT).`,
  unreachable: (id: string, url: string, why: string) =>
    `Transform ${id} failed with: cfn-local could not invoke ${url}: ${why}`,
};

/** The event AWS sends a macro's function. */
export function macroEvent(req: MacroRequest, requestId: string): Record<string, unknown> {
  return {
    region: req.region,
    accountId: req.account,
    fragment: req.fragment,
    transformId: req.transformId,
    params: req.params,
    requestId,
    templateParameterValues: req.parameters,
  };
}

/** Reads a macro function's answer (the Invoke response body) into the fragment or AWS's failure text. */
export function readMacroResponse(
  id: string,
  requestId: string,
  body: string,
  functionError: string | null,
): TransformOutcome {
  let reply: unknown;
  try {
    reply = JSON.parse(body);
  } catch {
    return { failure: MACRO_REASONS.malformed(id) };
  }
  const r = (reply ?? {}) as Record<string, unknown>;
  if (functionError) {
    return {
      failure:
        typeof r.errorMessage === 'string'
          ? MACRO_REASONS.failedWith(id, r.errorMessage)
          : MACRO_REASONS.failedWithout(id),
    };
  }
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply) || typeof r.status !== 'string')
    return { failure: MACRO_REASONS.malformed(id) };
  if (r.status !== 'success') {
    return {
      failure:
        typeof r.errorMessage === 'string' && r.errorMessage
          ? MACRO_REASONS.failedWith(id, r.errorMessage)
          : MACRO_REASONS.failedWithout(id),
    };
  }
  if (r.requestId !== requestId || r.fragment === undefined) return { failure: MACRO_REASONS.malformed(id) };
  return { fragment: r.fragment };
}

/** Invokes the macro's function synchronously (RequestResponse) and reads its answer. */
export async function invokeMacro(
  req: MacroRequest,
  functionName: string,
  lambdaEndpoint: string | undefined,
  lambda?: LambdaInvoker,
): Promise<TransformOutcome> {
  const id = req.transformId;
  if (!lambdaEndpoint && lambda) return invokeLocally(req, functionName, lambda);
  if (!lambdaEndpoint) return { failure: MACRO_REASONS.noEndpoint(id, functionName) };
  const url = `${lambdaEndpoint.replace(/\/$/, '')}/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`;
  const requestId = randomUUID();
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'RequestResponse' },
      body: JSON.stringify(macroEvent(req, requestId)),
    });
  } catch (err) {
    return { failure: MACRO_REASONS.unreachable(id, url, (err as Error).message) };
  }
  const body = await res.text();
  if (!res.ok) return { failure: MACRO_REASONS.unreachable(id, url, `HTTP ${res.status} ${body.slice(0, 200)}`) };
  return readMacroResponse(id, requestId, body, res.headers.get('x-amz-function-error'));
}

/** The macro's function run by cfn-local's runtime (the function of the macro's own account and region). */
async function invokeLocally(
  req: MacroRequest,
  functionName: string,
  lambda: LambdaInvoker,
): Promise<TransformOutcome> {
  const requestId = randomUUID();
  try {
    const answer = await lambda.invoke({
      account: req.account,
      region: req.region,
      functionName,
      payload: JSON.stringify(macroEvent(req, requestId)),
    });
    return readMacroResponse(req.transformId, requestId, answer.payload.toString('utf8'), answer.functionError ?? null);
  } catch (err) {
    return { failure: MACRO_REASONS.failedWith(req.transformId, (err as Error).message) };
  }
}
