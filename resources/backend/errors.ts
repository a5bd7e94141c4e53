// The backend's own errors as CloudFormation writes them in ResourceStatusReason: the service's message, its
// status code and request id, then the handler error code (the text AWS's resource handlers write for a refusal).
import type { Refusal, ResourceRequest } from '../provider.js';

/** Service error codes → CloudFormation's HandlerErrorCode; codes not listed are GeneralServiceException. */
export const HANDLER_ERROR_CODES: Readonly<Record<string, string>> = {
  EntityAlreadyExists: 'AlreadyExists',
  QueueNameExists: 'AlreadyExists',
  QueueAlreadyExists: 'AlreadyExists',
  ResourceAlreadyExistsException: 'AlreadyExists',
  StateMachineAlreadyExists: 'AlreadyExists',
  AlreadyExistsException: 'AlreadyExists',
  ResourceExistsException: 'AlreadyExists',
  RepositoryAlreadyExistsException: 'AlreadyExists',
  NoSuchEntity: 'NotFound',
  NotFound: 'NotFound',
  NotFoundException: 'NotFound',
  ResourceNotFoundException: 'NotFound',
  QueueDoesNotExist: 'NotFound',
  'AWS.SimpleQueueService.NonExistentQueue': 'NotFound',
  StateMachineDoesNotExist: 'NotFound',
  ResourceNotFound: 'NotFound',
  RepositoryNotFoundException: 'NotFound',
  'InvalidVpcID.NotFound': 'NotFound',
  'InvalidSubnetID.NotFound': 'NotFound',
  'InvalidGroup.NotFound': 'NotFound',
  ValidationException: 'InvalidRequest',
  ValidationError: 'InvalidRequest',
  InvalidParameterValue: 'InvalidRequest',
  InvalidParameterValueException: 'InvalidRequest',
  InvalidParameterException: 'InvalidRequest',
  InvalidAttributeName: 'InvalidRequest',
  InvalidAttributeValue: 'InvalidRequest',
  InvalidParameter: 'InvalidRequest',
  MalformedPolicyDocument: 'InvalidRequest',
  InvalidDefinition: 'InvalidRequest',
  InvalidArn: 'InvalidRequest',
  InvalidInput: 'InvalidRequest',
  BadRequestException: 'InvalidRequest',
  ConflictException: 'AlreadyExists',
  LimitExceeded: 'ServiceLimitExceeded',
  LimitExceededException: 'ServiceLimitExceeded',
  AccessDenied: 'AccessDenied',
  AccessDeniedException: 'AccessDenied',
  Throttling: 'Throttling',
  ThrottlingException: 'Throttling',
  TooManyRequestsException: 'Throttling',
  // IAM's refusal to delete a role, user, group or policy still in use: CloudFormation keeps the general code.
  DeleteConflict: 'GeneralServiceException',
};

/** A delete whose target the backend no longer knows is a delete done, as AWS's handlers treat it. */
export function isNotFound(err: unknown): boolean {
  return HANDLER_ERROR_CODES[codeOf(err)] === 'NotFound';
}

interface SdkError {
  name?: string;
  Code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number; requestId?: string };
}

export function codeOf(err: unknown): string {
  const e = (err ?? {}) as SdkError;
  // moto answers SQS's JSON protocol with the query code in __type; the SDK names the error after it
  return e.Code ?? e.name ?? 'InternalFailure';
}

/** The refusal CloudFormation records for a failed backend call of `service` (Sqs, Iam, DynamoDb…). */
export function backendRefusal(err: unknown, req: ResourceRequest, service: string): Refusal {
  const e = (err ?? {}) as SdkError;
  const code = codeOf(err);
  const handlerCode = HANDLER_ERROR_CODES[code] ?? 'GeneralServiceException';
  if (!e.$metadata?.httpStatusCode) {
    // no answer at all: the endpoint is down or unreachable
    return {
      ok: false,
      code: 'ServiceInternalError',
      reason: `Resource handler returned message: "The backend did not answer: ${e.message ?? String(err)}" (RequestToken: ${req.requestToken}, HandlerErrorCode: ServiceInternalError)`,
    };
  }
  const message = e.message && e.message !== 'UnknownError' ? e.message : code;
  return {
    ok: false,
    code,
    reason: `Resource handler returned message: "${message} (Service: ${service}, Status Code: ${e.$metadata.httpStatusCode}, Request ID: ${e.$metadata.requestId ?? ''})" (RequestToken: ${req.requestToken}, HandlerErrorCode: ${handlerCode})`,
    transient: handlerCode === 'Throttling',
  };
}
