// Custom resources (`Custom::*`, AWS::CloudFormation::CustomResource) over the real provider protocol: the request
// goes to the ServiceToken (an http(s) URL gets a POST; a Lambda ARN is invoked asynchronously, as CloudFormation
// invokes it, by cfn-local's runtime or through --lambda-endpoint), and the action waits for the handler's PUT to the
// ResponseURL, which points back at cfn-local (server/routes/signalRoutes.ts; over HTTPS for a function it runs). https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/crpg-ref.html
import { randomUUID } from 'node:crypto';
import { genericProvider } from './genericProvider.js';
import { endpointOf } from './cloudformation.js';
import { RESPONSE_EXPIRES_S, presign } from './presign.js';
import { randomSuffix } from './names.js';
import type { Deleted, Provider, ProviderResult, Refusal, ResourceRequest, WorldAccess } from './provider.js';
import { messageOf } from '../domain/values.js';

type RequestType = 'Create' | 'Update' | 'Delete';

export const RESPONSE_PATH = '/_cfn-local/custom-resource-response/';
/** A response body longer than this is refused, as on AWS. */
export const MAX_RESPONSE_BYTES = 4096;
/** Markers the response route leaves instead of a handler's body. */
export const DELIVERY_FAILED = '__cfnLocalDeliveryFailed';
export const TOO_LONG = '__cfnLocalTooLong';

// ResourceStatusReason texts seen in real stack events (issues corpus: aws-samples/…/issues/2 for the timeout,
// awslabs/aws-video-transcriber#32 for FAILED).
export const CUSTOM_REASONS = {
  failed: (reason: unknown, requestId: string) =>
    `Received response status [FAILED] from custom resource. Message returned: ${String(reason ?? '')} (RequestId: ${requestId})`,
  timeout: (requestId: string) =>
    `CloudFormation did not receive a response from your Custom Resource. Please check your logs for requestId [${requestId}]. If you are using the Python cfn-response module, you may need to update your Lambda function code so that CloudFormation can attach the updated version.`,
  tooLong: 'Response object is too long.',
  invalidPhysicalId: 'Invalid PhysicalResourceId',
  serviceTokenChanged: 'Modifying service token is not allowed.',
  invalidToken: (token: string) => `Invalid service token: ${token}`,
  undeliverable: (target: string, why: string) => `Failed to deliver the custom resource request to ${target}: ${why}`,
  noLambda: (token: string) =>
    `cfn-local runs no function code (--no-lambda), so the custom resource's function ${token} was not invoked: start cfn-local without --no-lambda or CFN_LOCAL_LAMBDA=off, or with --lambda-endpoint <url>.`,
};

// What the action reports when the operation stops waiting (a sibling failed, the account was reset).
const CANCELLED: Record<RequestType, string> = {
  Create: 'Resource creation cancelled',
  Update: 'Resource update cancelled',
  Delete: 'Resource deletion cancelled',
};

const LAMBDA_ARN = /^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:[A-Za-z0-9_-]+(:[A-Za-z0-9$_-]+)?$/;

// CloudFormation hands the handler every scalar as a string: `Size: 5` arrives as "5", `Enabled: true` as "true".
export function stringifyScalars(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stringifyScalars);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stringifyScalars(v)]));
  }
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

function responseUrl(req: ResourceRequest, requestId: string, base?: string): string {
  const url = `${base ?? endpointOf(req)}${RESPONSE_PATH}${encodeURIComponent(`${req.stackId}|${req.logicalId}|${requestId}`)}`;
  const env = req.env;
  if (!env?.signingKey) return url;
  const expires = Math.max(RESPONSE_EXPIRES_S, Math.ceil(env.customResourceTimeoutMs / 1000));
  return presign(url, env.signingKey, new Date(), expires, req.region);
}

function requestBody(
  req: ResourceRequest,
  type: RequestType,
  requestId: string,
  base?: string,
): Record<string, unknown> {
  return {
    RequestType: type,
    ServiceToken: req.properties.ServiceToken,
    ResponseURL: responseUrl(req, requestId, base),
    StackId: req.stackId,
    RequestId: requestId,
    LogicalResourceId: req.logicalId,
    ...(type === 'Create' ? {} : { PhysicalResourceId: req.physicalId }),
    ResourceType: req.type,
    ResourceProperties: stringifyScalars(req.properties),
    ...(type === 'Update' ? { OldResourceProperties: stringifyScalars(req.previousProperties ?? {}) } : {}),
  };
}

interface Target {
  url?: string;
  /** A function cfn-local's runtime invokes. */
  lambda?: string;
  error?: string;
}

