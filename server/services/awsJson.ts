// server/services: what every awsJson service entry (SSM, Cloud Control) does alike: the action from
// `X-Amz-Target: <Prefix>.<Action>`, and the body decoded against the service's model with its JSON error codes.
import { ServiceError, validationText } from '../../domain/serviceErrors.js';
import { wireModel } from '../protocol/model.js';
import { MalformedJson, readJsonInput } from '../protocol/json.js';

/** The body as the action's input; a member problem is ValidationException, a body that is not JSON SerializationException. */
export function decodeJsonInput(service: string, action: string, body: string): Record<string, unknown> {
  try {
    const { input, problems } = readJsonInput(wireModel(service), action, body);
    if (problems.length > 0) throw new ServiceError('ValidationException', validationText(problems));
    return input;
  } catch (err) {
    if (err instanceof MalformedJson)
      throw new ServiceError('SerializationException', 'Start of structure or map found where not expected.');
    throw err;
  }
}

/** The action an `X-Amz-Target` names under the service's prefix; anything else is UnknownOperationException. */
export function jsonActionOf(service: string, targetPrefix: string, target: unknown): string {
  const text = typeof target === 'string' ? target : '';
  const dot = text.lastIndexOf('.');
  const action = dot === -1 || text.slice(0, dot) !== targetPrefix ? undefined : text.slice(dot + 1);
  if (!action || !wireModel(service).operation(action)) throw new ServiceError('UnknownOperationException', '');
  return action;
}
