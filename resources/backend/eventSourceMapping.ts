// AWS::Lambda::EventSourceMapping with --backend: the mapping is a world row as before (Lambda is cfn-local's
// own), and one from an SQS queue, a Kinesis stream or a DynamoDB stream is also polled (resources/backend/pollers.ts)
// for as long as it exists.
import { genericProvider } from '../genericProvider.js';
import type { Provider, ProviderResult, ResourceRequest, WorldAccess } from '../provider.js';
import { isPolledSource } from './pollers.js';

function polled(req: ResourceRequest): boolean {
  return req.env?.pollers !== undefined && isPolledSource(req.properties);
}

/** How long a create or update waits for a stream poller's first shard iterators (LATEST is "from now"). */
const READY_MS = 10_000;

/** Marks the row as living in the backend's data plane and (re)starts its poller. */
async function startPolling(world: WorldAccess, req: ResourceRequest, result: ProviderResult): Promise<ProviderResult> {
  if (!result.ok || !polled(req)) return result;
  const row = world.get(req.type, result.physicalId);
  if (row) world.put({ ...row, state: { ...row.state, lives: 'backend' } });
  const ready = req.env!.pollers!.start({
    id: result.physicalId,
    account: req.account,
    region: req.region,
    partition: req.partition,
    properties: req.properties,
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ready, new Promise((resolve) => (timer = setTimeout(resolve, READY_MS)))]);
  clearTimeout(timer);
  return result;
}

export const eventSourceMappingProvider: Provider = {
  ...genericProvider,
  create: (world, req) => startPolling(world, req, genericProvider.create(world, req) as ProviderResult),
  update(world, req) {
    const result = genericProvider.update(world, req) as ProviderResult;
    if (result.ok && !polled(req)) void req.env?.pollers?.stop(result.physicalId);
    return startPolling(world, req, result);
  },
  async delete(world, req) {
    if (req.physicalId) await req.env?.pollers?.stop(req.physicalId);
    return genericProvider.delete(world, req);
  },
};
