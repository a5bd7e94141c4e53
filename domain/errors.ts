// domain/errors: AWS errors as values (code, HTTP status, Sender/Receiver) and their named factories.
// A leaf module: every layer throws these; only server/protocol knows how they travel.

export type ErrorType = 'Sender' | 'Receiver';

export interface ErrorCodeInfo {
  status: number;
  type: ErrorType;
}

// Wire codes are the model's awsQueryError names, not the SDK class names
// (ChangeSetNotFoundException travels as `ChangeSetNotFound`). test/unit/protocol
// checks this table against generated/models/cloudformation.json so a model update cannot drift.
export const ERROR_CODES = {
  // Common to AWS query services (not in the model).
  ValidationError: { status: 400, type: 'Sender' },
  InvalidAction: { status: 400, type: 'Sender' },
  MissingAction: { status: 400, type: 'Sender' },
  MissingParameter: { status: 400, type: 'Sender' },
  InvalidParameterValue: { status: 400, type: 'Sender' },
  InvalidParameterCombination: { status: 400, type: 'Sender' },
  // A body past the server's limit (server/services/body.ts). AWS's front end answers 413 too.
  RequestEntityTooLarge: { status: 413, type: 'Sender' },
  InternalFailure: { status: 500, type: 'Receiver' },
  // 501 is a server error the SDKs do not retry (500 would be retried three times).
  NotImplemented: { status: 501, type: 'Receiver' },
  // The CloudFormation model's errors.
  AlreadyExistsException: { status: 400, type: 'Sender' },
  CFNRegistryException: { status: 400, type: 'Sender' },
  ChangeSetNotFound: { status: 404, type: 'Sender' },
  ConcurrentResourcesLimitExceeded: { status: 429, type: 'Sender' },
  ConditionalCheckFailed: { status: 400, type: 'Sender' },
  CreatedButModifiedException: { status: 409, type: 'Sender' },
  GeneratedTemplateNotFound: { status: 404, type: 'Sender' },
  HookResultNotFound: { status: 404, type: 'Sender' },
  InsufficientCapabilitiesException: { status: 400, type: 'Sender' },
  InvalidChangeSetStatus: { status: 400, type: 'Sender' },
  InvalidOperationException: { status: 400, type: 'Sender' },
  InvalidStateTransition: { status: 400, type: 'Sender' },
  LimitExceededException: { status: 400, type: 'Sender' },
  NameAlreadyExistsException: { status: 409, type: 'Sender' },
  OperationIdAlreadyExistsException: { status: 409, type: 'Sender' },
  OperationInProgressException: { status: 409, type: 'Sender' },
  OperationNotFoundException: { status: 404, type: 'Sender' },
  ResourceScanInProgress: { status: 400, type: 'Sender' },
  ResourceScanLimitExceeded: { status: 400, type: 'Sender' },
  ResourceScanNotFound: { status: 400, type: 'Sender' },
  StackInstanceNotFoundException: { status: 404, type: 'Sender' },
  StackNotFoundException: { status: 404, type: 'Sender' },
  StackRefactorNotFoundException: { status: 404, type: 'Sender' },
  StackSetNotEmptyException: { status: 409, type: 'Sender' },
  StackSetNotFoundException: { status: 404, type: 'Sender' },
  StaleRequestException: { status: 409, type: 'Sender' },
  TokenAlreadyExistsException: { status: 400, type: 'Sender' },
  TypeConfigurationNotFoundException: { status: 404, type: 'Sender' },
  TypeNotFoundException: { status: 404, type: 'Sender' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const API_VERSION = '2010-05-15';

export class AwsError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly type: ErrorType;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = code;
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.type = ERROR_CODES[code].type;
  }
}

export function isAwsError(err: unknown): err is AwsError {
  return err instanceof AwsError;
}

export function awsError(code: ErrorCode, message: string): AwsError {
  return new AwsError(code, message);
}

export function validationError(message: string): AwsError {
  return new AwsError('ValidationError', message);
}

/**
 * The most characters of a caller's value an error message repeats. AWS leaves the value out of a length refusal (see
 * tooLong) and out of any refusal of a @sensitive member (smithy-lang/smithy, smithy-aws-protocol-tests
 * restJson1/validation/sensitive-validation.smithy: "Value at '/string' failed to satisfy constraint"), but no public
 * source shows how its front end bounds the value in a type, pattern or enum refusal, or in a "does not exist" text.
 * The bound and the marker are therefore ours (README, "Differences from AWS"): every CloudFormation name and id is at
 * most 256 characters and a parameter value 4,096 bytes, so a value within AWS's limits is never cut.
 */
export const MAX_ECHO = 4096;
const ECHO_MARKER = '...';

/** A caller's value as an error message repeats it: whole up to MAX_ECHO characters, else cut there and marked. */
export function echo(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return text.length <= MAX_ECHO ? text : text.slice(0, MAX_ECHO) + ECHO_MARKER;
}

