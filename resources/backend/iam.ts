// IAM in the backend: AWS::IAM::Role (its trust policy, managed and inline policies) and AWS::IAM::Policy (an
// inline policy put on roles, users and groups). A role's delete detaches and deletes what the template gave it,
// as CloudFormation's handler does; anything attached out of band makes IAM refuse with DeleteConflict.
import type { BackendOps } from './provider.js';
import { jsonText, num, strings, tagList } from './values.js';
import {
  decodedDocument,
  iam,
  putOrDeleteInline,
  removePrincipalPolicies,
  syncPrincipalPolicies,
  type PrincipalKind,
} from './iamPrincipals.js';

const { sdk, client } = iam;

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
    await syncPrincipalPolicies(call, 'Role', call.name, {});
    return { physicalId: call.name, attributes: { Arn: made.Role!.Arn, RoleId: made.Role!.RoleId } };
  },
  async update(call) {
    const m = await sdk();
    const roles = await client(call);
    const p = call.req.properties;
    await roles.send(
      new m.UpdateAssumeRolePolicyCommand({
        RoleName: call.physicalId,
        PolicyDocument: jsonText(p.AssumeRolePolicyDocument)!,
      }),
    );
    if (p.Description !== undefined || p.MaxSessionDuration !== undefined) {
      await roles.send(
        new m.UpdateRoleCommand({
          RoleName: call.physicalId,
          Description: p.Description as string | undefined,
          MaxSessionDuration: num(p.MaxSessionDuration),
        }),
      );
    }
    await syncPrincipalPolicies(call, 'Role', call.physicalId, call.req.previousProperties ?? {});
  },
  async delete(call) {
    const m = await sdk();
    await removePrincipalPolicies(call, 'Role', call.physicalId);
    await (await client(call)).send(new m.DeleteRoleCommand({ RoleName: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const roles = await client(call);
    const { Role } = await roles.send(new m.GetRoleCommand({ RoleName: call.physicalId }));
    const attached = await roles.send(new m.ListAttachedRolePoliciesCommand({ RoleName: call.physicalId }));
    return {
      RoleName: Role?.RoleName,
      Path: Role?.Path,
      Description: Role?.Description,
      AssumeRolePolicyDocument: decodedDocument(Role?.AssumeRolePolicyDocument),
      ManagedPolicyArns: (attached.AttachedPolicies ?? []).map((a) => a.PolicyArn),
    };
  },
};

const HOLDERS: readonly (readonly [property: string, kind: PrincipalKind])[] = [
  ['Roles', 'Role'],
  ['Users', 'User'],
  ['Groups', 'Group'],
];

/** An inline policy on each role, user and group it names; its physical id is the generated one, as on AWS. */
export const IAM_POLICY: BackendOps = {
  service: 'Iam',
  async create(call) {
    const p = call.req.properties;
    for (const [property, kind] of HOLDERS) {
      for (const name of strings(p[property]))
        await putOrDeleteInline(call, kind, name, String(p.PolicyName), jsonText(p.PolicyDocument));
    }
    return { physicalId: call.physicalId, attributes: { Id: call.physicalId } };
  },
  async update(call) {
    const p = call.req.properties;
    const before = call.req.previousProperties ?? {};
    for (const [property, kind] of HOLDERS) {
      const now = strings(p[property]);
      for (const name of strings(before[property])) {
        if (!now.includes(name) || before.PolicyName !== p.PolicyName)
          await putOrDeleteInline(call, kind, name, String(before.PolicyName));
      }
      for (const name of now)
        await putOrDeleteInline(call, kind, name, String(p.PolicyName), jsonText(p.PolicyDocument));
    }
  },
  async delete(call) {
    const p = call.world.get(call.req.type, call.physicalId)?.properties ?? call.req.properties;
    for (const [property, kind] of HOLDERS)
      for (const name of strings(p[property])) await putOrDeleteInline(call, kind, name, String(p.PolicyName));
  },
  async read(call) {
    const m = await sdk();
    const p = call.req.properties;
    const role = strings(p.Roles)[0];
    if (!role) return { ...p };
    const got = await (
      await client(call)
    ).send(new m.GetRolePolicyCommand({ RoleName: role, PolicyName: String(p.PolicyName) }));
    return { ...p, PolicyDocument: decodedDocument(got.PolicyDocument) ?? {} };
  },
};
