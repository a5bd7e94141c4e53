// IAM in the backend, beside roles (iam.ts): AWS::IAM::User, Group, AccessKey, InstanceProfile and ManagedPolicy.
// Their deletes take off what the template gave them first, as CloudFormation's handlers do; what was added out
// of band stays, and IAM refuses with DeleteConflict (mapped in errors.ts).
import type { BackendCall, BackendOps } from './provider.js';
import { ignoringMissing } from './family.js';
import { jsonText, strings, tagList } from './values.js';
import {
  decodedDocument,
  iam,
  principalCommands,
  removePrincipalPolicies,
  syncPrincipalPolicies,
} from './iamPrincipals.js';

const { sdk, client } = iam;

async function syncGroups(call: BackendCall, user: string, before: Record<string, unknown>): Promise<void> {
  const m = await sdk();
  const users = await client(call);
  const now = strings(call.req.properties.Groups);
  for (const group of strings(before.Groups).filter((g) => !now.includes(g))) {
    await ignoringMissing(() => users.send(new m.RemoveUserFromGroupCommand({ GroupName: group, UserName: user })));
  }
  for (const group of now) await users.send(new m.AddUserToGroupCommand({ GroupName: group, UserName: user }));
}

interface LoginProfile {
  Password?: unknown;
  PasswordResetRequired?: unknown;
}

const isTrue = (v: unknown) => v === true || v === 'true';

