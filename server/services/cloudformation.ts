// server/services: the CloudFormation entry of SERVICES: awsQuery form bodies (or awsJson with X-Amz-Target) on `/`,
// dispatched to handlers/cloudformation's ACTIONS, answered in CloudFormation's XML (or JSON) envelope.
import { handlerOf } from '../../handlers/cloudformation/index.js';
import { NOT_IMPLEMENTED } from '../../handlers/actionTable.js';
import type { HandlerContext } from '../../handlers/cloudformation/context.js';
import {
  type AwsError,
  awsError,
  internalFailure,
  invalidAction,
  isAwsError,
  missingAction,
  notImplemented,
} from '../../domain/errors.js';
import {
  JSON_CONTENT_TYPE,
  JSON_TARGET_PREFIX,
  actionFromTarget,
  decodeInput,
  decodeJsonInput,
  decodeQueryBody,
  encodeError,
  encodeJsonError,
  encodeJsonResult,
  encodeResult,
} from '../protocol/index.js';
import { BodyTooLarge, readText } from './body.js';
import type { AwsService, ServiceRequest } from './types.js';
import { noteCall, stackName } from '../requestLog.js';

async function handle({ req, reply, body: stream, query, caller, requestId, deps }: ServiceRequest) {
  const target = req.headers['x-amz-target'];
  const json = typeof target === 'string';
  reply.header('x-amzn-RequestId', requestId);
  try {
    const body = await readText(stream);
    const params = json ? {} : { ...query, ...decodeQueryBody(body) };
    const action = json ? actionFromTarget(target) : params.Action;
    if (!action) throw missingAction();
    noteCall(req, { action });
    const handler = handlerOf(action);
    if (handler === undefined) throw invalidAction(action);
    if (handler === NOT_IMPLEMENTED) throw notImplemented(action);
    const input = json ? decodeJsonInput(action, body) : decodeInput(action, params);
    noteCall(req, { resource: stackName((input as { StackName?: unknown }).StackName) });
    const ctx: HandlerContext = { store: deps.store, engine: deps.engine, faults: deps.faults, caller, requestId };
    const output = await handler(ctx, input);
    if (json) return reply.type(JSON_CONTENT_TYPE).send(encodeJsonResult(action, output));
    return reply.type('text/xml').send(encodeResult(action, output, requestId));
  } catch (err) {
    // AWS's own 413 is a body the AWS CLI cannot parse (aws/aws-cli#2378); clients here get the error envelope.
    const tooLarge = err instanceof BodyTooLarge ? awsError('RequestEntityTooLarge', err.message) : undefined;
    const awsErr: AwsError = tooLarge ?? (isAwsError(err) ? err : internalFailure());
    if (!isAwsError(err) && !tooLarge) req.log.error({ err }, 'unexpected failure');
    if (json) {
      const e = encodeJsonError(awsErr);
      return reply.status(e.status).headers(e.headers).send(e.body);
    }
    return reply.status(awsErr.status).type('text/xml').send(encodeError(awsErr, requestId));
  }
}

export const CLOUDFORMATION: AwsService = {
  signingName: 'cloudformation',
  targetPrefixes: [JSON_TARGET_PREFIX],
  handle,
};