/**
 * A member over its length limit. AWS leaves the value out of this message ("Value at 'templateBody' failed to
 * satisfy constraint: Member must have length less than or equal to 51200", public AWS output), so a 10 MB value
 * never comes back as a 10 MB error. Callers check length before pattern for the same reason.
 */
export function tooLong(member: string, max: number): AwsError {
  return validationError(
    `1 validation error detected: Value at '${member}' failed to satisfy constraint: Member must have length less than or equal to ${max}`,
  );
}

/** What AWS query services answer for an Action they do not have. */
export function invalidAction(action: string): AwsError {
  return new AwsError('InvalidAction', `Could not find operation ${echo(action)} for version ${API_VERSION}`);
}

export function missingAction(): AwsError {
  return new AwsError('MissingAction', 'Missing Action');
}

/** An Action of the model that cfn-local has no handler for. */
export function notImplemented(action: string): AwsError {
  return new AwsError('NotImplemented', `cfn-local does not implement the CloudFormation action ${echo(action)} yet`);
}

/** The answer to any unexpected failure; the detail is logged, never sent. */
export function internalFailure(): AwsError {
  return new AwsError('InternalFailure', 'We encountered an internal error. Please try again.');
}

// "Does not exist", as each API words it (AWS's wording differs by API; recorded in LocalStack's snapshot tests
// cfn/api/test_stacks.py, test_templates.py, test_resources.py and test_changesets.py).

/** UpdateStack, DescribeStackEvents, ListChangeSets, the rollback calls, SignalResource, UpdateTerminationProtection. */
export function stackNotFound(name: string): AwsError {
  return validationError(`Stack [${echo(name)}] does not exist`);
}

/** DescribeStacks, GetTemplate, GetTemplateSummary, DescribeStackResources, the stack policy calls. */
export function stackIdNotFound(name: string): AwsError {
  return validationError(`Stack with id ${echo(name)} does not exist`);
}

/** DescribeStackResource (single quotes). */
export function stackResourceStackNotFound(name: string): AwsError {
  return validationError(`Stack '${echo(name)}' does not exist`);
}

/** DescribeChangeSet, ExecuteChangeSet, DeleteChangeSet, GetTemplate by change set. */
export function changeSetNotFound(name: string): AwsError {
  return new AwsError('ChangeSetNotFound', `ChangeSet [${echo(name)}] does not exist`);
}

// Stack aliases (SetAlias, RemoveAlias). AWS's API reference names the codes but not the texts: these follow the
// form of its stack texts (README, "Differences from AWS").
export const aliasExists = (alias: string) =>
  awsError('AlreadyExistsException', `Alias [${echo(alias)}] already exists`);
export const aliasIsStackName = (alias: string) =>
  awsError('AlreadyExistsException', `Stack [${echo(alias)}] already exists`);
export const stackHasAlias = (stack: string, alias: string) =>
  awsError(
    'LimitExceededException',
    `Stack [${echo(stack)}] already has alias [${echo(alias)}]: remove it with RemoveAlias before setting another`,
  );
export const aliasNotFound = (alias: string) => validationError(`Alias [${echo(alias)}] does not exist`);

// Stack sets. The not-found and in-progress texts are AWS's as its clients log them; the others follow their form.
export const stackSetNotFound = (name: string) =>
  awsError('StackSetNotFoundException', `StackSet ${echo(name)} not found`);
export const stackSetExists = (name: string) =>
  awsError('NameAlreadyExistsException', `StackSet ${echo(name)} already exists`);
export const stackSetNotEmpty = () => awsError('StackSetNotEmptyException', 'StackSet is not empty');
export const setOperationInProgress = (arn: string) =>
  awsError('OperationInProgressException', `Another Operation on StackSet ${arn} is in progress`);
export const setOperationNotFound = (id: string) =>
  awsError('OperationNotFoundException', `Operation ${echo(id)} not found`);
export const setOperationIdExists = (id: string) =>
  awsError('OperationIdAlreadyExistsException', `Operation ${echo(id)} already exists`);
export const stackInstanceNotFound = (set: string, account: string, region: string) =>
  awsError(
    'StackInstanceNotFoundException',
    `Stack instance for account ${echo(account)} and region ${echo(region)} not found in StackSet ${echo(set)}`,
  );
export const invalidOperation = (message: string) => awsError('InvalidOperationException', message);

// Hooks (state-machine/hooks/): the model describes HookResultNotFound as "the specified target doesn't have any
// requested Hook invocations"; the texts follow that form.
export const hookResultNotFound = (id: string) =>
  awsError('HookResultNotFound', `Hook result with id ${echo(id)} not found`);
export const hookTargetWithoutResults = (targetType: string, targetId: string) =>
  awsError(
    'HookResultNotFound',
    `The specified target ${echo(targetType)} ${echo(targetId)} doesn't have any requested Hook invocations`,
  );
// The registry. DescribeType's not-found text is AWS's (recorded: "The type 'X' cannot be found.").
export const typeNotFound = (typeName: string) =>
  awsError('TypeNotFoundException', `The type '${echo(typeName)}' cannot be found.`);
export const registryError = (message: string) => awsError('CFNRegistryException', message);
