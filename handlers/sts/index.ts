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
import { constraintProblems } from '../../domain/constraints.js';
import type { StsActions } from '../../generated/sts.js';
import { sessionToken, type Identity } from './identity.js';
import type { NotImplemented } from '../actionTable.js';
import { NOT_SERVED } from './notImplemented.js';

export interface StsContext {
  store: Store;
  caller: Caller;
  identity: Identity;
  now: Date;
}

/** Every STS Action of the model, and the input and output the model gives it (generated/sts.ts). */
type StsAction = keyof StsActions;
type InputOf<A extends StsAction> = StsActions[A]['input'];
type StsHandler<A extends StsAction> = (ctx: StsContext, input: InputOf<A>) => StsActions[A]['output'];

const validation = (problems: string[]) => new ServiceError('ValidationError', validationText(problems), 400);
const ROLE_ARN = /^arn:([\w-]+):iam::(\d{12}):role\/(?:[\x21-\x7e]*\/)?([\w+=,.@-]{1,64})$/;
const SESSION_NAME = /^[\w+=,.@-]*$/;
const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

const randomId = (length: number) => [...randomBytes(length)].map((b) => ID_CHARS[b & 31]).join('');

/** Each Action's DurationSeconds: the model's range and the duration when it is not given. */
const DURATION_SECONDS = {
  AssumeRole: { minValue: 900, maxValue: 43200, fallback: 3600 },
  GetSessionToken: { minValue: 900, maxValue: 129600, fallback: 43200 },
} as const;

/** Range checks of a DurationSeconds member, in AWS's constraint wording; the duration to use. */
function checkDuration(action: keyof typeof DURATION_SECONDS, value: number | undefined, problems: string[]): number {
  const { fallback, ...range } = DURATION_SECONDS[action];
  problems.push(...constraintProblems({ DurationSeconds: range }, { DurationSeconds: value }));
  return value ?? fallback;
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
export function getCallerIdentity(ctx: StsContext) {
  return { UserId: ctx.identity.UserId, Account: ctx.identity.Account, Arn: ctx.identity.Arn };
}

function checkAssumeRoleInput(input: InputOf<'AssumeRole'>): {
  roleArn: string;
  sessionName: string;
  duration: number;
} {
  const problems: string[] = [];
  const { RoleArn: roleArn, RoleSessionName: sessionName } = input;
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
  const duration = checkDuration('AssumeRole', input.DurationSeconds, problems);
  if (problems.length > 0) throw validation(problems);
  return { roleArn, sessionName, duration };
}

/**
 * https://docs.aws.amazon.com/STS/latest/APIReference/API_AssumeRole.html
 * The role must exist in the simulated account (a stack made it); trust policies are not evaluated.
 */
export function assumeRole(ctx: StsContext, input: InputOf<'AssumeRole'>) {
  const { roleArn, sessionName, duration } = checkAssumeRoleInput(input);
  const denied = () =>
    new ServiceError(
      'AccessDenied',
      `User: ${ctx.identity.Arn} is not authorized to perform: sts:AssumeRole on resource: ${echo(roleArn)}`,
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
export function getSessionToken(ctx: StsContext, input: InputOf<'GetSessionToken'>) {
  const problems: string[] = [];
  const duration = checkDuration('GetSessionToken', input.DurationSeconds, problems);
  if (problems.length > 0) throw validation(problems);
  if (ctx.identity.session)
    throw new ServiceError('AccessDenied', 'Cannot call GetSessionToken with session credentials', 403);
  const { Account, Arn, UserId } = ctx.identity;
  return { Credentials: credentials(ctx.caller.account, { Account, Arn, UserId }, ctx.now, duration) };
}

/** Total over the model's actions: the served ones here, the others NOT_IMPLEMENTED (notImplemented.ts). */
export const STS_ACTIONS: { readonly [A in StsAction]: StsHandler<A> | NotImplemented } = {
  ...NOT_SERVED,
  GetCallerIdentity: getCallerIdentity,
  AssumeRole: assumeRole,
  GetSessionToken: getSessionToken,
};
