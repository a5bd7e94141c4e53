// --backend <url>, the families beyond the first ones (test/api/backend.test.ts): IAM's users, groups, access keys,
// instance profiles and managed policies, EventBridge, KMS, Secrets Manager, ECR and CloudWatch alarms; each made, changed, replaced and deleted in a moto_server this file
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
import { EventBridgeClient, PutEventsCommand, DescribeRuleCommand } from '@aws-sdk/client-eventbridge';
import { DecryptCommand, DescribeKeyCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { GetSecretValueCommand, SecretsManagerClient, DescribeSecretCommand } from '@aws-sdk/client-secrets-manager';
import { DescribeRepositoriesCommand, ECRClient } from '@aws-sdk/client-ecr';
import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import {
  CognitoIdentityProviderClient,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { clientConfig, startMoto, type TestMoto } from '../helpers/moto.js';
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
  const iam = () => new IAMClient(clientConfig(server.endpoint));

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
    const m = new IAMClient(clientConfig(moto.url));
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
    const { Policy } = await new IAMClient(clientConfig(moto.url)).send(
      new CreatePolicyCommand({ PolicyName: 'out-of-band', PolicyDocument: JSON.stringify(DOC('sns:*')) }),
    );
    await new IAMClient(clientConfig(moto.url)).send(
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

const SERVICES_APP = (repository: string, threshold: number) =>
  JSON.stringify({
    Resources: {
      Bus: { Type: 'AWS::Events::EventBus', Properties: { Name: 'orders-bus' } },
      Queue: { Type: 'AWS::SQS::Queue' },
      Rule: {
        Type: 'AWS::Events::Rule',
        Properties: {
          EventBusName: ref('Bus'),
          EventPattern: { source: ['app.orders'] },
          Targets: [{ Id: 'queue', Arn: att('Queue', 'Arn') }],
        },
      },
      Key: { Type: 'AWS::KMS::Key', Properties: { Description: 'app key', EnableKeyRotation: true } },
      Alias: { Type: 'AWS::KMS::Alias', Properties: { AliasName: 'alias/app', TargetKeyId: ref('Key') } },
      Secret: {
        Type: 'AWS::SecretsManager::Secret',
        Properties: {
          GenerateSecretString: {
            SecretStringTemplate: '{"user":"app"}',
            GenerateStringKey: 'password',
            PasswordLength: 20,
          },
        },
      },
      // the dynamic reference reads the value cfn-local keeps beside the backend's
      Copy: {
        Type: 'AWS::SSM::Parameter',
        Properties: {
          Type: 'String',
          Value: { 'Fn::Sub': '{{resolve:secretsmanager:${Secret}:SecretString:password}}' },
        },
      },
      Repo: { Type: 'AWS::ECR::Repository', Properties: { RepositoryName: repository, EmptyOnDelete: true } },
      Alarm: {
        Type: 'AWS::CloudWatch::Alarm',
        Properties: {
          MetricName: 'Errors',
          Namespace: 'App',
          Statistic: 'Sum',
          Period: 60,
          EvaluationPeriods: 1,
          Threshold: threshold,
          ComparisonOperator: 'GreaterThanThreshold',
        },
      },
    },
    Outputs: outputs({
      Bus: ref('Bus'),
      BusArn: att('Bus', 'Arn'),
      Rule: ref('Rule'),
      RuleArn: att('Rule', 'Arn'),
      QueueUrl: ref('Queue'),
      Key: ref('Key'),
      KeyArn: att('Key', 'Arn'),
      Alias: ref('Alias'),
      Secret: ref('Secret'),
      Copy: ref('Copy'),
      Repo: ref('Repo'),
      RepoUri: att('Repo', 'RepositoryUri'),
      Alarm: ref('Alarm'),
      AlarmArn: att('Alarm', 'Arn'),
    }),
  });

describe('EventBridge, KMS, Secrets Manager, ECR and CloudWatch in the backend', () => {
  it("are made in moto with its ids, work through cfn-local's endpoint, change, and go with the stack", async () => {
    const { id, out } = await deploy('svc', SERVICES_APP('app-repo-a', 5));
    const at = clientConfig(server.endpoint);

    // a rule on a custom bus: Ref is `bus|name`; an event put on the bus arrives in the target queue
    expect(out.Bus).toBe('orders-bus');
    expect(out.Rule).toMatch(/^orders-bus\|svc-Rule-[A-Za-z0-9]{12}$/);
    const events = new EventBridgeClient(at);
    const rule = await events.send(
      new DescribeRuleCommand({ Name: out.Rule.split('|')[1], EventBusName: 'orders-bus' }),
    );
    expect(rule.Arn).toBe(out.RuleArn);
    await events.send(
      new PutEventsCommand({
        Entries: [{ EventBusName: 'orders-bus', Source: 'app.orders', DetailType: 'placed', Detail: '{"n":1}' }],
      }),
    );
    const got = await new SQSClient(at).send(new ReceiveMessageCommand({ QueueUrl: out.QueueUrl, WaitTimeSeconds: 2 }));
    expect(JSON.parse(got.Messages![0].Body!)).toMatchObject({ source: 'app.orders', detail: { n: 1 } });

    // a key, its alias: encrypt by the alias, decrypt back
    const kms = new KMSClient(at);
    expect((await kms.send(new DescribeKeyCommand({ KeyId: out.Key }))).KeyMetadata!.Arn).toBe(out.KeyArn);
    const sealed = await kms.send(new EncryptCommand({ KeyId: 'alias/app', Plaintext: Buffer.from('hi') }));
    const opened = await kms.send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob }));
    expect(Buffer.from(opened.Plaintext!).toString()).toBe('hi');

    // the generated secret is in moto, and the dynamic reference reads the same value
    const secret = await new SecretsManagerClient(at).send(new GetSecretValueCommand({ SecretId: out.Secret }));
    expect(secret.ARN).toBe(out.Secret);
    expect(secret.Name).toMatch(/^Secret-[A-Za-z0-9]{12}$/);
    const value = JSON.parse(secret.SecretString!);
    expect(value).toMatchObject({ user: 'app' });
    expect(value.password).toHaveLength(20);
    const copy = await new SSMClient(at).send(new GetParameterCommand({ Name: out.Copy }));
    expect(copy.Parameter!.Value).toBe(value.password);

    const ecr = new ECRClient(at);
    const repos = await ecr.send(new DescribeRepositoriesCommand({ repositoryNames: ['app-repo-a'] }));
    expect(repos.repositories![0].repositoryUri).toBe(out.RepoUri);
    const cw = new CloudWatchClient(at);
    const alarms = await cw.send(new DescribeAlarmsCommand({ AlarmNames: [out.Alarm] }));
    expect(alarms.MetricAlarms![0]).toMatchObject({ AlarmArn: out.AlarmArn, Threshold: 5 });

    // in place: the alarm's threshold; a new repository name replaces the repository
    const after = await update(id, SERVICES_APP('app-repo-b', 9));
    expect(after.Alarm).toBe(out.Alarm);
    expect((await cw.send(new DescribeAlarmsCommand({ AlarmNames: [out.Alarm] }))).MetricAlarms![0].Threshold).toBe(9);
    expect(after.Repo).toBe('app-repo-b');
    const names = (await ecr.send(new DescribeRepositoriesCommand({}))).repositories!.map((r) => r.repositoryName);
    expect(names).toContain('app-repo-b');
    expect(names).not.toContain('app-repo-a');
    const kept = await new SecretsManagerClient(at).send(new GetSecretValueCommand({ SecretId: out.Secret }));
    expect(kept.SecretString).toBe(secret.SecretString);

    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
    const m = clientConfig(moto.url);
    expect((await new ECRClient(m).send(new DescribeRepositoriesCommand({}))).repositories).toEqual([]);
    expect((await new CloudWatchClient(m).send(new DescribeAlarmsCommand({}))).MetricAlarms).toEqual([]);
    expect((await new KMSClient(m).send(new DescribeKeyCommand({ KeyId: out.Key }))).KeyMetadata!.KeyState).toBe(
      'PendingDeletion',
    );
    await expect(
      new SecretsManagerClient(m).send(new DescribeSecretCommand({ SecretId: out.Secret })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    await expect(
      new EventBridgeClient(m).send(
        new DescribeRuleCommand({ Name: out.Rule.split('|')[1], EventBusName: 'orders-bus' }),
      ),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });
});

describe('Cognito in the backend', () => {
  it("a user pool and its client are made in moto, read through cfn-local's endpoint, and deleted", async () => {
    const body = JSON.stringify({
      Resources: {
        Pool: { Type: 'AWS::Cognito::UserPool', Properties: { UserPoolName: 'app-users' } },
        Client: {
          Type: 'AWS::Cognito::UserPoolClient',
          Properties: { UserPoolId: ref('Pool'), GenerateSecret: true },
        },
      },
      Outputs: outputs({
        Pool: ref('Pool'),
        PoolArn: att('Pool', 'Arn'),
        Client: ref('Client'),
        Secret: att('Client', 'ClientSecret'),
      }),
    });
    const { id, out } = await deploy('cognito', body);
    const c = new CognitoIdentityProviderClient(clientConfig(server.endpoint));
    const { UserPool } = await c.send(new DescribeUserPoolCommand({ UserPoolId: out.Pool }));
    expect(UserPool).toMatchObject({ Name: 'app-users', Arn: out.PoolArn });
    const { UserPoolClient } = await c.send(
      new DescribeUserPoolClientCommand({ UserPoolId: out.Pool, ClientId: out.Client }),
    );
    expect(UserPoolClient!.ClientSecret).toBe(out.Secret);
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
    await expect(
      new CognitoIdentityProviderClient(clientConfig(moto.url)).send(
        new DescribeUserPoolCommand({ UserPoolId: out.Pool }),
      ),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });
});

describe('EC2 networks in the backend', () => {
  it("a VPC, a subnet and a security group are made in moto, seen through cfn-local's endpoint, and deleted", async () => {
    const body = JSON.stringify({
      Resources: {
        Vpc: { Type: 'AWS::EC2::VPC', Properties: { CidrBlock: '10.40.0.0/16' } },
        Subnet: { Type: 'AWS::EC2::Subnet', Properties: { VpcId: ref('Vpc'), CidrBlock: '10.40.1.0/24' } },
        Group: {
          Type: 'AWS::EC2::SecurityGroup',
          Properties: {
            GroupDescription: 'web',
            VpcId: ref('Vpc'),
            SecurityGroupIngress: [{ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '0.0.0.0/0' }],
          },
        },
      },
      Outputs: outputs({
        Vpc: ref('Vpc'),
        Subnet: ref('Subnet'),
        Group: ref('Group'),
        Default: att('Vpc', 'DefaultSecurityGroup'),
      }),
    });
    const { id, out } = await deploy('net', body);
    const c = new EC2Client(clientConfig(server.endpoint));
    expect((await c.send(new DescribeVpcsCommand({ VpcIds: [out.Vpc] }))).Vpcs![0].CidrBlock).toBe('10.40.0.0/16');
    expect((await c.send(new DescribeSubnetsCommand({ SubnetIds: [out.Subnet] }))).Subnets![0].VpcId).toBe(out.Vpc);
    const { SecurityGroups } = await c.send(new DescribeSecurityGroupsCommand({ GroupIds: [out.Group, out.Default] }));
    const web = SecurityGroups!.find((g) => g.GroupId === out.Group)!;
    expect(web.IpPermissions![0]).toMatchObject({ FromPort: 443, ToPort: 443 });
    expect(SecurityGroups!.find((g) => g.GroupId === out.Default)!.GroupName).toBe('default');
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
    await expect(
      new EC2Client(clientConfig(moto.url)).send(new DescribeVpcsCommand({ VpcIds: [out.Vpc] })),
    ).rejects.toMatchObject({
      name: 'InvalidVpcID.NotFound',
    });
  });
});
