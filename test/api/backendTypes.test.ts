// --backend <url>, the families beyond the first ones (test/api/backend.test.ts): IAM's users, groups, access keys,
// instance profiles and managed policies; each made, changed, replaced and deleted in a moto_server this file
// starts, its Ref and GetAtt values moto's, and its data reachable through cfn-local's one endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  AttachUserPolicyCommand,
  CreatePolicyCommand,
  GetInstanceProfileCommand,
  GetPolicyCommand,
  GetPolicyVersionCommand,
  GetUserCommand,
  GetUserPolicyCommand,
  IAMClient,
  ListAccessKeysCommand,
  ListEntitiesForPolicyCommand,
  ListGroupsForUserCommand,
} from '@aws-sdk/client-iam';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { startMoto, type TestMoto } from '../helpers/moto.js';
import { createStack, deleteStack } from './worldHelpers.js';
import { providerFor } from '../../resources/registry.js';
import type { ResourceRequest, WorldAccess } from '../../resources/provider.js';

let moto: TestMoto;
let server: TestServer;
beforeAll(async () => {
  moto = await startMoto();
  server = await startServer({ backend: moto.url });
});
afterAll(async () => {
  await server.close();
  await moto.close();
});

const config = (endpoint: string) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
});

async function deploy(name: string, body: string) {
  const { id, stack } = await createStack(server, name, body, { Capabilities: ['CAPABILITY_NAMED_IAM'] });
  expect(stack.StackStatus).toBe('CREATE_COMPLETE');
  return { id, out: outputsOf(stack.Outputs) };
}

const outputsOf = (outputs: { OutputKey?: string; OutputValue?: string }[] | undefined) =>
  Object.fromEntries((outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!]));

async function update(id: string, body: string) {
  await server.client.send(
    new UpdateStackCommand({ StackName: id, TemplateBody: body, Capabilities: ['CAPABILITY_NAMED_IAM'] }),
  );
  const stack = await waitForStack(server.client, id, 30_000);
  expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
  return outputsOf(stack.Outputs);
}

const outputs = (names: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(names).map(([k, v]) => [k, { Value: v }]));

const ref = (logical: string) => ({ Ref: logical });
const att = (logical: string, attribute: string) => ({ 'Fn::GetAtt': [logical, attribute] });

/** The world as the engine's providers see it, for the account and region of the tests (the real store). */
function worldOf(s: TestServer): WorldAccess {
  const w = s.app.store.world;
  const [account, region] = ['000000000000', 'us-east-1'];
  return {
    get: (type, id) => w.get(account, region, type, id),
    byName: (type, name) => w.byName(account, region, type, name),
    put: (r) => w.put(r),
    remove: (type, id) => w.remove(account, region, type, id),
    now: () => new Date().toISOString(),
    random: () => '',
  };
}

function readRequest(type: string, physicalId: string, properties: Record<string, unknown>): ResourceRequest {
  return {
    account: '000000000000',
    region: 'us-east-1',
    partition: 'aws',
    urlSuffix: 'amazonaws.com',
    stackName: 'read',
    stackId: 'read',
    logicalId: 'Read',
    type,
    properties,
    physicalId,
    requestToken: 'read',
    env: { backend: server.app.backend } as ResourceRequest['env'],
  };
}

const DOC = (action: string) => ({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: action, Resource: '*' }],
});
const TRUST = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};

const IAM_APP = (profileName: string, action: string) =>
  JSON.stringify({
    Resources: {
      Role: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: TRUST } },
      Group: { Type: 'AWS::IAM::Group', Properties: { Policies: [{ PolicyName: 'g', PolicyDocument: DOC('s3:*') }] } },
      User: {
        Type: 'AWS::IAM::User',
        Properties: {
          Groups: [ref('Group')],
          Policies: [{ PolicyName: 'inline', PolicyDocument: DOC('sqs:*') }],
          LoginProfile: { Password: 'Pa55word!x', PasswordResetRequired: false },
        },
      },
      Key: { Type: 'AWS::IAM::AccessKey', Properties: { UserName: ref('User') } },
      Managed: {
        Type: 'AWS::IAM::ManagedPolicy',
        Properties: { PolicyDocument: DOC(action), Roles: [ref('Role')], Users: [ref('User')] },
      },
      Profile: {
        Type: 'AWS::IAM::InstanceProfile',
        Properties: { InstanceProfileName: profileName, Roles: [ref('Role')] },
      },
    },
    Outputs: outputs({
      Role: ref('Role'),
      Group: ref('Group'),
      GroupArn: att('Group', 'Arn'),
      User: ref('User'),
      UserArn: att('User', 'Arn'),
      Key: ref('Key'),
      Secret: att('Key', 'SecretAccessKey'),
      Managed: ref('Managed'),
      ManagedId: att('Managed', 'PolicyId'),
      Profile: ref('Profile'),
      ProfileArn: att('Profile', 'Arn'),
    }),
  });