/** An http(s) ServiceToken: POSTed to with --allow-url-service-tokens, else refused with AWS's text (and a hint). */
function urlTarget(req: ResourceRequest, token: string): Target {
  if (req.env?.allowUrlServiceTokens) return { url: token };
  req.env?.log.warn(
    { serviceToken: token, logicalId: req.logicalId },
    'custom resource: an http(s) ServiceToken is refused, as AWS refuses it; start cfn-local with --allow-url-service-tokens to POST to it',
  );
  return { error: CUSTOM_REASONS.invalidToken(token) };
}

/** Where the request goes: an http(s) URL, a Lambda function, or nowhere (answered at once). */
function targetOf(req: ResourceRequest): Target {
  const token = String(req.properties.ServiceToken ?? '');
  // AWS takes only SNS topic and Lambda function ARNs: a URL would let any template make the server POST anywhere.
  if (/^https?:\/\//.test(token)) return urlTarget(req, token);
  if (LAMBDA_ARN.test(token) && req.env?.lambdaEndpoint) {
    const base = req.env.lambdaEndpoint.replace(/\/$/, '');
    return { url: `${base}/2015-03-31/functions/${encodeURIComponent(token)}/invocations` };
  }
  if (LAMBDA_ARN.test(token)) return req.env?.lambda ? { lambda: token } : { error: CUSTOM_REASONS.noLambda(token) };
  if (token.startsWith('arn:')) return {};
  return { error: CUSTOM_REASONS.invalidToken(token) };
}

interface Answer {
  status: 'SUCCESS' | 'FAILED';
  physicalId?: string;
  data: Record<string, unknown>;
  noEcho: boolean;
}

/** Sends the request and waits for the handler's response; a refusal when it fails, times out or is cut short. */
async function exchange(req: ResourceRequest, type: RequestType): Promise<Answer | Refusal> {
  const env = req.env!;
  const target = targetOf(req);
  if (target.error) return { ok: false, code: 'InvalidRequest', reason: target.error };
  if (!target.url && !target.lambda) {
    env.log.info(
      { serviceToken: req.properties.ServiceToken, logicalId: req.logicalId, type },
      'custom resource: no endpoint for this ServiceToken; answering SUCCESS with empty Data',
    );
    return {
      status: 'SUCCESS',
      physicalId: req.physicalId ?? `${req.stackName}-${req.logicalId}-${randomSuffix()}`,
      data: {},
      noEcho: false,
    };
  }
  // A function cfn-local runs gets an HTTPS ResponseURL, as AWS gives: the CDK's handlers PUT with https.request.
  const base = target.lambda ? await env.lambda!.httpsBase() : undefined;
  const { requestId, since } = send(req, type, target, base);
  const deadline = since + timeoutMs(req);
  try {
    for (;;) {
      const response = env.signals.request(requestId)?.response;
      if (response) return readResponse(response, requestId);
      const outcome = await env.signals.wait(requestId, deadline, req.signal);
      if (outcome === 'aborted' && !env.signals.request(requestId)?.response)
        return { ok: false, code: 'Cancelled', reason: CANCELLED[type] };
      if (outcome === 'timeout') return { ok: false, code: 'Timeout', reason: CUSTOM_REASONS.timeout(requestId) };
    }
  } finally {
    env.signals.close(requestId, 'answered or timed out');
  }
}

/**
 * Sends the request, or takes over the one of this resource and RequestType that was in flight when the server
 * stopped (AWS sends one request per action: a restart does not send another; the handler's reply to the first,
 * at its ResponseURL, is what the action waits for, within the first request's deadline).
 */
function send(
  req: ResourceRequest,
  type: RequestType,
  target: Target,
  base?: string,
): { requestId: string; since: number } {
  const env = req.env!;
  const adopted = env.signals.adopt(req.stackId, req.logicalId, type);
  const pending = adopted === undefined ? undefined : env.signals.request(adopted);
  if (adopted !== undefined && pending) return { requestId: adopted, since: pending.since };
  const requestId = randomUUID();
  const since = env.timers.now();
  env.signals.open(requestId, { stackId: req.stackId, logicalId: req.logicalId, requestType: type, since });
  const body = requestBody(req, type, requestId, base);
  if (target.lambda) invokeFunction(req, target.lambda, body, requestId);
  else deliver(req, target.url!, body, requestId);
  return { requestId, since };
}

/** CloudFormation invokes the function asynchronously (InvocationType Event) and waits for the ResponseURL's PUT. */
function invokeFunction(req: ResourceRequest, arn: string, body: Record<string, unknown>, requestId: string): void {
  const env = req.env!;
  const [, , , region, account] = arn.split(':');
  env
    .lambda!.invoke({ account, region, functionName: arn, payload: JSON.stringify(body), invocationType: 'Event' })
    .catch((err: unknown) => {
      env.log.warn({ arn, requestId, err: messageOf(err) }, 'custom resource: function not invoked');
      env.signals.respond(requestId, { [DELIVERY_FAILED]: CUSTOM_REASONS.undeliverable(arn, messageOf(err)) });
    });
}

function deliver(req: ResourceRequest, url: string, body: Record<string, unknown>, requestId: string): void {
  const env = req.env!;
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    .then(async (res) => {
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
    })
    .catch((err: unknown) => {
      env.log.warn({ url, requestId, err: messageOf(err) }, 'custom resource: request not delivered');
      env.signals.respond(requestId, { [DELIVERY_FAILED]: CUSTOM_REASONS.undeliverable(url, messageOf(err)) });
    });
}

// The configured timeout (CFN_LOCAL_CUSTOM_RESOURCE_TIMEOUT, AWS's hour by default), shortened by ServiceTimeout.
function timeoutMs(req: ResourceRequest): number {
  const configured = req.env!.customResourceTimeoutMs;
  const serviceTimeout = Number(req.properties.ServiceTimeout);
  return Number.isFinite(serviceTimeout) && serviceTimeout > 0
    ? Math.min(configured, serviceTimeout * 1000)
    : configured;
}

function readResponse(response: Record<string, unknown>, requestId: string): Answer | Refusal {
  if (typeof response[DELIVERY_FAILED] === 'string')
    return { ok: false, code: 'InvalidRequest', reason: response[DELIVERY_FAILED] };
  if (response[TOO_LONG]) return { ok: false, code: 'InvalidRequest', reason: CUSTOM_REASONS.tooLong };
  if (response.Status === 'FAILED') {
    const physicalId =
      typeof response.PhysicalResourceId === 'string' && response.PhysicalResourceId
        ? response.PhysicalResourceId
        : undefined;
    return {
      ok: false,
      code: 'GeneralServiceException',
      reason: CUSTOM_REASONS.failed(response.Reason, requestId),
      physicalId,
    };
  }
  const data =
    response.Data && typeof response.Data === 'object' && !Array.isArray(response.Data)
      ? (response.Data as Record<string, unknown>)
      : {};
  const physicalId =
    typeof response.PhysicalResourceId === 'string' && response.PhysicalResourceId !== ''
      ? response.PhysicalResourceId
      : undefined;
  return { status: 'SUCCESS', physicalId, data, noEcho: response.NoEcho === true || response.NoEcho === 'true' };
}

async function createOrUpdate(
  world: WorldAccess,
  req: ResourceRequest,
  type: 'Create' | 'Update',
): Promise<ProviderResult> {
  // Compared with the resource as it stands, so that the rollback of a refused update (back to the old token) goes through.
  const standing = type === 'Update' && req.physicalId ? world.get(req.type, req.physicalId) : undefined;
  const old = req.previousProperties ?? standing?.properties;
  if (
    type === 'Update' &&
    String((standing?.properties ?? old)?.ServiceToken) !== String(req.properties.ServiceToken)
  ) {
    return { ok: false, code: 'InvalidRequest', reason: CUSTOM_REASONS.serviceTokenChanged };
  }
  const answer = await exchange({ ...req, previousProperties: old }, type);
  // Only a failed Create leaves its id for the rollback's Delete; a failed Update keeps the standing resource's.
  if ('ok' in answer) return type === 'Create' ? answer : { ...answer, physicalId: undefined };
  const physicalId = answer.physicalId ?? (type === 'Update' ? req.physicalId : undefined);
  if (!physicalId) return { ok: false, code: 'InvalidRequest', reason: CUSTOM_REASONS.invalidPhysicalId };
  world.put({
    account: req.account,
    region: req.region,
    type: req.type,
    physicalId,
    stackId: req.stackId,
    logicalId: req.logicalId,
    createdAt: world.now(),
    properties: req.properties,
    attributes: answer.data,
    state: { noEcho: answer.noEcho } as never,
  });
  return { ok: true, physicalId, ref: physicalId, attributes: answer.data };
}

export const customResourceProvider: Provider = {
  ...genericProvider,
  create: (world, req) => (req.env ? createOrUpdate(world, req, 'Create') : genericProvider.create(world, req)),
  update: (world, req) => (req.env ? createOrUpdate(world, req, 'Update') : genericProvider.update(world, req)),
  async delete(world, req): Promise<Deleted> {
    if (!req.env) return genericProvider.delete(world, req);
    const answer = await exchange(req, 'Delete');
    if ('ok' in answer) return answer;
    if (req.physicalId && world.get(req.type, req.physicalId)) world.remove(req.type, req.physicalId);
    return { ok: true };
  },
  // A new ServiceToken is refused at update time rather than replacing; any other change is sent as an Update.
  replacementNeeded: () => [],
};
