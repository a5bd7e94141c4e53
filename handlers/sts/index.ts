// STS: GetCallerIdentity, AssumeRole and GetSessionToken over the simulated account. Handed-out key ids encode their
// account (domain/accessKeys.ts) and session tokens their identity, so later calls with them land where they should.
// https://docs.aws.amazon.com/STS/latest/APIReference/API_Operations.html
import { randomBytes } from 'node:crypto';
import type { Store } from '../../storage/index.js';
import type { Caller } from '../../state-machine/engine.js';
import { ServiceError, validationText } from '../../domain/serviceErrors.js';
import { temporaryAccessKeyId } from '../../domain/accessKeys.js';
import { partitionOf } from '../../resources/regions.js';
import { echo } from '../../domain/errors.js';
import { sessionToken, type Identity } from './identity.js';

export interface StsContext {
  store: Store;
  caller: Caller;
  identity: Identity;
  now: Date;
}

type Input = Record<string, unknown>;
type StsHandler = (ctx: StsContext, input: Input) => Record<string, unknown>;

const validation = (problems: string[]) => new ServiceError('ValidationError', validationText(problems), 400);
const ROLE_ARN = /^arn:([\w-]+):iam::(\d{12}):role\/(?:[\x21-\x7e]*\/)?([\w+=,.@-]{1,64})$/;
const SESSION_NAME = /^[\w+=,.@-]*$/;
const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

const randomId = (length: number) => [...randomBytes(length)].map((b) => ID_CHARS[b & 31]).join('');

/** Range checks of a DurationSeconds member, in AWS's constraint wording. */
function checkDuration(value: unknown, min: number, max: number, problems: string[]): number | undefined {
  if (typeof value !== 'number') return undefined;
  if (value < min)
    problems.push(
      `Value '${value}' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to ${min}`,
    );
  if (value > max)
    problems.push(
      `Value '${value}' at 'durationSeconds' failed to satisfy constraint: Member must have value less than or equal to ${max}`,
    );
  return value;
}

function credentials(account: string, identity: Omit<Identity, 'session'>, now: Date, seconds: number) {
  return {
    AccessKeyId: temporaryAccessKeyId(account),
    SecretAccessKey: randomBytes(30).toString('base64').slice(0, 40),
    SessionToken: sessionToken(identity),
    Expiration: new Date(now.getTime() + seconds * 1000),
  };
}

/** https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html */
export function getCallerIdentity(ctx: StsContext): Record<string, unknown> {
  return { UserId: ctx.identity.UserId, Account: ctx.identity.Account, Arn: ctx.identity.Arn };
}

function checkAssumeRoleInput(input: Input): { roleArn: string; sessionName: string; duration: number } {
  const problems: string[] = [];
  const roleArn = String(input.RoleArn);
  const sessionName = String(input.RoleSessionName);
  if (roleArn.length < 20)
    problems.push(
      `Value '${echo(roleArn)}' at 'roleArn' failed to satisfy constraint: Member must have length greater than or equal to 20`,
    );
  if (sessionName.length < 2)
    problems.push(
      `Value '${echo(sessionName)}' at 'roleSessionName' failed to satisfy constraint: Member must have length greater than or equal to 2`,
    );
  if (sessionName.length > 64)
    problems.push(
      `Value '${echo(sessionName)}' at 'roleSessionName' failed to satisfy constraint: Member must have length less than or equal to 64`,
    );
  if (!SESSION_NAME.test(sessionName))
    problems.push(
      `Value '${echo(sessionName)}' at 'roleSessionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*`,
    );
  const duration = checkDuration(input.DurationSeconds, 900, 43200, problems) ?? 3600;
  if (problems.length > 0) throw validation(problems);
  return { roleArn, sessionName, duration };
}

/**
 * https://docs.aws.amazon.com/STS/latest/APIReference/API_AssumeRole.html
 * The role must exist in the simulated account (a stack made it); trust policies are not evaluated.
 */
export function assumeRole(ctx: StsContext, input: Input): Record<string, unknown> {
  const { roleArn, sessionName, duration } = checkAssumeRoleInput(input);
  const denied = () =>
    new ServiceError(
      'AccessDenied',
      `User: ${ctx.identity.Arn} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`,
      403,
    );
  const match = ROLE_ARN.exec(roleArn);
  if (!match) throw denied();
  const [, , account, roleName] = match;
  const role =
    ctx.store.world.byNameInAccount(account, 'AWS::IAM::Role', roleName) ??
    ctx.store.world.list({ type: 'AWS::IAM::Role', account }).find((r) => r.physicalId === roleName);
  if (!role) throw denied();
  const maxSession = Number(role.properties.MaxSessionDuration ?? 3600);
  if (duration > maxSession)
    throw new ServiceError(
      'ValidationError',
      'The requested DurationSeconds exceeds the MaxSessionDuration set for this role.',
      400,
    );
  const roleId = typeof role.attributes.RoleId === 'string' ? role.attributes.RoleId : `AROA${randomId(17)}`;
  const assumed = {
    Account: account,
    Arn: `arn:${partitionOf(ctx.caller.region)}:sts::${account}:assumed-role/${roleName}/${sessionName}`,
    UserId: `${roleId}:${sessionName}`,
  };
  return {
    Credentials: credentials(account, assumed, ctx.now, duration),
    AssumedRoleUser: { AssumedRoleId: assumed.UserId, Arn: assumed.Arn },
    PackedPolicySize: input.Policy !== undefined || input.PolicyArns !== undefined ? 6 : undefined,
    SourceIdentity: input.SourceIdentity,
  };
}

/** https://docs.aws.amazon.com/STS/latest/APIReference/API_GetSessionToken.html */
export function getSessionToken(ctx: StsContext, input: Input): Record<string, unknown> {
  const problems: string[] = [];
  const duration = checkDuration(input.DurationSeconds, 900, 129600, problems) ?? 43200;
  if (problems.length > 0) throw validation(problems);
  if (ctx.identity.session)
    throw new ServiceError('AccessDenied', 'Cannot call GetSessionToken with session credentials', 403);
  const { Account, Arn, UserId } = ctx.identity;
  return { Credentials: credentials(ctx.caller.account, { Account, Arn, UserId }, ctx.now, duration) };
}

/** STS actions cfn-local serves; any other STS action of the model answers as not served. */
export const STS_ACTIONS: Readonly<Record<string, StsHandler>> = {
  GetCallerIdentity: getCallerIdentity,
  AssumeRole: assumeRole,
  GetSessionToken: getSessionToken,
};
