// DynamoDB in the backend: AWS::DynamoDB::Table, its indexes, billing, stream, TTL and deletion protection.
import { family } from './family.js';
import type { BackendCall, BackendOps } from './provider.js';
import { num, tagList } from './values.js';

const { sdk, client } = family('dynamodb', (m) => m.DynamoDBClient);

type Obj = Record<string, unknown>;

function throughput(value: unknown) {
  const t = value as Obj | undefined;
  return t ? { ReadCapacityUnits: num(t.ReadCapacityUnits), WriteCapacityUnits: num(t.WriteCapacityUnits) } : undefined;
}

function indexes(value: unknown) {
  if (!Array.isArray(value)) return undefined;
  return value.map((i: Obj) => ({ ...i, ProvisionedThroughput: throughput(i.ProvisionedThroughput) }));
}

/** CloudFormation's StreamSpecification has only the view type; the API also wants StreamEnabled. */
function stream(value: unknown) {
  const s = value as Obj | undefined;
  return s?.StreamViewType ? { StreamEnabled: true, StreamViewType: String(s.StreamViewType) as never } : undefined;
}

function sse(value: unknown) {
  const s = value as Obj | undefined;
  if (!s) return undefined;
  return {
    Enabled: String(s.SSEEnabled) === 'true',
    SSEType: s.SSEType as string,
    KMSMasterKeyId: s.KMSMasterKeyId as string,
  };
}

async function describe(call: BackendCall) {
  const { DescribeTableCommand } = await sdk();
  const got = await (await client(call)).send(new DescribeTableCommand({ TableName: call.physicalId }));
  return got.Table!;
}

async function timeToLive(call: BackendCall, ttl: unknown): Promise<void> {
  const t = ttl as Obj | undefined;
  if (!t?.AttributeName) return;
  const { UpdateTimeToLiveCommand } = await sdk();
  await (
    await client(call)
  ).send(
    new UpdateTimeToLiveCommand({
      TableName: call.physicalId,
      TimeToLiveSpecification: { AttributeName: String(t.AttributeName), Enabled: String(t.Enabled) === 'true' },
    }),
  );
}

export const DYNAMODB_TABLE: BackendOps = {
  service: 'DynamoDb',
  async create(call) {
    const { CreateTableCommand } = await sdk();
    const p = call.req.properties;
    const made = await (
      await client(call)
    ).send(
      new CreateTableCommand({
        TableName: call.name,
        AttributeDefinitions: p.AttributeDefinitions as never,
        KeySchema: p.KeySchema as never,
        BillingMode: (p.BillingMode ?? (p.ProvisionedThroughput ? 'PROVISIONED' : undefined)) as never,
        ProvisionedThroughput: throughput(p.ProvisionedThroughput),
        GlobalSecondaryIndexes: indexes(p.GlobalSecondaryIndexes) as never,
        LocalSecondaryIndexes: p.LocalSecondaryIndexes as never,
        StreamSpecification: stream(p.StreamSpecification),
        SSESpecification: sse(p.SSESpecification) as never,
        TableClass: p.TableClass as never,
        DeletionProtectionEnabled:
          p.DeletionProtectionEnabled === undefined ? undefined : String(p.DeletionProtectionEnabled) === 'true',
        Tags: tagList(p.Tags),
      }),
    );
    const table = made.TableDescription!;
    await timeToLive({ ...call, physicalId: call.name }, p.TimeToLiveSpecification);
    return {
      physicalId: call.name,
      attributes: { Arn: table.TableArn, ...(table.LatestStreamArn ? { StreamArn: table.LatestStreamArn } : {}) },
    };
  },
  async update(call) {
    const { UpdateTableCommand } = await sdk();
    const p = call.req.properties;
    const before = call.req.previousProperties ?? {};
    const changed = (k: string) => JSON.stringify(p[k]) !== JSON.stringify(before[k]);
    if (
      changed('BillingMode') ||
      changed('ProvisionedThroughput') ||
      changed('StreamSpecification') ||
      changed('DeletionProtectionEnabled')
    ) {
      await (
        await client(call)
      ).send(
        new UpdateTableCommand({
          TableName: call.physicalId,
          BillingMode: changed('BillingMode') ? (p.BillingMode as never) : undefined,
          ProvisionedThroughput: changed('ProvisionedThroughput') ? throughput(p.ProvisionedThroughput) : undefined,
          StreamSpecification: changed('StreamSpecification')
            ? (stream(p.StreamSpecification) ?? { StreamEnabled: false })
            : undefined,
          DeletionProtectionEnabled: changed('DeletionProtectionEnabled')
            ? String(p.DeletionProtectionEnabled) === 'true'
            : undefined,
        }),
      );
    }
    if (changed('TimeToLiveSpecification')) await timeToLive(call, p.TimeToLiveSpecification);
    const table = await describe(call);
    return table.LatestStreamArn ? { StreamArn: table.LatestStreamArn } : {};
  },
  async delete(call) {
    const { DeleteTableCommand } = await sdk();
    await (await client(call)).send(new DeleteTableCommand({ TableName: call.physicalId }));
  },
  async read(call) {
    const t = await describe(call);
    return {
      TableName: t.TableName,
      AttributeDefinitions: t.AttributeDefinitions,
      KeySchema: t.KeySchema,
      BillingMode: t.BillingModeSummary?.BillingMode,
      StreamSpecification: t.StreamSpecification?.StreamEnabled
        ? { StreamViewType: t.StreamSpecification.StreamViewType }
        : undefined,
      DeletionProtectionEnabled: t.DeletionProtectionEnabled,
    };
  },
};
