// Cloud Control's resource actions over the simulated account: CreateResource, GetResource, UpdateResource (an RFC
// 6902 PatchDocument), DeleteResource, ListResources. Writes are requests answered IN_PROGRESS (requests.ts); reads
// answer at once. https://docs.aws.amazon.com/cloudcontrolapi/latest/APIReference/API_Operations.html
import { v4 as uuidv4 } from 'uuid';
import jsonPatch from 'fast-json-patch';
import type { Operation as PatchOperation } from 'fast-json-patch';
import * as door from '../../state-machine/cloudControl.js';
import type { WorldResource } from '../../storage/index.js';
import type { FaultAction } from '../../resources/faults.js';
import { CLOUD_CONTROL_ERRORS as E, parseJson, type CloudControlContext, type CloudControlHandler } from './context.js';
import { startRequest, type Operation, type Outcome } from './requests.js';
import { cloudControlHooks, runCloudControlHooks } from '../../state-machine/hooks/cloudControlHooks.js';

const ACTION_OF: Record<Operation, FaultAction> = { CREATE: 'Create', UPDATE: 'Update', DELETE: 'Delete' };
const LIST_PAGE = 100;
/** The handler error code of a request its hooks failed (the ProgressEvent's ErrorCode). */
const HOOK_FAILURE_CODE = 'GeneralServiceException';

/** The type as Cloud Control checks it: known to the registry, and provisionable for the action. */
function checkType(type: string, operation: Operation | 'READ' | 'LIST'): void {
  if (!door.isServedType(type)) throw E.typeNotFound(type);
  if (!door.isProvisionable(type)) throw E.unsupported(type, operation);
}

function existing(ctx: CloudControlContext, type: string, identifier: string): WorldResource {
  const row = door.findResource(ctx, type, identifier);
  if (!row) throw E.notFound(type, identifier);
  return row;
}

function objectOf(member: string, text: string): Record<string, unknown> {
  const value = parseJson(member, text);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw E.invalidJson(member);
  return value as Record<string, unknown>;
}

/**
 * A write: its request, its hooks (run first, as pre-provision hooks are), its injected fault (delay or failure),
 * and its work after the call returns. A FAIL-mode hook that does not succeed fails the request before its handler.
 */
function request(
  ctx: CloudControlContext,
  args: { operation: Operation; type: string; identifier?: string; clientToken?: string },
  work: (token: string) => Promise<Outcome>,
) {
  const token = uuidv4();
  const { account, region } = ctx.caller;
  const hookRequest = { account, region, typeName: args.type, action: args.operation, requestToken: token };
  const hooked = { ...hookRequest, hooksToken: uuidv4() };
  const hooks = cloudControlHooks(ctx.hooks, ctx.store, hooked);
  const fault = door.faultOf(ctx, ACTION_OF[args.operation], args.type, token);
  const hooksToken = hooks.length ? hooked.hooksToken : undefined;
  return startRequest(ctx, { ...args, token, hooksToken, hooks, delayMs: fault.delayMs }, () => {
    const clock = { now: ctx.now };
    const failed =
      ctx.hooks && hooks.length && runCloudControlHooks({ store: ctx.store, clock }, ctx.hooks, hooks, hooked);
    if (failed) return Promise.resolve(door.refused(HOOK_FAILURE_CODE, failed));
    return fault.failure ? Promise.resolve(door.refused(fault.failure.code, fault.failure.reason)) : work(token);
  });
}

export const createResource: CloudControlHandler<'CreateResource'> = (ctx, input) => {
  checkType(input.TypeName, 'CREATE');
  const desired = objectOf('DesiredState', input.DesiredState);
  const event = request(ctx, { operation: 'CREATE', type: input.TypeName, clientToken: input.ClientToken }, (token) =>
    door.createResource(ctx, input.TypeName, desired, token),
  );
  return { ProgressEvent: event };
};

export const getResource: CloudControlHandler<'GetResource'> = async (ctx, input) => {
  checkType(input.TypeName, 'READ');
  const row = existing(ctx, input.TypeName, input.Identifier);
  const model = await door.currentModel(ctx, row);
  if (!model) throw E.notFound(input.TypeName, input.Identifier);
  return {
    TypeName: row.type,
    ResourceDescription: { Identifier: door.identifierOf(row), Properties: JSON.stringify(model) },
  };
};

export const updateResource: CloudControlHandler<'UpdateResource'> = (ctx, input) => {
  checkType(input.TypeName, 'UPDATE');
  const row = existing(ctx, input.TypeName, input.Identifier);
  const next = patched(door.modelOf(row), parseJson('PatchDocument', input.PatchDocument));
  const args = {
    operation: 'UPDATE' as const,
    type: row.type,
    identifier: input.Identifier,
    clientToken: input.ClientToken,
  };
  const event = request(ctx, args, (token) => door.updateResource(ctx, row, door.writable(row.type, next), token));
  return { ProgressEvent: event };
};

export const deleteResource: CloudControlHandler<'DeleteResource'> = (ctx, input) => {
  checkType(input.TypeName, 'DELETE');
  const row = existing(ctx, input.TypeName, input.Identifier);
  const args = {
    operation: 'DELETE' as const,
    type: row.type,
    identifier: input.Identifier,
    clientToken: input.ClientToken,
  };
  return { ProgressEvent: request(ctx, args, (token) => door.deleteResource(ctx, row, token)) };
};

export const listResources: CloudControlHandler<'ListResources'> = (ctx, input) => {
  checkType(input.TypeName, 'LIST');
  const rows = door.resourcesOf(ctx, input.TypeName);
  const start = input.NextToken ? Number(Buffer.from(input.NextToken, 'base64url').toString()) || 0 : 0;
  const size = Math.min(input.MaxResults ?? LIST_PAGE, LIST_PAGE);
  const page = rows.slice(start, start + size);
  const more = start + size < rows.length;
  return {
    TypeName: input.TypeName,
    ResourceDescriptions: page.map(describe),
    NextToken: more ? Buffer.from(String(start + size)).toString('base64url') : undefined,
  };
};

const describe = (row: WorldResource) => ({
  Identifier: door.identifierOf(row),
  Properties: JSON.stringify(door.modelOf(row)),
});

/** The model with an RFC 6902 patch applied; a patch that is not one, or does not apply, is AWS's ValidationException. */
function patched(model: Record<string, unknown>, patch: unknown): Record<string, unknown> {
  if (!Array.isArray(patch)) throw E.invalidPatch('a PatchDocument is a JSON array of operations');
  try {
    const doc = jsonPatch.deepClone(model) as Record<string, unknown>;
    return jsonPatch.applyPatch(doc, patch as PatchOperation[], true).newDocument;
  } catch (err) {
    throw E.invalidPatch((err as Error).message.split('\n')[0]);
  }
}
