// server/services: the SSM entry of SERVICES: awsJson 1.1 (`X-Amz-Target: AmazonSSM.<Action>`), dispatched to
// handlers/ssm's SSM_ACTIONS, answered in SSM's JSON envelope.
import { DECODED_SSM_ACTIONS } from '../../handlers/ssm/index.js';
import { ServiceError, validationText } from '../../domain/serviceErrors.js';
import { serviceModel } from '../protocol/serviceModel.js';
import { readJsonValue, writeJsonValue } from '../protocol/jsonCodec.js';
import { readText } from './body.js';
import { asServiceError, notServed, sendJsonError } from './jsonErrors.js';
import type { AwsService, ServiceRequest } from './types.js';

const CONTENT_TYPE = 'application/x-amz-json-1.1';
const TARGET_PREFIX = 'AmazonSSM';

function decode(action: string, body: string): Record<string, unknown> {
  const model = serviceModel('ssm');
  const op = model.operation(action)!;
  if (op.input === null) return {};
  let parsed: unknown;
  try {
    parsed = body.trim() === '' ? {} : JSON.parse(body);
  } catch {
    throw new ServiceError('SerializationException', 'Start of structure or map found where not expected.');
  }
  const problems: string[] = [];
  const input = readJsonValue(model, op.input, parsed, '', problems) as Record<string, unknown> | undefined;
  if (problems.length > 0) throw new ServiceError('ValidationException', validationText(problems));
  return input ?? {};
}

function actionOf(target: unknown): string {
  const text = typeof target === 'string' ? target : '';
  const dot = text.lastIndexOf('.');
  const action = dot === -1 || text.slice(0, dot) !== TARGET_PREFIX ? undefined : text.slice(dot + 1);
  if (!action || !serviceModel('ssm').operation(action)) {
    throw new ServiceError('UnknownOperationException', '');
  }
  return action;
}

async function handle({ req, reply, body, caller, requestId, deps }: ServiceRequest) {
  reply.header('x-amzn-RequestId', requestId);
  try {
    const text = await readText(body);
    const action = actionOf(req.headers['x-amz-target']);
    const handler = DECODED_SSM_ACTIONS[action];
    if (!handler) throw notServed('SSM', action);
    const output = handler({ store: deps.store, caller, now: new Date() }, decode(action, text));
    const op = serviceModel('ssm').operation(action)!;
    return reply
      .type(CONTENT_TYPE)
      .send(op.output === null ? '{}' : JSON.stringify(writeJsonValue(serviceModel('ssm'), op.output, output)));
  } catch (err) {
    return sendJsonError(reply, asServiceError(req, err, 'InternalServerError'), CONTENT_TYPE, serviceModel('ssm'));
  }
}

export const SSM: AwsService = {
  signingName: 'ssm',
  targetPrefixes: [TARGET_PREFIX],
  handle,
};
