// AWS::CloudFormation::WaitConditionHandle and WaitCondition. The handle's Ref is a URL on cfn-local that takes the
// real signal protocol (an HTTP PUT of {"Status","Reason","UniqueId","Data"}, routes in server/routes/signalRoutes.ts);
// the signals are kept on the handle's world row, as AWS keeps them in S3, so signals sent early still count.
import { HANDLE_EXPIRES_S, presign } from './presign.js';
import type { WorldResource, WorldState } from '../storage/world.js';
import { genericProvider } from './genericProvider.js';
import type { Provider, ProviderResult, Provisioned, ResourceRequest, WorldAccess } from './provider.js';

export const HANDLE_TYPE = 'AWS::CloudFormation::WaitConditionHandle';
export const WAIT_CONDITION_TYPE = 'AWS::CloudFormation::WaitCondition';
/** The path prefix of handle URLs; what follows is the handle's key, `<stack-arn>/<HandleLogicalId>`. */
export const HANDLE_PATH = '/_cfn-local/waitcondition/';
/** Used when the server has not told the engine its address (an app that never listened). */
export const FALLBACK_ENDPOINT = 'http://127.0.0.1:4581';
/** A WaitCondition may wait twelve hours at most (its Timeout is in seconds). */
const MAX_TIMEOUT_SECONDS = 43_200;

export interface WaitSignal {
  Status: string;
  Reason?: string;
  UniqueId: string;
  Data?: string;
}

/** What a handle's world row keeps beyond the common state: the signals by UniqueId, and any unparsable body. */
export interface HandleState extends WorldState {
  signals?: Record<string, WaitSignal>;
  unparsable?: boolean;
}

export function endpointOf(req: ResourceRequest): string {
  return (req.env?.endpoint ?? FALLBACK_ENDPOINT).replace(/\/$/, '');
}

// The real URL is a presigned S3 URL ending in the stack ARN with its colons encoded, then the handle's logical id;
// ours is presigned the same way (resources/presign.ts) when the server has a signing key.
export function handleUrl(req: ResourceRequest, key: string): string {
  const url = `${endpointOf(req)}${HANDLE_PATH}${key.replace(/:/g, '%3A')}`;
  const signingKey = req.env?.signingKey;
  return signingKey ? presign(url, signingKey, new Date(), HANDLE_EXPIRES_S, req.region) : url;
}

const ok = (physicalId: string, attributes: Record<string, unknown>): Provisioned => ({
  ok: true,
  physicalId,
  ref: physicalId,
  attributes,
});

function put(
  world: WorldAccess,
  req: ResourceRequest,
  physicalId: string,
  name: string,
  state: HandleState,
  attributes: Record<string, unknown>,
) {
  world.put({
    account: req.account,
    region: req.region,
    type: req.type,
    physicalId,
    name,
    stackId: req.stackId,
    logicalId: req.logicalId,
    createdAt: world.now(),
    properties: req.properties,
    attributes,
    state,
  });
}

const removeOnDelete: Provider['delete'] = (world, req) => {
  if (req.physicalId && world.get(req.type, req.physicalId)) world.remove(req.type, req.physicalId);
  return { ok: true };
};

/** Keeps the resource as it is; neither type does anything on update. */
const keepOnUpdate: Provider['update'] = (world, req) => {
  const found = req.physicalId ? world.get(req.type, req.physicalId) : undefined;
  if (found) world.put({ ...found, properties: req.properties });
  return ok(req.physicalId ?? '', found?.attributes ?? {});
};

export const waitConditionHandleProvider: Provider = {
  ...genericProvider,
  create(world, req) {
    const key = `${req.stackId}/${req.logicalId}`;
    const url = handleUrl(req, key);
    put(world, req, url, key, { signals: {} }, {});
    return ok(url, {});
  },
  update: keepOnUpdate,
  delete: removeOnDelete,
};

/** The handle a WaitCondition names, by its URL, or by the key in the URL's path if the host differs. */
function findHandle(world: WorldAccess, url: string): WorldResource | undefined {
  const exact = world.get(HANDLE_TYPE, url);
  if (exact) return exact;
  const at = url.indexOf(HANDLE_PATH);
  if (at === -1) return undefined;
  return world.byName(HANDLE_TYPE, decodeURIComponent(url.slice(at + HANDLE_PATH.length).split('?')[0]));
}

