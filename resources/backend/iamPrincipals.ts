// What IAM's roles, users and groups share: managed policies attached to them and inline policies put on them, by
// the same calls with Role, User or Group in their names. CloudFormation's handlers sync both lists on create and
// update, and take both off before a delete (what was attached out of band stays, and IAM refuses the delete).
import { family, ignoringMissing } from './family.js';
import type { BackendCall } from './provider.js';
import { jsonText, strings } from './values.js';

export const iam = family('iam', (m) => m.IAMClient);

export type PrincipalKind = 'Role' | 'User' | 'Group';

interface InlinePolicy {
  PolicyName: string;
  PolicyDocument: unknown;
}

export const inlinePolicies = (value: unknown): InlinePolicy[] =>
  Array.isArray(value) ? (value as InlinePolicy[]) : [];

/** The four calls on one principal, each sent to IAM by the call of its kind. */
export async function principalCommands(call: BackendCall, kind: PrincipalKind, name: string) {
  const m = await iam.sdk();
  const c = await iam.client(call);
  return {
    put: (PolicyName: string, PolicyDocument: string): Promise<unknown> =>
      kind === 'Role'
        ? c.send(new m.PutRolePolicyCommand({ RoleName: name, PolicyName, PolicyDocument }))
        : kind === 'User'
          ? c.send(new m.PutUserPolicyCommand({ UserName: name, PolicyName, PolicyDocument }))
          : c.send(new m.PutGroupPolicyCommand({ GroupName: name, PolicyName, PolicyDocument })),
    remove: (PolicyName: string): Promise<unknown> =>
      kind === 'Role'
        ? c.send(new m.DeleteRolePolicyCommand({ RoleName: name, PolicyName }))
        : kind === 'User'
          ? c.send(new m.DeleteUserPolicyCommand({ UserName: name, PolicyName }))
          : c.send(new m.DeleteGroupPolicyCommand({ GroupName: name, PolicyName })),
    attach: (PolicyArn: string): Promise<unknown> =>
      kind === 'Role'
        ? c.send(new m.AttachRolePolicyCommand({ RoleName: name, PolicyArn }))
        : kind === 'User'
          ? c.send(new m.AttachUserPolicyCommand({ UserName: name, PolicyArn }))
          : c.send(new m.AttachGroupPolicyCommand({ GroupName: name, PolicyArn })),
    detach: (PolicyArn: string): Promise<unknown> =>
      kind === 'Role'
        ? c.send(new m.DetachRolePolicyCommand({ RoleName: name, PolicyArn }))
        : kind === 'User'
          ? c.send(new m.DetachUserPolicyCommand({ UserName: name, PolicyArn }))
          : c.send(new m.DetachGroupPolicyCommand({ GroupName: name, PolicyArn })),
  };
}

/** Puts (with a document) or deletes (without) one inline policy of a principal. */
export async function putOrDeleteInline(
  call: BackendCall,
  kind: PrincipalKind,
  name: string,
  policy: string,
  document?: string,
): Promise<void> {
  const c = await principalCommands(call, kind, name);
  if (document) await c.put(policy, document);
  else await ignoringMissing(() => c.remove(policy));
}

/** Attaches and puts what `ManagedPolicyArns` and `Policies` list now, and takes off what `before` listed only. */
export async function syncPrincipalPolicies(
  call: BackendCall,
  kind: PrincipalKind,
  name: string,
  before: Record<string, unknown>,
): Promise<void> {
  const c = await principalCommands(call, kind, name);
  const p = call.req.properties;
  const managedNow = strings(p.ManagedPolicyArns);
  for (const arn of strings(before.ManagedPolicyArns).filter((a) => !managedNow.includes(a))) {
    await ignoringMissing(() => c.detach(arn));
  }
  for (const arn of managedNow) await c.attach(arn);
  const inlineNow = inlinePolicies(p.Policies);
  for (const old of inlinePolicies(before.Policies)) {
    if (!inlineNow.some((n) => n.PolicyName === old.PolicyName)) await ignoringMissing(() => c.remove(old.PolicyName));
  }
  for (const policy of inlineNow) await c.put(policy.PolicyName, jsonText(policy.PolicyDocument)!);
}

/** Before a delete: detaches and deletes what the template gave the principal (its standing properties). */
export async function removePrincipalPolicies(call: BackendCall, kind: PrincipalKind, name: string): Promise<void> {
  const c = await principalCommands(call, kind, name);
  const standing = call.world.get(call.req.type, call.physicalId)?.properties ?? call.req.properties;
  for (const arn of strings(standing.ManagedPolicyArns)) await ignoringMissing(() => c.detach(arn));
  for (const policy of inlinePolicies(standing.Policies)) await ignoringMissing(() => c.remove(policy.PolicyName));
}

/** IAM answers policy documents URL-encoded. */
export const decodedDocument = (document: string | undefined): unknown =>
  document ? JSON.parse(decodeURIComponent(document)) : undefined;
