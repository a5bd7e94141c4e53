// server/services: the Step Functions entry of SERVICES: awsJson 1.0 (`X-Amz-Target: AWSStepFunctions.<Action>`),
// dispatched to handlers/sfn's SFN_ACTIONS. Executions of the account's state machines run here (their Lambda tasks
// in cfn-local's runtime). With --backend, whatever is not such an execution (CreateStateMachine, an ARN the world
// does not hold, …) is forwarded to the backend as it came, as any service cfn-local does not serve is.
import { Readable } from 'node:stream';
import { SFN_ACTIONS, stateMachineRow, type SfnContext } from '../../handlers/sfn/index.js';
import { NOT_IMPLEMENTED, rowOf } from '../../handlers/actionTable.js';
import { wireModel } from '../protocol/model.js';
import { encodeJsonResult } from '../protocol/json.js';
import { decodeJsonInput, jsonActionOf } from './awsJson.js';
import { readText } from './body.js';
import { asServiceError, notServed, sendJsonError } from './jsonErrors.js';
import { forward } from '../backend/proxy.js';
import { answerUnserved, unservedMessage } from '../backend/unserved.js';
import type { AwsService, ServiceRequest } from './types.js';
import type { StepFunctionsRunner } from '../../runtime/stepFunctions/executions.js';
import type { Store } from '../../storage/index.js';

const CONTENT_TYPE = 'application/x-amz-json-1.0';
const TARGET_PREFIX = 'AWSStepFunctions';

/** Whether cfn-local answers this call itself: an execution it runs, or a state machine of the world's. */
function isLocal(store: Store, runner: StepFunctionsRunner, action: string, input: Record<string, unknown>) {
  const machine = input.stateMachineArn;
  const execution = input.executionArn;
  if (action === 'StartExecution' || action === 'ListExecutions')
    return typeof machine === 'string' && stateMachineRow(store, machine) !== undefined;
  if (action === 'DescribeExecution' || action === 'StopExecution')
    return typeof execution === 'string' && runner.get(execution) !== undefined;
  return false;
}

async function handle({ req, reply, body, caller, requestId, deps }: ServiceRequest) {
  try {
    const text = await readText(body);
    const action = jsonActionOf('sfn', TARGET_PREFIX, req.headers['x-amz-target']);
    const input = decodeJsonInput('sfn', action, text);
    const backend = deps.backend;
    if (backend && !isLocal(deps.store, deps.stepFunctions, action, input)) {
      return await forward(req, reply, Readable.from([Buffer.from(text)]), backend, (reason) => {
        void answerUnserved(req, reply, requestId, unservedMessage('states', reason), 503);
      });
    }
    reply.header('x-amzn-RequestId', requestId);
    const handler = rowOf(SFN_ACTIONS, action);
    if (handler === undefined || handler === NOT_IMPLEMENTED) throw notServed('Step Functions', action);
    const ctx: SfnContext = { store: deps.store, caller, runner: deps.stepFunctions };
    const output = await handler(ctx, input);
    return reply.type(CONTENT_TYPE).send(encodeJsonResult(action, output, wireModel('sfn')));
  } catch (err) {
    reply.header('x-amzn-RequestId', requestId);
    return sendJsonError(reply, asServiceError(req, err, 'InternalServerError'), CONTENT_TYPE, wireModel('sfn'));
  }
}

export const SFN: AwsService = {
  signingName: 'states',
  targetPrefixes: [TARGET_PREFIX],
  handle,
};
