// ECR in the backend: AWS::ECR::Repository (tag mutability, scanning, encryption, lifecycle and repository policies).
import { family } from './family.js';
import type { BackendCall, BackendOps } from './provider.js';
import { jsonText, tagList } from './values.js';

const { sdk, client } = family('ecr', (m) => m.ECRClient);

interface Lifecycle {
  LifecyclePolicyText?: string;
  RegistryId?: string;
}

const isTrue = (v: unknown) => v === true || v === 'true';

async function policies(call: BackendCall, name: string, before: Record<string, unknown>): Promise<void> {
  const m = await sdk();
  const repos = await client(call);
  const p = call.req.properties;
  const lifecycle = (p.LifecyclePolicy as Lifecycle | undefined)?.LifecyclePolicyText;
  if (lifecycle && lifecycle !== (before.LifecyclePolicy as Lifecycle | undefined)?.LifecyclePolicyText)
    await repos.send(new m.PutLifecyclePolicyCommand({ repositoryName: name, lifecyclePolicyText: lifecycle }));
  const policy = jsonText(p.RepositoryPolicyText);
  if (policy && policy !== jsonText(before.RepositoryPolicyText))
    await repos.send(new m.SetRepositoryPolicyCommand({ repositoryName: name, policyText: policy }));
}

export const ECR_REPOSITORY: BackendOps = {
  service: 'Ecr',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const scanning = p.ImageScanningConfiguration as { ScanOnPush?: unknown } | undefined;
    const encryption = p.EncryptionConfiguration as { EncryptionType?: string; KmsKey?: string } | undefined;
    const { repository } = await (
      await client(call)
    ).send(
      new m.CreateRepositoryCommand({
        repositoryName: call.name,
        imageTagMutability: p.ImageTagMutability as never,
        imageScanningConfiguration: scanning ? { scanOnPush: isTrue(scanning.ScanOnPush) } : undefined,
        encryptionConfiguration: encryption
          ? { encryptionType: encryption.EncryptionType as never, kmsKey: encryption.KmsKey }
          : undefined,
        tags: tagList(p.Tags),
      }),
    );
    await policies(call, call.name, {});
    return {
      physicalId: call.name,
      attributes: { Arn: repository!.repositoryArn, RepositoryUri: repository!.repositoryUri },
    };
  },
  async update(call) {
    const m = await sdk();
    const repos = await client(call);
    const p = call.req.properties;
    const before = call.req.previousProperties ?? {};
    if (p.ImageTagMutability !== before.ImageTagMutability) {
      await repos.send(
        new m.PutImageTagMutabilityCommand({
          repositoryName: call.physicalId,
          imageTagMutability: (p.ImageTagMutability ?? 'MUTABLE') as never,
        }),
      );
    }
    const scanning = p.ImageScanningConfiguration as { ScanOnPush?: unknown } | undefined;
    if (JSON.stringify(scanning) !== JSON.stringify(before.ImageScanningConfiguration)) {
      await repos.send(
        new m.PutImageScanningConfigurationCommand({
          repositoryName: call.physicalId,
          imageScanningConfiguration: { scanOnPush: isTrue(scanning?.ScanOnPush) },
        }),
      );
    }
    await policies(call, call.physicalId, before);
  },
  async delete(call) {
    const m = await sdk();
    const force = isTrue(call.world.get(call.req.type, call.physicalId)?.properties.EmptyOnDelete);
    await (await client(call)).send(new m.DeleteRepositoryCommand({ repositoryName: call.physicalId, force }));
  },
  async read(call) {
    const m = await sdk();
    const { repositories } = await (
      await client(call)
    ).send(new m.DescribeRepositoriesCommand({ repositoryNames: [call.physicalId] }));
    const r = repositories?.[0];
    if (!r) return undefined;
    return {
      RepositoryName: r.repositoryName,
      ImageTagMutability: r.imageTagMutability,
      ImageScanningConfiguration: { ScanOnPush: r.imageScanningConfiguration?.scanOnPush ?? false },
    };
  },
};
