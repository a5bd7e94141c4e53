// What the engine's operations share about a stack's options: ClientRequestToken idempotency, create options,
// obsolete change sets, tags, RetainResources checks, and the settling of a stack whose operation broke.
import type { Store, StackRecord, ResourceRecord } from '../storage/index.js';
import { awsError, validationError } from '../domain/errors.js';
import type { PreparedTemplate } from '../template/index.js';
import { ON_INTERNAL_FAILURE, type StackStatus } from './statuses.js';
import { setStackStatus } from './transitions.js';
import { failInProgress } from './guard.js';
import type { Runtime } from './runtime.js';
import type { CreateStackInput, StackTemplateInput } from './engine.js';

/** After an unexpected error the stack takes its operation's failed status rather than staying *_IN_PROGRESS. */
export function failInternally(rt: Runtime, err?: unknown): void {
  for (const r of rt.resources.values()) failInProgress(rt, r, err);
  const to = ON_INTERNAL_FAILURE[rt.stack.status as StackStatus];
  if (!to) return;
  try {
    setStackStatus(rt, rt.stack, to, 'Internal Failure');
  } catch {
    // the store itself failed: keep the settled status in memory so no further operation hangs on it
    rt.stack.status = to;
  }
}

/**
 * ClientRequestToken: a retried call with the token of an action already started on the stack is answered as a
 * success without starting anything; a token already used for another action is refused.
 */
export function repeatOf(stack: StackRecord, token: string | undefined, action: string): boolean {
  const used = token === undefined ? undefined : stack.doc.tokens?.[token];
  if (used === undefined) return false;
  if (used === action) return true;
  throw awsError('TokenAlreadyExistsException', `Another ${used} request with the same client request token ${token} was already made`);
}

export function rememberToken(stack: StackRecord, token: string | undefined, action: string): void {
  if (token !== undefined) stack.doc.tokens = { ...stack.doc.tokens, [token]: action };
}

export function applyCreateOptions(stack: StackRecord, input: CreateStackInput): void {
  Object.assign(stack.doc, {
    tags: tagsOf(input.Tags), capabilities: input.Capabilities, notificationARNs: input.NotificationARNs ?? [],
    disableRollback: input.DisableRollback ?? input.OnFailure === 'DO_NOTHING',
    terminationProtection: input.EnableTerminationProtection ?? false, timeoutInMinutes: input.TimeoutInMinutes,
    roleARN: input.RoleARN, retainExceptOnCreate: input.RetainExceptOnCreate, stackPolicyBody: input.StackPolicyBody,
  });
}

/** Pending change sets of a stack become OBSOLETE once the stack changes by another way. */
export function markObsolete(store: Store, stackId: string): void {
  for (const cs of store.changeSets.byStack(stackId)) {
    if (cs.executionStatus !== 'AVAILABLE') continue;
    store.changeSets.save({ ...cs, executionStatus: 'OBSOLETE' });
  }
}

export function tagsOf(tags: StackTemplateInput['Tags']): { Key: string; Value: string }[] {
  return (tags ?? []).map((t) => ({ Key: t.Key ?? '', Value: t.Value ?? '' }));
}

export function checkRetainable(resources: Map<string, ResourceRecord>, retain: string[] | undefined): void {
  for (const id of retain ?? []) {
    if (resources.get(id)?.status === 'DELETE_COMPLETE') {
      throw validationError('The specified resources to retain must be in a valid state. Do not specify resources that are in the DELETE_COMPLETE state.');
    }
  }
}

export function emptyTemplate(): PreparedTemplate {
  return {
    body: '', parameters: [], conditions: new Map(), active: new Set(),
    graph: { order: [], dependsOn: new Map(), dependents: new Map() },
    model: { doc: {}, parameters: {}, mappings: {}, conditions: {}, rules: {}, resources: new Map(), outputs: [], transforms: [] },
  };
}
