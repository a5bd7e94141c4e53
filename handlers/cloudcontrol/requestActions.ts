// Cloud Control's request actions: GetResourceRequestStatus, ListResourceRequests, CancelResourceRequest.
// https://docs.aws.amazon.com/cloudcontrolapi/latest/APIReference/API_GetResourceRequestStatus.html
import { CLOUD_CONTROL_ERRORS as E, type CloudControlContext, type CloudControlHandler } from './context.js';
import { requestLog, type TrackedRequest } from './requests.js';
import { hookProgressOf } from '../../state-machine/hooks/cloudControlHooks.js';

const PAGE = 100;

function tracked(ctx: CloudControlContext, token: string): TrackedRequest {
  const request = requestLog(ctx.store).byToken.get(token);
  if (!request || request.account !== ctx.caller.account || request.region !== ctx.caller.region)
    throw E.requestNotFound(token);
  return request;
}

/** The request's ProgressEvent, and the invocations of its hooks when it invoked any. */
export const getResourceRequestStatus: CloudControlHandler<'GetResourceRequestStatus'> = (ctx, input) => {
  const request = tracked(ctx, input.RequestToken);
  const hooksToken = request.event.HooksRequestToken;
  return {
    ProgressEvent: { ...request.event },
    ...(hooksToken
      ? { HooksProgressEvent: hookProgressOf(ctx.store, { ...ctx.caller, hooksToken }, request.hooks ?? []) }
      : {}),
  };
};

export const listResourceRequests: CloudControlHandler<'ListResourceRequests'> = (ctx, input) => {
  const operations = input.ResourceRequestStatusFilter?.Operations;
  const statuses = input.ResourceRequestStatusFilter?.OperationStatuses;
  const all = requestLog(ctx.store)
    .of(ctx.caller.account, ctx.caller.region)
    .map((r) => r.event)
    .filter((e) => !operations?.length || operations.includes(e.Operation!))
    .filter((e) => !statuses?.length || statuses.includes(e.OperationStatus!));
  const start = input.NextToken ? Number(Buffer.from(input.NextToken, 'base64url').toString()) || 0 : 0;
  const size = Math.min(input.MaxResults ?? PAGE, PAGE);
  const more = start + size < all.length;
  return {
    ResourceRequestStatusSummaries: all.slice(start, start + size).map((e) => ({ ...e })),
    NextToken: more ? Buffer.from(String(start + size)).toString('base64url') : undefined,
  };
};

/** Only a request still running can be cancelled: it ends CANCEL_COMPLETE and its work never runs. */
export const cancelResourceRequest: CloudControlHandler<'CancelResourceRequest'> = (ctx, input) => {
  const request = tracked(ctx, input.RequestToken);
  if (request.event.OperationStatus !== 'IN_PROGRESS' && request.event.OperationStatus !== 'PENDING')
    throw E.notCancellable(input.RequestToken);
  if (request.timer) clearTimeout(request.timer);
  request.event.OperationStatus = 'CANCEL_COMPLETE';
  request.event.EventTime = ctx.now();
  return { ProgressEvent: { ...request.event } };
};
