// What every Cloud Control handler receives, and Cloud Control's own errors (awsJson 1.0 `__type` codes, messages
// as the service writes them).
// https://docs.aws.amazon.com/cloudcontrolapi/latest/APIReference/CommonErrors.html
import type { Store } from '../../storage/index.js';
import type { Caller } from '../../state-machine/engine.js';
import type { Faults } from '../../resources/faults.js';
import type { ProviderEnv } from '../../resources/provider.js';
import type { HookDoor } from '../../state-machine/hooks/invoke.js';
import { ServiceError } from '../../domain/serviceErrors.js';
import { echo } from '../../domain/errors.js';
import type { CloudControlActions } from '../../generated/cloudcontrol.js';

export interface CloudControlContext {
  store: Store;
  faults: Faults;
  caller: Caller;
  now: () => Date;
  env?: ProviderEnv;
  /** The hooks' door: the hooks configured for CLOUD_CONTROL run before a write provisions anything. */
  hooks?: HookDoor;
}

/** Every Cloud Control Action of the model, and the input and output the model gives it (generated/cloudcontrol.ts). */
export type CloudControlAction = keyof CloudControlActions;
export type CloudControlHandler<A extends CloudControlAction> = (
  ctx: CloudControlContext,
  input: CloudControlActions[A]['input'],
) => CloudControlActions[A]['output'] | Promise<CloudControlActions[A]['output']>;

export const ccError = (code: string, message: string) => new ServiceError(code, message, 400);

export const CLOUD_CONTROL_ERRORS = {
  typeNotFound: (type: string) => ccError('TypeNotFoundException', `The type '${echo(type)}' cannot be found.`),
  notFound: (type: string, id: string) =>
    ccError('ResourceNotFoundException', `Resource of type '${type}' with identifier '${echo(id)}' was not found.`),
  unsupported: (type: string, action: string) =>
    ccError('UnsupportedActionException', `Resource type ${type} does not support ${action} action`),
  invalidJson: (member: string) => ccError('ValidationException', `${member} is not a valid JSON object`),
  invalidPatch: (detail: string) => ccError('ValidationException', `Invalid patch document: ${echo(detail)}`),
  requestNotFound: (token: string) =>
    ccError('RequestTokenNotFoundException', `Request with token ${echo(token)} was not found`),
  notCancellable: (token: string) =>
    ccError('ConcurrentModificationException', `Request with token ${echo(token)} can no longer be cancelled`),
  clientTokenConflict: () =>
    ccError(
      'ClientTokenConflictException',
      'The specified client token has already been used in another resource request.',
    ),
};

/** A JSON member (DesiredState, PatchDocument, ResourceModel) parsed, or AWS's ValidationException. */
export function parseJson(member: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw CLOUD_CONTROL_ERRORS.invalidJson(member);
  }
}
