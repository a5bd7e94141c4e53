// Secrets Manager in the backend: AWS::SecretsManager::Secret. The value (given, or generated from
// GenerateSecretString as CloudFormation's handler does) is also kept in the world row, so that
// `{{resolve:secretsmanager:…}}` reads it as without a backend.
import { family } from './family.js';
import type { BackendOps } from './provider.js';
import { tagList } from './values.js';
import { secretValue } from '../secretsManager.js';

const { sdk, client } = family('secrets', (m) => m.SecretsManagerClient);

/** A generated value stays unless the generation settings (or an explicit SecretString) change. */
function stored(properties: Record<string, unknown>, before?: Record<string, unknown>): Record<string, unknown> {
  const same =
    before !== undefined &&
    JSON.stringify(properties.GenerateSecretString) === JSON.stringify(before.GenerateSecretString) &&
    properties.SecretString === undefined;
  return { ...properties, SecretString: same ? before.SecretString : secretValue(properties) };
}

export const SECRET: BackendOps = {
  service: 'SecretsManager',
  stored,
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const made = await (
      await client(call)
    ).send(
      new m.CreateSecretCommand({
        Name: call.name,
        Description: p.Description as string | undefined,
        KmsKeyId: p.KmsKeyId as string | undefined,
        SecretString: String(p.SecretString),
        Tags: tagList(p.Tags),
      }),
    );
    return { physicalId: made.ARN!, attributes: { Id: made.ARN } };
  },
  async update(call) {
    const m = await sdk();
    const p = call.req.properties;
    const before = call.req.previousProperties ?? {};
    const valueChanged = p.SecretString !== before.SecretString;
    await (
      await client(call)
    ).send(
      new m.UpdateSecretCommand({
        SecretId: call.physicalId,
        Description: p.Description as string | undefined,
        KmsKeyId: p.KmsKeyId as string | undefined,
        SecretString: valueChanged ? String(p.SecretString) : undefined,
      }),
    );
  },
  async delete(call) {
    const m = await sdk();
    const secrets = await client(call);
    // a secret already deleted (or scheduled for deletion) out of band is gone for CloudFormation
    const got = await secrets.send(new m.DescribeSecretCommand({ SecretId: call.physicalId }));
    if (got.DeletedDate) return;
    await secrets.send(new m.DeleteSecretCommand({ SecretId: call.physicalId, ForceDeleteWithoutRecovery: true }));
  },
  async read(call) {
    const m = await sdk();
    const got = await (await client(call)).send(new m.DescribeSecretCommand({ SecretId: call.physicalId }));
    if (got.DeletedDate) return undefined;
    return { Name: got.Name, Description: got.Description, KmsKeyId: got.KmsKeyId };
  },
};