// Reasons as AWS shows them (the WaitCondition pages of the CloudFormation user guide, and users' reports).
export const WAIT_REASONS = {
  failure: (s: WaitSignal) => `WaitCondition received failed message: '${s.Reason ?? ''}' for uniqueId: ${s.UniqueId}`,
  timeout: (received: number, expected: number) =>
    `WaitCondition timed out. Received ${received} conditions when expecting ${expected}`,
  unparsable: 'Unparsable WaitCondition data',
  noHandle: (url: string) =>
    `Invalid WaitConditionHandle: ${url} is not a wait condition handle of this account and region`,
};

export const waitConditionProvider: Provider = {
  ...genericProvider,
  create(world, req): ProviderResult {
    const url = req.properties.Handle;
    // Under a CreationPolicy the WaitCondition counts SignalResource calls instead of handle signals.
    if (url === undefined) {
      const id = `${req.stackId}/${req.logicalId}`;
      put(world, req, id, id, {}, { Data: '{}', Id: id });
      return ok(id, { Data: '{}', Id: id });
    }
    const handle = findHandle(world, String(url));
    if (!handle) return { ok: false, code: 'InvalidRequest', reason: WAIT_REASONS.noHandle(String(url)) };
    const id = handle.name ?? handle.physicalId;
    put(world, req, id, id, {}, { Data: '{}', Id: id });
    return ok(id, { Data: '{}', Id: id });
  },

  async stabilize(world, req, created) {
    const url = req.properties.Handle;
    if (url === undefined || !req.env) return created;
    const timeout = Math.min(
      Number(req.properties.Timeout ?? MAX_TIMEOUT_SECONDS) || MAX_TIMEOUT_SECONDS,
      MAX_TIMEOUT_SECONDS,
    );
    const expected = Math.max(1, Number(req.properties.Count ?? 1) || 1);
    // counted from when the wait began, kept in the database: a restart does not give the wait a new Timeout
    const deadline = req.env.signals.beginWait(req.stackId, req.logicalId, 'handle') + timeout * 1000;
    try {
      return await awaitHandle(world, req, created, { url: String(url), expected, deadline });
    } finally {
      req.env.signals.endWait(req.stackId, req.logicalId, 'handle');
    }
  },
  update: keepOnUpdate,
  delete: removeOnDelete,
};

/** Counts the handle's signals until `expected` successes, a failure, the deadline or an abort. */
async function awaitHandle(
  world: WorldAccess,
  req: ResourceRequest,
  created: Provisioned,
  wait: { url: string; expected: number; deadline: number },
): Promise<ProviderResult> {
  const { url, expected, deadline } = wait;
  for (;;) {
    const handle = findHandle(world, url);
    const state = (handle?.state ?? {}) as HandleState;
    const signals = Object.values(state.signals ?? {});
    if (state.unparsable) return { ok: false, code: 'InvalidRequest', reason: WAIT_REASONS.unparsable };
    const failure = signals.find((s) => s.Status === 'FAILURE');
    if (failure) return { ok: false, code: 'InvalidRequest', reason: WAIT_REASONS.failure(failure) };
    const successes = signals.filter((s) => s.Status === 'SUCCESS');
    if (successes.length >= expected) return withData(world, req, created, successes);
    const outcome = await req.env!.signals.wait(handle?.name ?? url, deadline, req.signal);
    if (outcome === 'aborted') return { ok: false, code: 'Cancelled', reason: 'Resource creation cancelled' };
    if (outcome === 'timeout')
      return { ok: false, code: 'Timeout', reason: WAIT_REASONS.timeout(successes.length, expected) };
  }
}

// GetAtt Data is a JSON object (as a string) of each signal's UniqueId → Data.
function withData(world: WorldAccess, req: ResourceRequest, created: Provisioned, signals: WaitSignal[]): Provisioned {
  const data = JSON.stringify(Object.fromEntries(signals.map((s) => [s.UniqueId, s.Data ?? ''])));
  const attributes = { ...created.attributes, Data: data };
  const row = world.get(req.type, created.physicalId);
  if (row) world.put({ ...row, attributes });
  return { ...created, attributes };
}
