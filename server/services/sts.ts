// server/services: the STS entry of SERVICES: awsQuery form bodies, dispatched to handlers/sts's STS_ACTIONS,
// answered in STS's XML envelope (its own namespace), with the caller's identity read from its session token.
import { STS_ACTIONS } from '../../handlers/sts/index.js';
import { NOT_IMPLEMENTED, rowOf } from '../../handlers/actionTable.js';
import { identityOf } from '../../handlers/sts/identity.js';
import { ServiceError } from '../../domain/serviceErrors.js';
import { isAwsError } from '../../domain/errors.js';
import { wireModel } from '../protocol/model.js';
import { decodeInput, decodeQueryBody, encodeResult, escapeXml } from '../protocol/index.js';
import { readText } from './body.js';
import { asServiceError, notServed } from './jsonErrors.js';
import type { AwsService, ServiceRequest } from './types.js';
import { noteCall } from '../requestLog.js';

const VERSION = '2011-06-15';
const XMLNS = `https://sts.amazonaws.com/doc/${VERSION}/`;

function encodeError(err: ServiceError, requestId: string): string {
  return (
    `<ErrorResponse xmlns="${XMLNS}"><Error><Type>${err.type}</Type><Code>${escapeXml(err.code)}</Code>` +
    `<Message>${escapeXml(err.message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`
  );
}

function actionOf(params: Record<string, string>): string {
  const action = params.Action;
  if (!action) throw new ServiceError('MissingAction', 'Missing Action');
  if (!wireModel('sts').operation(action))
    throw new ServiceError('InvalidAction', `Could not find operation ${action} for version ${VERSION}`);
  return action;
}

async function handle({ req, reply, body, query, caller, requestId, deps }: ServiceRequest) {
  reply.header('x-amzn-RequestId', requestId);
  const model = wireModel('sts');
  try {
    const params = { ...query, ...decodeQueryBody(await readText(body)) };
    const action = actionOf(params);
    noteCall(req, { action });
    const handler = rowOf(STS_ACTIONS, action);
    if (handler === undefined || handler === NOT_IMPLEMENTED) throw notServed('STS', action);
    const token = req.headers['x-amz-security-token'] ?? query['X-Amz-Security-Token'];
    const identity = identityOf(caller, typeof token === 'string' ? token : undefined);
    const output = await handler(
      { store: deps.store, caller, identity, now: new Date() },
      decodeInput(action, params, model),
    );
    return reply.type('text/xml').send(encodeResult(action, output, requestId, model));
  } catch (err) {
    const error = isAwsError(err)
      ? new ServiceError(err.code, err.message, err.status)
      : asServiceError(req, err, 'InternalFailure');
    return reply.status(error.status).type('text/xml').send(encodeError(error, requestId));
  }
}

export const STS: AwsService = {
  signingName: 'sts',
  handle,
};
