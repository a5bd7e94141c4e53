// KMS in the backend: AWS::KMS::Key (description, usage, spec, policy, rotation, enabled) and AWS::KMS::Alias. A
// key's delete schedules its deletion (PendingWindowInDays, 30 by default), as CloudFormation's handler does.
import { family } from './family.js';
import type { BackendCall, BackendOps } from './provider.js';
import { jsonText, num, tagList } from './values.js';

const { sdk, client } = family('kms', (m) => m.KMSClient);

const isFalse = (v: unknown) => v === false || v === 'false';
const isTrue = (v: unknown) => v === true || v === 'true';

async function rotation(call: BackendCall, keyId: string, enabled: unknown): Promise<void> {
  const m = await sdk();
  const keys = await client(call);
  if (isTrue(enabled)) await keys.send(new m.EnableKeyRotationCommand({ KeyId: keyId }));
  else await keys.send(new m.DisableKeyRotationCommand({ KeyId: keyId }));
}

export const KMS_KEY: BackendOps = {
  service: 'Kms',
  async create(call) {
    const m = await sdk();
    const keys = await client(call);
    const p = call.req.properties;
    const { KeyMetadata } = await keys.send(
      new m.CreateKeyCommand({
        Description: p.Description as string | undefined,
        KeyUsage: p.KeyUsage as never,
        KeySpec: p.KeySpec as never,
        Policy: jsonText(p.KeyPolicy),
        MultiRegion: p.MultiRegion === undefined ? undefined : isTrue(p.MultiRegion),
        Tags: tagList(p.Tags)?.map((t) => ({ TagKey: t.Key, TagValue: t.Value })),
      }),
    );
    const id = KeyMetadata!.KeyId!;
    if (isTrue(p.EnableKeyRotation)) await rotation(call, id, true);
    if (isFalse(p.Enabled)) await keys.send(new m.DisableKeyCommand({ KeyId: id }));
    return { physicalId: id, attributes: { Arn: KeyMetadata!.Arn, KeyId: id } };
  },
  async update(call) {
    const m = await sdk();
    const keys = await client(call);
    const p = call.req.properties;
    const before = call.req.previousProperties ?? {};
    const changed = (k: string) => JSON.stringify(p[k]) !== JSON.stringify(before[k]);
    if (changed('Description'))
      await keys.send(
        new m.UpdateKeyDescriptionCommand({ KeyId: call.physicalId, Description: String(p.Description ?? '') }),
      );
    if (changed('KeyPolicy') && p.KeyPolicy !== undefined)
      await keys.send(
        new m.PutKeyPolicyCommand({ KeyId: call.physicalId, PolicyName: 'default', Policy: jsonText(p.KeyPolicy)! }),
      );
    if (changed('EnableKeyRotation')) await rotation(call, call.physicalId, p.EnableKeyRotation);
    if (changed('Enabled')) {
      if (isFalse(p.Enabled)) await keys.send(new m.DisableKeyCommand({ KeyId: call.physicalId }));
      else await keys.send(new m.EnableKeyCommand({ KeyId: call.physicalId }));
    }
  },
  async delete(call) {
    const m = await sdk();
    const keys = await client(call);
    const { KeyMetadata } = await keys.send(new m.DescribeKeyCommand({ KeyId: call.physicalId }));
    // a key already pending deletion is as deleted as CloudFormation makes it
    if (KeyMetadata?.KeyState === 'PendingDeletion') return;
    const days = num(call.world.get(call.req.type, call.physicalId)?.properties.PendingWindowInDays) ?? 30;
    await keys.send(new m.ScheduleKeyDeletionCommand({ KeyId: call.physicalId, PendingWindowInDays: days }));
  },
  async read(call) {
    const m = await sdk();
    const keys = await client(call);
    const { KeyMetadata: k } = await keys.send(new m.DescribeKeyCommand({ KeyId: call.physicalId }));
    if (!k || k.KeyState === 'PendingDeletion') return undefined;
    const rotation = await keys.send(new m.GetKeyRotationStatusCommand({ KeyId: call.physicalId }));
    return {
      Description: k.Description,
      KeyUsage: k.KeyUsage,
      KeySpec: k.KeySpec,
      Enabled: k.Enabled,
      EnableKeyRotation: rotation.KeyRotationEnabled,
      MultiRegion: k.MultiRegion,
    };
  },
};

export const KMS_ALIAS: BackendOps = {
  service: 'Kms',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    await (
      await client(call)
    ).send(new m.CreateAliasCommand({ AliasName: call.name, TargetKeyId: String(p.TargetKeyId) }));
    return { physicalId: call.name, attributes: {} };
  },
  async update(call) {
    const m = await sdk();
    await (
      await client(call)
    ).send(
      new m.UpdateAliasCommand({ AliasName: call.physicalId, TargetKeyId: String(call.req.properties.TargetKeyId) }),
    );
  },
  async delete(call) {
    const m = await sdk();
    await (await client(call)).send(new m.DeleteAliasCommand({ AliasName: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const { Aliases } = await (await client(call)).send(new m.ListAliasesCommand({}));
    const alias = Aliases?.find((a) => a.AliasName === call.physicalId);
    return alias ? { AliasName: alias.AliasName, TargetKeyId: alias.TargetKeyId } : undefined;
  },
};
