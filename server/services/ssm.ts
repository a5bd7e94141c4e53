// server/services: the SSM entry of SERVICES: awsJson 1.1 (`X-Amz-Target: AmazonSSM.<Action>`), dispatched to
// handlers/ssm's SSM_ACTIONS, answered in SSM's JSON envelope.
import { SSM_ACTIONS } from '../../handlers/ssm/index.js';
import { NOT_IMPLEMENTED, rowOf } from '../../handlers/actionTable.js';
import { wireModel } from '../protocol/model.js';
import { encodeJsonResult } from '../protocol/json.js';
import { decodeJsonInput, jsonActionOf } from './awsJson.js';
import { readText } from './body.js';
import { asServiceError, notServed, sendJsonError } from './jsonErrors.js';
import type { AwsService, ServiceRequest } from './types.js';

const CONTENT_TYPE = 'application/x-amz-json-1.1';
const TARGET_PREFIX = 'AmazonSSM';

async function handle({ req, reply, body, caller, requestId, deps }: ServiceRequest) {
  reply.header('x-amzn-RequestId', requestId);
  try {
    const text = await readText(body);
    const action = jsonActionOf('ssm', TARGET_PREFIX, req.headers['x-amz-target']);
    const handler = rowOf(SSM_ACTIONS, action);
    if (handler === undefined || handler === NOT_IMPLEMENTED) throw notServed('SSM', action);
    const output = await handler({ store: deps.store, caller, now: new Date() }, decodeJsonInput('ssm', action, text));
    return reply.type(CONTENT_TYPE).send(encodeJsonResult(action, output, wireModel('ssm')));
  } catch (err) {
    return sendJsonError(reply, asServiceError(req, err, 'InternalServerError'), CONTENT_TYPE, wireModel('ssm'));
  }
}

export const SSM: AwsService = {
  signingName: 'ssm',
  targetPrefixes: [TARGET_PREFIX],
  handle,
};
