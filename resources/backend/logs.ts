// CloudWatch Logs in the backend: AWS::Logs::LogGroup (retention, KMS key, tags).
import { family } from './family.js';
import type { BackendCall, BackendOps } from './provider.js';
import { num, tagMap } from './values.js';

const { sdk, client } = family('logs', (m) => m.CloudWatchLogsClient);

async function retention(call: BackendCall, name: string, days: unknown): Promise<void> {
  const m = await sdk();
  const logs = await client(call);
  if (days === undefined) await logs.send(new m.DeleteRetentionPolicyCommand({ logGroupName: name }));
  else await logs.send(new m.PutRetentionPolicyCommand({ logGroupName: name, retentionInDays: num(days) }));
}

async function find(call: BackendCall, name: string) {
  const m = await sdk();
  const got = await (await client(call)).send(new m.DescribeLogGroupsCommand({ logGroupNamePrefix: name }));
  return got.logGroups?.find((g) => g.logGroupName === name);
}

export const LOG_GROUP: BackendOps = {
  service: 'CloudWatchLogs',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    await (
      await client(call)
    ).send(
      new m.CreateLogGroupCommand({
        logGroupName: call.name,
        kmsKeyId: p.KmsKeyId as string | undefined,
        tags: tagMap(p.Tags),
      }),
    );
    if (p.RetentionInDays !== undefined) await retention(call, call.name, p.RetentionInDays);
    const arn = (await find(call, call.name))?.arn;
    return { physicalId: call.name, attributes: arn ? { Arn: arn } : {} };
  },
  async update(call) {
    if (call.req.properties.RetentionInDays !== call.req.previousProperties?.RetentionInDays) {
      await retention(call, call.physicalId, call.req.properties.RetentionInDays);
    }
  },
  async delete(call) {
    const m = await sdk();
    await (await client(call)).send(new m.DeleteLogGroupCommand({ logGroupName: call.physicalId }));
  },
  async read(call) {
    const group = await find(call, call.physicalId);
    if (!group) return undefined;
    return { LogGroupName: group.logGroupName, RetentionInDays: group.retentionInDays, KmsKeyId: group.kmsKeyId };
  },
};
