// SNS in the backend: AWS::SNS::Topic (with its inline Subscription list), AWS::SNS::Subscription and
// AWS::SNS::TopicPolicy.
import { family } from './family.js';
import type { BackendCall, BackendOps } from './provider.js';
import { stringAttributes, strings, tagList } from './values.js';

const { sdk, client } = family('sns', (m) => m.SNSClient);

const TOPIC_ATTRIBUTES = [
  'DisplayName',
  'KmsMasterKeyId',
  'FifoTopic',
  'ContentBasedDeduplication',
  'SignatureVersion',
  'TracingConfig',
] as const;
const SUBSCRIPTION_ATTRIBUTES = [
  'RawMessageDelivery',
  'FilterPolicy',
  'FilterPolicyScope',
  'RedrivePolicy',
  'DeliveryPolicy',
] as const;

interface Inline {
  Endpoint?: unknown;
  Protocol?: unknown;
}

async function subscribe(call: BackendCall, topicArn: string, protocol: unknown, endpoint: unknown, attributes = {}) {
  const { SubscribeCommand } = await sdk();
  const made = await (
    await client(call)
  ).send(
    new SubscribeCommand({
      TopicArn: topicArn,
      Protocol: String(protocol),
      Endpoint: String(endpoint),
      Attributes: attributes,
      ReturnSubscriptionArn: true,
    }),
  );
  return made.SubscriptionArn!;
}

export const SNS_TOPIC: BackendOps = {
  service: 'Sns',
  async create(call) {
    const { CreateTopicCommand } = await sdk();
    const attributes = stringAttributes(call.req.properties, TOPIC_ATTRIBUTES);
    if (attributes.FifoTopic === 'false') delete attributes.FifoTopic;
    const made = await (
      await client(call)
    ).send(
      new CreateTopicCommand({ Name: call.name, Attributes: attributes, Tags: tagList(call.req.properties.Tags) }),
    );
    const arn = made.TopicArn!;
    const inline = (call.req.properties.Subscription as Inline[] | undefined) ?? [];
    for (const s of inline) await subscribe(call, arn, s.Protocol, s.Endpoint);
    return { physicalId: arn, attributes: { TopicArn: arn, TopicName: call.name } };
  },
  async update(call) {
    const { SetTopicAttributesCommand } = await sdk();
    const sns = await client(call);
    for (const [name, value] of Object.entries(
      stringAttributes(call.req.properties, ['DisplayName', 'KmsMasterKeyId']),
    )) {
      await sns.send(
        new SetTopicAttributesCommand({ TopicArn: call.physicalId, AttributeName: name, AttributeValue: value }),
      );
    }
    const before = ((call.req.previousProperties?.Subscription as Inline[] | undefined) ?? []).map(key);
    for (const s of (call.req.properties.Subscription as Inline[] | undefined) ?? []) {
      if (!before.includes(key(s))) await subscribe(call, call.physicalId, s.Protocol, s.Endpoint);
    }
  },
  async delete(call) {
    const { DeleteTopicCommand, GetTopicAttributesCommand } = await sdk();
    const sns = await client(call);
    // SNS deletes a topic that does not exist without complaint; CloudFormation's handler looks first
    await sns.send(new GetTopicAttributesCommand({ TopicArn: call.physicalId }));
    await sns.send(new DeleteTopicCommand({ TopicArn: call.physicalId }));
  },
  async read(call) {
    const { GetTopicAttributesCommand } = await sdk();
    const got = await (await client(call)).send(new GetTopicAttributesCommand({ TopicArn: call.physicalId }));
    const a = got.Attributes ?? {};
    return {
      TopicName: call.name,
      DisplayName: a.DisplayName || undefined,
      KmsMasterKeyId: a.KmsMasterKeyId,
      FifoTopic: a.FifoTopic === 'true' || undefined,
    };
  },
};

const key = (s: Inline) => `${String(s.Protocol)} ${String(s.Endpoint)}`;

export const SNS_SUBSCRIPTION: BackendOps = {
  service: 'Sns',
  async create(call) {
    const p = call.req.properties;
    const arn = await subscribe(
      call,
      String(p.TopicArn),
      p.Protocol,
      p.Endpoint,
      stringAttributes(p, SUBSCRIPTION_ATTRIBUTES),
    );
    return { physicalId: arn, attributes: { Arn: arn } };
  },
  async update(call) {
    const { SetSubscriptionAttributesCommand } = await sdk();
    const sns = await client(call);
    const now = stringAttributes(call.req.properties, SUBSCRIPTION_ATTRIBUTES);
    for (const [name, value] of Object.entries(now)) {
      await sns.send(
        new SetSubscriptionAttributesCommand({
          SubscriptionArn: call.physicalId,
          AttributeName: name,
          AttributeValue: value,
        }),
      );
    }
  },
  async delete(call) {
    const { UnsubscribeCommand, GetSubscriptionAttributesCommand } = await sdk();
    const sns = await client(call);
    await sns.send(new GetSubscriptionAttributesCommand({ SubscriptionArn: call.physicalId }));
    await sns.send(new UnsubscribeCommand({ SubscriptionArn: call.physicalId }));
  },
  async read(call) {
    const { GetSubscriptionAttributesCommand } = await sdk();
    const got = await (
      await client(call)
    ).send(new GetSubscriptionAttributesCommand({ SubscriptionArn: call.physicalId }));
    const a = got.Attributes ?? {};
    return {
      TopicArn: a.TopicArn,
      Protocol: a.Protocol,
      Endpoint: a.Endpoint,
      RawMessageDelivery: a.RawMessageDelivery === 'true' || undefined,
      FilterPolicy: a.FilterPolicy ? JSON.parse(a.FilterPolicy) : undefined,
    };
  },
};

/** The policy goes on each listed topic; a delete leaves the topics' last policy (SNS keeps one on every topic). */
export const SNS_TOPIC_POLICY: BackendOps = {
  service: 'Sns',
  async create(call) {
    await setPolicy(
      call,
      strings(call.req.properties.Topics),
      JSON.stringify(call.req.properties.PolicyDocument ?? {}),
    );
    return { physicalId: call.physicalId, attributes: {} };
  },
  async update(call) {
    await setPolicy(
      call,
      strings(call.req.properties.Topics),
      JSON.stringify(call.req.properties.PolicyDocument ?? {}),
    );
  },
  async delete() {},
  async read(call) {
    const { GetTopicAttributesCommand } = await sdk();
    const topics = strings(call.req.properties.Topics);
    const got = await (await client(call)).send(new GetTopicAttributesCommand({ TopicArn: topics[0] }));
    return { Topics: topics, PolicyDocument: got.Attributes?.Policy ? JSON.parse(got.Attributes.Policy) : undefined };
  },
};

async function setPolicy(call: BackendCall, topics: string[], policy: string): Promise<void> {
  const { SetTopicAttributesCommand } = await sdk();
  const sns = await client(call);
  for (const arn of topics) {
    await sns.send(new SetTopicAttributesCommand({ TopicArn: arn, AttributeName: 'Policy', AttributeValue: policy }));
  }
}