export const IAM_USER: BackendOps = {
  service: 'Iam',
  async create(call) {
    const m = await sdk();
    const users = await client(call);
    const p = call.req.properties;
    const made = await users.send(
      new m.CreateUserCommand({
        UserName: call.name,
        Path: p.Path as string | undefined,
        PermissionsBoundary: p.PermissionsBoundary as string | undefined,
        Tags: tagList(p.Tags),
      }),
    );
    const login = p.LoginProfile as LoginProfile | undefined;
    if (login?.Password !== undefined) {
      await users.send(
        new m.CreateLoginProfileCommand({
          UserName: call.name,
          Password: String(login.Password),
          PasswordResetRequired: isTrue(login.PasswordResetRequired),
        }),
      );
    }
    await syncGroups(call, call.name, {});
    await syncPrincipalPolicies(call, 'User', call.name, {});
    return { physicalId: call.name, attributes: { Arn: made.User!.Arn } };
  },
  async update(call) {
    const before = call.req.previousProperties ?? {};
    await syncGroups(call, call.physicalId, before);
    await syncPrincipalPolicies(call, 'User', call.physicalId, before);
  },
  async delete(call) {
    const m = await sdk();
    const users = await client(call);
    await users.send(new m.GetUserCommand({ UserName: call.physicalId }));
    const standing = call.world.get(call.req.type, call.physicalId)?.properties ?? call.req.properties;
    for (const group of strings(standing.Groups)) {
      await ignoringMissing(() =>
        users.send(new m.RemoveUserFromGroupCommand({ GroupName: group, UserName: call.physicalId })),
      );
    }
    await removePrincipalPolicies(call, 'User', call.physicalId);
    if (standing.LoginProfile)
      await ignoringMissing(() => users.send(new m.DeleteLoginProfileCommand({ UserName: call.physicalId })));
    await users.send(new m.DeleteUserCommand({ UserName: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const users = await client(call);
    const { User } = await users.send(new m.GetUserCommand({ UserName: call.physicalId }));
    const groups = await users.send(new m.ListGroupsForUserCommand({ UserName: call.physicalId }));
    const attached = await users.send(new m.ListAttachedUserPoliciesCommand({ UserName: call.physicalId }));
    return {
      UserName: User?.UserName,
      Path: User?.Path,
      Groups: (groups.Groups ?? []).map((g) => g.GroupName),
      ManagedPolicyArns: (attached.AttachedPolicies ?? []).map((a) => a.PolicyArn),
    };
  },
};

export const IAM_GROUP: BackendOps = {
  service: 'Iam',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const made = await (
      await client(call)
    ).send(new m.CreateGroupCommand({ GroupName: call.name, Path: p.Path as string | undefined }));
    await syncPrincipalPolicies(call, 'Group', call.name, {});
    return { physicalId: call.name, attributes: { Arn: made.Group!.Arn } };
  },
  async update(call) {
    await syncPrincipalPolicies(call, 'Group', call.physicalId, call.req.previousProperties ?? {});
  },
  async delete(call) {
    const m = await sdk();
    await (await client(call)).send(new m.GetGroupCommand({ GroupName: call.physicalId }));
    await removePrincipalPolicies(call, 'Group', call.physicalId);
    await (await client(call)).send(new m.DeleteGroupCommand({ GroupName: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const groups = await client(call);
    const { Group } = await groups.send(new m.GetGroupCommand({ GroupName: call.physicalId }));
    const attached = await groups.send(new m.ListAttachedGroupPoliciesCommand({ GroupName: call.physicalId }));
    return {
      GroupName: Group?.GroupName,
      Path: Group?.Path,
      ManagedPolicyArns: (attached.AttachedPolicies ?? []).map((a) => a.PolicyArn),
    };
  },
};

/** Ref is the access key id; the secret is answered once, at create, and kept as the SecretAccessKey attribute. */
export const IAM_ACCESS_KEY: BackendOps = {
  service: 'Iam',
  async create(call) {
    const m = await sdk();
    const keys = await client(call);
    const p = call.req.properties;
    const { AccessKey } = await keys.send(new m.CreateAccessKeyCommand({ UserName: String(p.UserName) }));
    const id = AccessKey!.AccessKeyId!;
    if (p.Status === 'Inactive') {
      await keys.send(
        new m.UpdateAccessKeyCommand({ UserName: String(p.UserName), AccessKeyId: id, Status: 'Inactive' }),
      );
    }
    return { physicalId: id, attributes: { SecretAccessKey: AccessKey!.SecretAccessKey } };
  },
  async update(call) {
    const m = await sdk();
    const p = call.req.properties;
    await (
      await client(call)
    ).send(
      new m.UpdateAccessKeyCommand({
        UserName: String(p.UserName),
        AccessKeyId: call.physicalId,
        Status: (p.Status ?? 'Active') as never,
      }),
    );
  },
  async delete(call) {
    const m = await sdk();
    const user = String(
      call.world.get(call.req.type, call.physicalId)?.properties.UserName ?? call.req.properties.UserName,
    );
    await (await client(call)).send(new m.DeleteAccessKeyCommand({ UserName: user, AccessKeyId: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const user = String(call.req.properties.UserName);
    const got = await (await client(call)).send(new m.ListAccessKeysCommand({ UserName: user }));
    const key = got.AccessKeyMetadata?.find((k) => k.AccessKeyId === call.physicalId);
    return key ? { UserName: key.UserName, Status: key.Status } : undefined;
  },
};

export const IAM_INSTANCE_PROFILE: BackendOps = {
  service: 'Iam',
  async create(call) {
    const m = await sdk();
    const profiles = await client(call);
    const p = call.req.properties;
    const made = await profiles.send(
      new m.CreateInstanceProfileCommand({ InstanceProfileName: call.name, Path: p.Path as string | undefined }),
    );
    for (const role of strings(p.Roles)) {
      await profiles.send(new m.AddRoleToInstanceProfileCommand({ InstanceProfileName: call.name, RoleName: role }));
    }
    return { physicalId: call.name, attributes: { Arn: made.InstanceProfile!.Arn } };
  },
  async update(call) {
    const m = await sdk();
    const profiles = await client(call);
    const before = strings(call.req.previousProperties?.Roles);
    const now = strings(call.req.properties.Roles);
    for (const role of before.filter((r) => !now.includes(r))) {
      await ignoringMissing(() =>
        profiles.send(
          new m.RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: call.physicalId, RoleName: role }),
        ),
      );
    }
    for (const role of now.filter((r) => !before.includes(r))) {
      await profiles.send(
        new m.AddRoleToInstanceProfileCommand({ InstanceProfileName: call.physicalId, RoleName: role }),
      );
    }
  },
  async delete(call) {
    const m = await sdk();
    const profiles = await client(call);
    const { InstanceProfile } = await profiles.send(
      new m.GetInstanceProfileCommand({ InstanceProfileName: call.physicalId }),
    );
    for (const role of InstanceProfile?.Roles ?? []) {
      await ignoringMissing(() =>
        profiles.send(
          new m.RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: call.physicalId, RoleName: role.RoleName }),
        ),
      );
    }
    await profiles.send(new m.DeleteInstanceProfileCommand({ InstanceProfileName: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const { InstanceProfile } = await (
      await client(call)
    ).send(new m.GetInstanceProfileCommand({ InstanceProfileName: call.physicalId }));
    return {
      InstanceProfileName: InstanceProfile?.InstanceProfileName,
      Path: InstanceProfile?.Path,
      Roles: (InstanceProfile?.Roles ?? []).map((r) => r.RoleName),
    };
  },
};

const ATTACHABLE = [
  ['Roles', 'Role'],
  ['Users', 'User'],
  ['Groups', 'Group'],
] as const;

/** Attaches the policy to what the properties list now and detaches it from what `before` listed only. */
async function syncAttachments(call: BackendCall, arn: string, before: Record<string, unknown>): Promise<void> {
  for (const [property, kind] of ATTACHABLE) {
    const now = strings(call.req.properties[property]);
    for (const name of strings(before[property]).filter((n) => !now.includes(n))) {
      const c = await principalCommands(call, kind, name);
      await ignoringMissing(() => c.detach(arn));
    }
    for (const name of now) await (await principalCommands(call, kind, name)).attach(arn);
  }
}

/** IAM keeps at most five versions of a managed policy: an update drops the oldest non-default one first. */
async function newVersion(call: BackendCall, arn: string): Promise<void> {
  const m = await sdk();
  const policies = await client(call);
  const { Versions } = await policies.send(new m.ListPolicyVersionsCommand({ PolicyArn: arn }));
  const old = (Versions ?? []).filter((v) => !v.IsDefaultVersion);
  if ((Versions ?? []).length >= 5 && old.length > 0) {
    const oldest = old.sort((a, b) => Number(a.CreateDate ?? 0) - Number(b.CreateDate ?? 0))[0];
    await policies.send(new m.DeletePolicyVersionCommand({ PolicyArn: arn, VersionId: oldest.VersionId }));
  }
  await policies.send(
    new m.CreatePolicyVersionCommand({
      PolicyArn: arn,
      PolicyDocument: jsonText(call.req.properties.PolicyDocument)!,
      SetAsDefault: true,
    }),
  );
}

export const IAM_MANAGED_POLICY: BackendOps = {
  service: 'Iam',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const { Policy } = await (
      await client(call)
    ).send(
      new m.CreatePolicyCommand({
        PolicyName: call.name,
        Path: p.Path as string | undefined,
        Description: p.Description as string | undefined,
        PolicyDocument: jsonText(p.PolicyDocument)!,
      }),
    );
    const arn = Policy!.Arn!;
    await syncAttachments(call, arn, {});
    return {
      physicalId: arn,
      attributes: {
        PolicyArn: arn,
        PolicyId: Policy!.PolicyId,
        DefaultVersionId: Policy!.DefaultVersionId,
        IsAttachable: Policy!.IsAttachable,
      },
    };
  },
  async update(call) {
    const m = await sdk();
    const before = call.req.previousProperties ?? {};
    if (JSON.stringify(before.PolicyDocument) !== JSON.stringify(call.req.properties.PolicyDocument))
      await newVersion(call, call.physicalId);
    await syncAttachments(call, call.physicalId, before);
    const { Policy } = await (await client(call)).send(new m.GetPolicyCommand({ PolicyArn: call.physicalId }));
    return { DefaultVersionId: Policy?.DefaultVersionId };
  },
  async delete(call) {
    const m = await sdk();
    const policies = await client(call);
    await policies.send(new m.GetPolicyCommand({ PolicyArn: call.physicalId }));
    const standing = call.world.get(call.req.type, call.physicalId)?.properties ?? call.req.properties;
    await syncAttachments({ ...call, req: { ...call.req, properties: {} } }, call.physicalId, standing);
    const { Versions } = await policies.send(new m.ListPolicyVersionsCommand({ PolicyArn: call.physicalId }));
    for (const v of (Versions ?? []).filter((x) => !x.IsDefaultVersion)) {
      await policies.send(new m.DeletePolicyVersionCommand({ PolicyArn: call.physicalId, VersionId: v.VersionId }));
    }
    await policies.send(new m.DeletePolicyCommand({ PolicyArn: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const policies = await client(call);
    const { Policy } = await policies.send(new m.GetPolicyCommand({ PolicyArn: call.physicalId }));
    const version = await policies.send(
      new m.GetPolicyVersionCommand({ PolicyArn: call.physicalId, VersionId: Policy!.DefaultVersionId }),
    );
    const entities = await policies.send(new m.ListEntitiesForPolicyCommand({ PolicyArn: call.physicalId }));
    return {
      ManagedPolicyName: Policy?.PolicyName,
      Path: Policy?.Path,
      Description: Policy?.Description,
      PolicyDocument: decodedDocument(version.PolicyVersion?.Document),
      Roles: (entities.PolicyRoles ?? []).map((r) => r.RoleName),
      Users: (entities.PolicyUsers ?? []).map((u) => u.UserName),
      Groups: (entities.PolicyGroups ?? []).map((g) => g.GroupName),
    };
  },
};
