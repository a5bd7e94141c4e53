// SQS in the backend: AWS::SQS::Queue (its attributes, tags, redrive) and AWS::SQS::QueuePolicy.
import { family } from './family.js';
import type { BackendCall, BackendOps } from './provider.js';
import { stringAttributes, strings, tagMap } from './values.js';

const { sdk, client } = family('sqs', (m) => m.SQSClient);

/** The queue properties that are SQS attributes of the same name. */
const QUEUE_ATTRIBUTES = [
  'DelaySeconds',
  'MaximumMessageSize',
  'MessageRetentionPeriod',
  'ReceiveMessageWaitTimeSeconds',
  'VisibilityTimeout',
  'FifoQueue',
  'ContentBasedDeduplication',
  'DeduplicationScope',
  'FifoThroughputLimit',
  'KmsMasterKeyId',
  'KmsDataKeyReusePeriodSeconds',
  'SqsManagedSseEnabled',
  'RedrivePolicy',
  'RedriveAllowPolicy',
] as const;

/** What SQS reads back as a number (the rest stay strings, the two policies objects). */
const NUMERIC = new Set([
  'DelaySeconds',
  'MaximumMessageSize',
  'MessageRetentionPeriod',
  'ReceiveMessageWaitTimeSeconds',
  'VisibilityTimeout',
  'KmsDataKeyReusePeriodSeconds',
]);

async function queueArn(call: BackendCall, url: string): Promise<string> {
  const { GetQueueAttributesCommand } = await sdk();
  const got = await (
    await client(call)
  ).send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  return got.Attributes?.QueueArn ?? '';
}

/**
 * The queue URL on cfn-local's own endpoint, as LocalStack hands out URLs on its edge port: moto writes its own
 * (private, per-start) address into it, and SQS finds a queue by the URL's path alone.
 */
export function onCfnLocal(url: string, endpoint: string | undefined): string {
  if (!endpoint) return url;
  const parsed = new URL(url);
  return `${endpoint.replace(/\/+$/, '')}${parsed.pathname}`;
}

export const SQS_QUEUE: BackendOps = {
  service: 'Sqs',
  async create(call) {
    const { CreateQueueCommand } = await sdk();
    const attributes = stringAttributes(call.req.properties, QUEUE_ATTRIBUTES);
    // SQS refuses FifoQueue=false: a standard queue simply leaves it out
    if (attributes.FifoQueue === 'false') delete attributes.FifoQueue;
    const made = await (
      await client(call)
    ).send(
      new CreateQueueCommand({ QueueName: call.name, Attributes: attributes, tags: tagMap(call.req.properties.Tags) }),
    );
    const url = onCfnLocal(made.QueueUrl!, call.req.env?.endpoint);
    return { physicalId: url, attributes: { Arn: await queueArn(call, url), QueueName: call.name, QueueUrl: url } };
  },
  async update(call) {
    const { SetQueueAttributesCommand } = await sdk();
    const attributes = stringAttributes(call.req.properties, QUEUE_ATTRIBUTES);
    delete attributes.FifoQueue;
    if (Object.keys(attributes).length === 0) return;
    await (
      await client(call)
    ).send(new SetQueueAttributesCommand({ QueueUrl: call.physicalId, Attributes: attributes }));
  },
  async delete(call) {
    const { DeleteQueueCommand } = await sdk();
    await (await client(call)).send(new DeleteQueueCommand({ QueueUrl: call.physicalId }));
  },
  async read(call) {
    const { GetQueueAttributesCommand } = await sdk();
    const got = await (
      await client(call)
    ).send(new GetQueueAttributesCommand({ QueueUrl: call.physicalId, AttributeNames: ['All'] }));
    const out: Record<string, unknown> = { QueueName: call.name };
    for (const name of QUEUE_ATTRIBUTES) {
      const value = got.Attributes?.[name];
      if (value === undefined) continue;
      out[name] = NUMERIC.has(name) ? Number(value) : name.startsWith('Redrive') ? JSON.parse(value) : value;
    }
    return out;
  },
};

/** The policy goes on each listed queue; its physical id is the generated one, as CloudFormation's. */
export const SQS_QUEUE_POLICY: BackendOps = {
  service: 'Sqs',
  async create(call) {
    await setPolicy(
      call,
      strings(call.req.properties.Queues),
      JSON.stringify(call.req.properties.PolicyDocument ?? {}),
    );
    return { physicalId: call.physicalId, attributes: {} };
  },
  async update(call) {
    const before = strings(call.req.previousProperties?.Queues);
    const now = strings(call.req.properties.Queues);
    await setPolicy(
      call,
      before.filter((q) => !now.includes(q)),
      '',
    );
    await setPolicy(call, now, JSON.stringify(call.req.properties.PolicyDocument ?? {}));
  },
  async delete(call) {
    const queues = strings(
      call.world.get(call.req.type, call.physicalId)?.properties.Queues ?? call.req.properties.Queues,
    );
    await setPolicy(call, queues, '', true);
  },
  async read(call) {
    const { GetQueueAttributesCommand } = await sdk();
    const queues = strings(call.req.properties.Queues);
    const got = await (
      await client(call)
    ).send(new GetQueueAttributesCommand({ QueueUrl: queues[0], AttributeNames: ['Policy'] }));
    return { Queues: queues, PolicyDocument: got.Attributes?.Policy ? JSON.parse(got.Attributes.Policy) : undefined };
  },
};

async function setPolicy(call: BackendCall, queues: string[], policy: string, lenient = false): Promise<void> {
  const { SetQueueAttributesCommand } = await sdk();
  const sqs = await client(call);
  for (const url of queues) {
    try {
      await sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { Policy: policy } }));
    } catch (err) {
      // a queue deleted out of band has no policy left to remove
      if (!lenient) throw err;
    }
  }
}
