// IAM in the backend: AWS::IAM::Role (its trust policy, managed and inline policies) and AWS::IAM::Policy (an
// inline policy put on roles, users and groups). A role's delete detaches and deletes what the template gave it,
// as CloudFormation's handler does; anything attached out of band makes IAM refuse with DeleteConflict.
import type { IAMClient } from '@aws-sdk/client-iam';
import { clientFor } from './clients.js';
import { backendSdk } from './sdk.js';
import type { BackendCall, BackendOps } from './provider.js';
import { isNotFound } from './errors.js';
import { jsonText, num, strings, tagList } from './values.js';

const sdk = async () => backendSdk().iam;
const client = async (call: BackendCall) =>
  clientFor<IAMClient>(call.backend, call.req, 'iam', async () => (await sdk()).IAMClient);

interface InlinePolicy {
  PolicyName: string;
  PolicyDocument: unknown;
}

const inlinePolicies = (value: unknown): InlinePolicy[] => (Array.isArray(value) ? (value as InlinePolicy[]) : []);

async function ignoringMissing(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

async function syncRolePolicies(call: BackendCall, role: string, before: Record<string, unknown>): Promise<void> {
  const m = await sdk();
  const iam = await client(call);
  const p = call.req.properties;
  const managedNow = strings(p.ManagedPolicyArns);
  for (const arn of strings(before.ManagedPolicyArns).filter((a) => !managedNow.includes(a))) {
    await ignoringMissing(() => iam.send(new m.DetachRolePolicyCommand({ RoleName: role, PolicyArn: arn })));
  }
  for (const arn of managedNow) await iam.send(new m.AttachRolePolicyCommand({ RoleName: role, PolicyArn: arn }));
  const inlineNow = inlinePolicies(p.Policies);
  for (const old of inlinePolicies(before.Policies).filter(
    (o) => !inlineNow.some((n) => n.PolicyName === o.PolicyName),
  )) {
    await ignoringMissing(() =>
      iam.send(new m.DeleteRolePolicyCommand({ RoleName: role, PolicyName: old.PolicyName })),
    );
  }
  for (const policy of inlineNow) {
    await iam.send(
      new m.PutRolePolicyCommand({
        RoleName: role,
        PolicyName: policy.PolicyName,
        PolicyDocument: jsonText(policy.PolicyDocument)!,
      }),
    );
  }
}

export const IAM_ROLE: BackendOps = {
  service: 'Iam',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const made = await (
      await client(call)
    ).send(
      new m.CreateRoleCommand({
        RoleName: call.name,
        AssumeRolePolicyDocument: jsonText(p.AssumeRolePolicyDocument)!,
        Path: p.Path as string | undefined,
        Description: p.Description as string | undefined,
        MaxSessionDuration: num(p.MaxSessionDuration),
        PermissionsBoundary: p.PermissionsBoundary as string | undefined,
        Tags: tagList(p.Tags),
      }),
    );
    await syncRolePolicies(call, call.name, {});
    return { physicalId: call.name, attributes: { Arn: made.Role!.Arn, RoleId: made.Role!.RoleId } };
  },
  async update(call) {
    const m = await sdk();
    const iam = await client(call);
    const p = call.req.properties;
    await iam.send(
      new m.UpdateAssumeRolePolicyCommand({
        RoleName: call.physicalId,
        PolicyDocument: jsonText(p.AssumeRolePolicyDocument)!,
      }),
    );
    if (p.Description !== undefined || p.MaxSessionDuration !== undefined) {
      await iam.send(
        new m.UpdateRoleCommand({
          RoleName: call.physicalId,
          Description: p.Description as string | undefined,
          MaxSessionDuration: num(p.MaxSessionDuration),
        }),
      );
    }
    await syncRolePolicies(call, call.physicalId, call.req.previousProperties ?? {});
  },
  async delete(call) {
    const m = await sdk();
    const iam = await client(call);
    const standing = call.world.get(call.req.type, call.physicalId)?.properties ?? call.req.properties;
    for (const arn of strings(standing.ManagedPolicyArns)) {
      await ignoringMissing(() =>
        iam.send(new m.DetachRolePolicyCommand({ RoleName: call.physicalId, PolicyArn: arn })),
      );
    }
    for (const policy of inlinePolicies(standing.Policies)) {
      await ignoringMissing(() =>
        iam.send(new m.DeleteRolePolicyCommand({ RoleName: call.physicalId, PolicyName: policy.PolicyName })),
      );
    }
    await iam.send(new m.DeleteRoleCommand({ RoleName: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const iam = await client(call);
    const { Role } = await iam.send(new m.GetRoleCommand({ RoleName: call.physicalId }));
    const attached = await iam.send(new m.ListAttachedRolePoliciesCommand({ RoleName: call.physicalId }));
    const document = Role?.AssumeRolePolicyDocument;
    return {
      RoleName: Role?.RoleName,
      Path: Role?.Path,
      Description: Role?.Description,
      AssumeRolePolicyDocument: document ? JSON.parse(decodeURIComponent(document)) : undefined,
      ManagedPolicyArns: (attached.AttachedPolicies ?? []).map((a) => a.PolicyArn),
    };
  },
};

type Holder = 'Roles' | 'Users' | 'Groups';

async function putOrDelete(call: BackendCall, holder: Holder, name: string, policy: string, document?: string) {
  const m = await sdk();
  const iam = await client(call);
  if (holder === 'Roles') {
    if (document)
      return iam.send(new m.PutRolePolicyCommand({ RoleName: name, PolicyName: policy, PolicyDocument: document }));
    return ignoringMissing(() => iam.send(new m.DeleteRolePolicyCommand({ RoleName: name, PolicyName: policy })));
  }
  if (holder === 'Users') {
    if (document)
      return iam.send(new m.PutUserPolicyCommand({ UserName: name, PolicyName: policy, PolicyDocument: document }));
    return ignoringMissing(() => iam.send(new m.DeleteUserPolicyCommand({ UserName: name, PolicyName: policy })));
  }
  if (document)
    return iam.send(new m.PutGroupPolicyCommand({ GroupName: name, PolicyName: policy, PolicyDocument: document }));
  return ignoringMissing(() => iam.send(new m.DeleteGroupPolicyCommand({ GroupName: name, PolicyName: policy })));
}

const HOLDERS: readonly Holder[] = ['Roles', 'Users', 'Groups'];

/** An inline policy on each role, user and group it names; its physical id is the generated one, as on AWS. */
export const IAM_POLICY: BackendOps = {
  service: 'Iam',
  nameNotUnique: true,
  async create(call) {
    const p = call.req.properties;
    for (const holder of HOLDERS) {
      for (const name of strings(p[holder]))
        await putOrDelete(call, holder, name, String(p.PolicyName), jsonText(p.PolicyDocument));
    }
    return { physicalId: call.physicalId, attributes: { Id: call.physicalId } };
  },
  async update(call) {
    const p = call.req.properties;
    const before = call.req.previousProperties ?? {};
    for (const holder of HOLDERS) {
      const now = strings(p[holder]);
      for (const name of strings(before[holder])) {
        if (!now.includes(name) || before.PolicyName !== p.PolicyName)
          await putOrDelete(call, holder, name, String(before.PolicyName));
      }
      for (const name of now) await putOrDelete(call, holder, name, String(p.PolicyName), jsonText(p.PolicyDocument));
    }
  },
  async delete(call) {
    const p = call.world.get(call.req.type, call.physicalId)?.properties ?? call.req.properties;
    for (const holder of HOLDERS)
      for (const name of strings(p[holder])) await putOrDelete(call, holder, name, String(p.PolicyName));
  },
  async read(call) {
    const m = await sdk();
    const p = call.req.properties;
    const role = strings(p.Roles)[0];
    if (!role) return { ...p };
    const got = await (
      await client(call)
    ).send(new m.GetRolePolicyCommand({ RoleName: role, PolicyName: String(p.PolicyName) }));
    return { ...p, PolicyDocument: JSON.parse(decodeURIComponent(got.PolicyDocument ?? '{}')) };
  },
};
