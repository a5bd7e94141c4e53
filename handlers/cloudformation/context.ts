// What every handler receives: the caller's account and region, storage for reads, the engine for operations.
import type { Store, StackRecord } from '../../storage/index.js';
import type { Engine, Caller } from '../../state-machine/engine.js';
import type { Faults } from '../../resources/faults.js';
import { echo, tooLong, validationError } from '../../domain/errors.js';

export interface HandlerContext {
  store: Store;
  engine: Engine;
  faults: Faults;
  caller: Caller;
  requestId: string;
}

export type Input = Record<string, unknown>;
export type Output = Record<string, unknown> | undefined;
export type Handler = (ctx: HandlerContext, input: Input) => Output | Promise<Output>;

/** AWS's wording for a missing required member: `Value null at 'stackName' failed to satisfy constraint`. */
export function required<T>(input: Input, member: string): T {
  const value = input[member];
  if (value === undefined || value === null) {
    const path = member[0].toLowerCase() + member.slice(1);
    throw validationError(
      `1 validation error detected: Value null at '${path}' failed to satisfy constraint: Member must not be null`,
    );
  }
  return value as T;
}

const STACK_NAME = /^([a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*)$/;

/** A stack ARN is `arn:<partition>:cloudformation:<region>:<account>:stack/<name of 128 at most>/<uuid>`. */
const MAX_STACK_ARN = 256;

export function checkStackName(name: string, member = 'stackName'): void {
  // Length first: a length refusal does not echo the value (see tooLong).
  const max = name.startsWith('arn:') ? MAX_STACK_ARN : 128;
  if (name.length > max) throw tooLong(member, max);
  if (!STACK_NAME.test(name)) {
    throw validationError(
      `1 validation error detected: Value '${echo(name)}' at '${member}' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*`,
    );
  }
}

/** A stack by name (live stacks only) or by ARN (deleted ones too), within the caller's account and region. */
export function findStack(ctx: HandlerContext, nameOrId: string): StackRecord | undefined {
  const { account, region } = ctx.caller;
  if (nameOrId.startsWith('arn:')) {
    const stack = ctx.store.stacks.byId(nameOrId);
    return stack && stack.account === account && stack.region === region ? stack : undefined;
  }
  return ctx.store.stacks.liveByName(account, region, nameOrId);
}

/** Opaque pagination tokens carrying a numeric cursor. */
export function encodeToken(cursor: number | undefined): string | undefined {
  return cursor === undefined ? undefined : Buffer.from(`c:${cursor}`).toString('base64');
}

export function decodeToken(token: unknown): number | undefined {
  if (token === undefined || token === null || token === '') return undefined;
  const text = Buffer.from(String(token), 'base64').toString('utf8');
  const cursor = Number(text.slice(2));
  if (!text.startsWith('c:') || !Number.isInteger(cursor)) throw validationError('Invalid NextToken');
  return cursor;
}
