// server/services: the Cloud Control entry of SERVICES: awsJson 1.0 (`X-Amz-Target: CloudApiService.<Action>`, signed
// `cloudcontrolapi`), dispatched to handlers/cloudcontrol's CLOUD_CONTROL_ACTIONS, answered in its JSON envelope.
import { CLOUD_CONTROL_ACTIONS } from '../../handlers/cloudcontrol/index.js';
import { rowOf, NOT_IMPLEMENTED } from '../../handlers/actionTable.js';
import { wireModel } from '../protocol/model.js';
import { encodeJsonResult } from '../protocol/json.js';
import { decodeJsonInput, jsonActionOf } from './awsJson.js';
import { readText } from './body.js';
import { asServiceError, notServed, sendJsonError } from './jsonErrors.js';
import type { AwsService, ServiceRequest } from './types.js';
import { noteCall } from '../requestLog.js';

const CONTENT_TYPE = 'application/x-amz-json-1.0';
const TARGET_PREFIX = 'CloudApiService';

async function handle({ req, reply, body, caller, requestId, deps }: ServiceRequest) {
  reply.header('x-amzn-RequestId', requestId);
  const model = wireModel('cloudcontrol');
  try {
    const text = await readText(body);
    const action = jsonActionOf('cloudcontrol', TARGET_PREFIX, req.headers['x-amz-target']);
    noteCall(req, { action });
    const handler = rowOf(CLOUD_CONTROL_ACTIONS, action);
    if (handler === undefined || handler === NOT_IMPLEMENTED) throw notServed('Cloud Control', action);
    const env = deps.engine.deps.providerEnv;
    const hooks = deps.engine.deps.hooks;
    const ctx = { store: deps.store, faults: deps.faults, caller, now: () => new Date(), env, hooks };
    const output = await handler(ctx, decodeJsonInput('cloudcontrol', action, text));
    return reply.type(CONTENT_TYPE).send(encodeJsonResult(action, output, model));
  } catch (err) {
    return sendJsonError(reply, asServiceError(req, err, 'GeneralServiceException'), CONTENT_TYPE, model);
  }
}

export const CLOUD_CONTROL: AwsService = {
  signingName: 'cloudcontrolapi',
  targetPrefixes: [TARGET_PREFIX],
  handle,
};
