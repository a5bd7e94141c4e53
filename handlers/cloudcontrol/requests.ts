// Cloud Control's resource requests: each CreateResource, UpdateResource and DeleteResource is a request with its
// ProgressEvent (IN_PROGRESS until the work, run after the call returns, ends SUCCESS or FAILED; CANCEL_COMPLETE if
// cancelled first). Kept in memory per store, the newest MAX_REQUESTS (AWS keeps them seven days).
import type { Store } from '../../storage/index.js';
import type { ProgressEvent } from '../../generated/cloudcontrol.js';
import type { CloudControlContext } from './context.js';
import type { ApplicableHook } from '../../state-machine/hooks/configuration.js';

export const MAX_REQUESTS = 10_000;

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/** What a request's work ends with: the resource it made or changed, or the handler's refusal. */
export type Outcome =
  { ok: true; identifier: string; model?: Record<string, unknown> } | { ok: false; errorCode: string; message: string };

export interface TrackedRequest {
  account: string;
  region: string;
  clientToken?: string;
  event: ProgressEvent;
  /** The hooks it invokes before its handler (its HooksProgressEvent), when its event has a HooksRequestToken. */
  hooks?: readonly ApplicableHook[];
  timer?: NodeJS.Timeout;
}

class RequestLog {
  readonly byToken = new Map<string, TrackedRequest>();

  add(request: TrackedRequest): void {
    this.byToken.set(request.event.RequestToken!, request);
    if (this.byToken.size > MAX_REQUESTS) this.byToken.delete(this.byToken.keys().next().value!);
  }

  /** The caller's requests, newest first. */
  of(account: string, region: string): TrackedRequest[] {
    return [...this.byToken.values()].filter((r) => r.account === account && r.region === region).reverse();
  }
}

const LOGS = new WeakMap<Store, RequestLog>();

export function requestLog(store: Store): RequestLog {
  let log = LOGS.get(store);
  if (!log) LOGS.set(store, (log = new RequestLog()));
  return log;
}

/**
 * Starts a request: answers its IN_PROGRESS event at once and runs `work` after the call returns (after `delayMs`,
 * the control API's injected delay), as Cloud Control runs its handlers asynchronously.
 */
export function startRequest(
  ctx: CloudControlContext,
  args: {
    operation: Operation;
    type: string;
    token: string;
    identifier?: string;
    clientToken?: string;
    /** Set when the request invokes hooks: its HooksRequestToken, and the hooks. */
    hooksToken?: string;
    hooks?: readonly ApplicableHook[];
    delayMs?: number;
  },
  work: () => Promise<Outcome>,
): ProgressEvent {
  const log = requestLog(ctx.store);
  if (args.clientToken) {
    const earlier = [...log.byToken.values()].find((r) => r.clientToken === args.clientToken);
    if (earlier) return { ...earlier.event };
  }
  const event: ProgressEvent = {
    TypeName: args.type,
    Identifier: args.identifier,
    RequestToken: args.token,
    ...(args.hooksToken ? { HooksRequestToken: args.hooksToken } : {}),
    Operation: args.operation,
    OperationStatus: 'IN_PROGRESS',
    EventTime: ctx.now(),
  };
  const request: TrackedRequest = {
    account: ctx.caller.account,
    region: ctx.caller.region,
    clientToken: args.clientToken,
    event,
    hooks: args.hooks,
  };
  log.add(request);
  request.timer = setTimeout(() => void finish(ctx, request, work), args.delayMs ?? 0);
  request.timer.unref();
  return { ...event };
}

async function finish(ctx: CloudControlContext, request: TrackedRequest, work: () => Promise<Outcome>) {
  if (request.event.OperationStatus !== 'IN_PROGRESS') return;
  request.timer = undefined;
  let outcome: Outcome;
  try {
    outcome = await work();
  } catch {
    outcome = { ok: false, errorCode: 'InternalFailure', message: 'Internal Failure' };
  }
  const { event } = request;
  // cancelled while its handler ran: the cancellation stands
  if (event.OperationStatus !== 'IN_PROGRESS') return;
  event.EventTime = ctx.now();
  if (outcome.ok) {
    event.OperationStatus = 'SUCCESS';
    event.Identifier = outcome.identifier;
    if (outcome.model) event.ResourceModel = JSON.stringify(outcome.model);
  } else {
    event.OperationStatus = 'FAILED';
    event.ErrorCode = outcome.errorCode;
    event.StatusMessage = outcome.message;
  }
}
