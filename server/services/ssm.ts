// server/services: the SSM entry of SERVICES: awsJson 1.1 (`X-Amz-Target: AmazonSSM.<Action>`), dispatched to
// handlers/ssm's SSM_ACTIONS, answered in SSM's JSON envelope.
import { SSM_ACTIONS } from '../../handlers/ssm/index.js';
import { NOT_IMPLEMENTED, rowOf } from '../../handlers/actionTable.js';
import { ServiceError, validationText } from '../../domain/serviceErrors.js';
import { wireModel } from '../protocol/model.js';
import { MalformedJson, encodeJsonResult, readJsonInput } from '../protocol/json.js';
import { readText } from './body.js';
import { asServiceError, notServed, sendJsonError } from './jsonErrors.js';
import type { AwsService, ServiceRequest } from './types.js';

const CONTENT_TYPE = 'application/x-amz-json-1.1';
const TARGET_PREFIX = 'AmazonSSM';

function decode(action: string, body: string): Record<string, unknown> {
  try {
    const { input, problems } = readJsonInput(wireModel('ssm'), action, body);
    if (problems.length > 0) throw new ServiceError('ValidationException', validationText(problems));
    return input;
  } catch (err) {
    if (err instanceof MalformedJson)
      throw new ServiceError('SerializationException', 'Start of structure or map found where not expected.');
    throw err;
  }
}

function actionOf(target: unknown): string {
  const text = typeof target === 'string' ? target : '';
  const dot = text.lastIndexOf('.');
  const action = dot === -1 || text.slice(0, dot) !== TARGET_PREFIX ? undefined : text.slice(dot + 1);
  if (!action || !wireModel('ssm').operation(action)) {
    throw new ServiceError('UnknownOperationException', '');
  }
  return action;
}

async function handle({ req, reply, body, caller, requestId, deps }: ServiceRequest) {
  reply.header('x-amzn-RequestId', requestId);
  try {
    const text = await readText(body);
    const action = actionOf(req.headers['x-amz-target']);
    const handler = rowOf(SSM_ACTIONS, action);
    if (handler === undefined || handler === NOT_IMPLEMENTED) throw notServed('SSM', action);
    const output = await handler({ store: deps.store, caller, now: new Date() }, decode(action, text));
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