describe('IAM users, groups, access keys, instance profiles and managed policies in the backend', () => {
  const iam = () => new IAMClient(config(server.endpoint));

  it("are made in moto, with Ref and GetAtt as moto answers, and read through cfn-local's endpoint", async () => {
    const { id, out } = await deploy('iam', IAM_APP('iam-profile-a', 'sqs:*'));
    const c = iam();
    const { User } = await c.send(new GetUserCommand({ UserName: out.User }));
    expect(User!.Arn).toBe(out.UserArn);
    expect(out.User).toMatch(/^iam-User-[A-Za-z0-9]{12}$/);
    const groups = await c.send(new ListGroupsForUserCommand({ UserName: out.User }));
    expect(groups.Groups!.map((g) => [g.GroupName, g.Arn])).toEqual([[out.Group, out.GroupArn]]);
    const inline = await c.send(new GetUserPolicyCommand({ UserName: out.User, PolicyName: 'inline' }));
    expect(JSON.parse(decodeURIComponent(inline.PolicyDocument!))).toEqual(DOC('sqs:*'));
    const keys = await c.send(new ListAccessKeysCommand({ UserName: out.User }));
    expect(keys.AccessKeyMetadata!.map((k) => k.AccessKeyId)).toEqual([out.Key]);
    expect(out.Secret.length).toBeGreaterThan(20);
    const { Policy } = await c.send(new GetPolicyCommand({ PolicyArn: out.Managed }));
    expect(Policy!.PolicyId).toBe(out.ManagedId);
    const entities = await c.send(new ListEntitiesForPolicyCommand({ PolicyArn: out.Managed }));
    expect(entities.PolicyRoles!.map((r) => r.RoleName)).toEqual([out.Role]);
    expect(entities.PolicyUsers!.map((u) => u.UserName)).toEqual([out.User]);
    const { InstanceProfile } = await c.send(new GetInstanceProfileCommand({ InstanceProfileName: 'iam-profile-a' }));
    expect(InstanceProfile!.Arn).toBe(out.ProfileArn);
    expect(InstanceProfile!.Roles!.map((r) => r.RoleName)).toEqual([out.Role]);

    // an update: a new default version of the managed policy; a new profile name replaces the profile
    const after = await update(id, IAM_APP('iam-profile-b', 's3:*'));
    const { Policy: changed } = await c.send(new GetPolicyCommand({ PolicyArn: out.Managed }));
    expect(changed!.DefaultVersionId).toBe('v2');
    const version = await c.send(new GetPolicyVersionCommand({ PolicyArn: out.Managed, VersionId: 'v2' }));
    expect(JSON.parse(decodeURIComponent(version.PolicyVersion!.Document!))).toEqual(DOC('s3:*'));
    expect(after.Profile).toBe('iam-profile-b');
    await c.send(new GetInstanceProfileCommand({ InstanceProfileName: 'iam-profile-b' }));
    await expect(c.send(new GetInstanceProfileCommand({ InstanceProfileName: 'iam-profile-a' }))).rejects.toMatchObject(
      {
        name: 'NoSuchEntityException',
      },
    );

    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
    const m = new IAMClient(config(moto.url));
    await expect(m.send(new GetUserCommand({ UserName: out.User }))).rejects.toMatchObject({
      name: 'NoSuchEntityException',
    });
    await expect(m.send(new GetPolicyCommand({ PolicyArn: out.Managed }))).rejects.toMatchObject({
      name: 'NoSuchEntityException',
    });
  });

  it("a provider's read answers the backend's actual properties, changed out of band", async () => {
    const { id, out } = await deploy('iamread', IAM_APP('iam-profile-read', 'sqs:*'));
    const world = worldOf(server);
    const provider = providerFor('AWS::IAM::User');
    const req = readRequest('AWS::IAM::User', out.User, {});
    expect(await provider.read!(world, req)).toMatchObject({ UserName: out.User, Groups: [out.Group] });
    const { Policy } = await new IAMClient(config(moto.url)).send(
      new CreatePolicyCommand({ PolicyName: 'out-of-band', PolicyDocument: JSON.stringify(DOC('sns:*')) }),
    );
    await new IAMClient(config(moto.url)).send(
      new AttachUserPolicyCommand({ UserName: out.User, PolicyArn: Policy!.Arn }),
    );
    expect((await provider.read!(world, req))?.ManagedPolicyArns).toEqual(
      expect.arrayContaining([out.Managed, Policy!.Arn]),
    );
    const managed = await providerFor('AWS::IAM::ManagedPolicy').read!(
      world,
      readRequest('AWS::IAM::ManagedPolicy', out.Managed, {}),
    );
    expect(managed).toMatchObject({ PolicyDocument: DOC('sqs:*'), Roles: [out.Role], Users: [out.User] });
    // attached out of band: IAM refuses the user's delete, as on AWS
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_FAILED');
  });
});
