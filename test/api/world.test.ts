// The simulated account through the SDK and the control API: names stay taken (a Retain leftover, a resource
// created outside any stack), an absent resource counts as deleted, out-of-band edits show, and the values that
// SSM parameter types and dynamic references read live in the world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudFormationClient, CreateStackCommand, DescribeStackResourceCommand } from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { control, createStack, deleteStack, eventLines, resourceEvents, worldRow } from './worldHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const BUCKET = (name: string, policy = 'Delete') => `
Resources:
  Bucket:
    Type: AWS::S3::Bucket
    DeletionPolicy: ${policy}
    Properties:
      BucketName: ${name}
`;

// Pre-deployment validation would refuse these clashes first (test/api/earlyValidation.test.ts): off here, so the
// create itself meets the taken name.
const NO_VALIDATION = { DisableValidation: true };

const ALREADY_EXISTS = (type: string, id: string) =>
  new RegExp(
    `^Resource handler returned message: "Resource of type '${type.replace(/[:]/g, ':')}' with identifier '${id}' already exists\\." \\(RequestToken: [0-9a-f-]{36}, HandlerErrorCode: AlreadyExists\\)$`,
  );

describe('Name uniqueness in the account', () => {
  it('a retained bucket keeps its name taken: a second stack fails with AlreadyExists until it is deleted out of band', async () => {
    const first = await createStack(server, 'keeper', BUCKET('shared-bucket', 'Retain'));
    expect((await deleteStack(server, first.id)).StackStatus).toBe('DELETE_COMPLETE');
    expect(await eventLines(server.client, first.id, 'Bucket')).toContain('DELETE_SKIPPED');
    const leftover = (await control(server, 'GET', '/world/shared-bucket')).body;
    expect(leftover).toMatchObject({ type: 'AWS::S3::Bucket', physicalId: 'shared-bucket' });
    expect(leftover.stackId).toBeUndefined();

    const second = await createStack(server, 'taker', BUCKET('shared-bucket'), NO_VALIDATION);
    expect(second.stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const failed = (await resourceEvents(server.client, second.id, 'Bucket')).find(
      (e) => e.ResourceStatus === 'CREATE_FAILED',
    )!;
    expect(failed.ResourceStatusReason).toMatch(ALREADY_EXISTS('AWS::S3::Bucket', 'shared-bucket'));

    expect((await control(server, 'DELETE', '/world/shared-bucket')).status).toBe(200);
    const third = await createStack(server, 'taker2', BUCKET('shared-bucket'));
    expect(third.stack.StackStatus).toBe('CREATE_COMPLETE');
  });

  it('a resource created outside any stack takes its name, as on AWS (no silent adoption)', async () => {
    const created = await control(server, 'POST', '/world', {
      type: 'AWS::Logs::LogGroup',
      properties: { LogGroupName: '/app/logs' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      physicalId: '/app/logs',
      name: '/app/logs',
      account: '000000000000',
      region: 'us-east-1',
    });
    const { id, stack } = await createStack(
      server,
      'logs',
      'Resources:\n  Logs:\n    Type: AWS::Logs::LogGroup\n    Properties:\n      LogGroupName: /app/logs\n',
      NO_VALIDATION,
    );
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const failed = (await resourceEvents(server.client, id, 'Logs')).find((e) => e.ResourceStatus === 'CREATE_FAILED')!;
    expect(failed.ResourceStatusReason).toMatch(ALREADY_EXISTS('AWS::Logs::LogGroup', '/app/logs'));
    expect(failed.PhysicalResourceId ?? '').toBe('');
  });
  it('two stacks may hold inline IAM policies of the same PolicyName: the id is generated, as on AWS', async () => {
    const body = JSON.stringify({
      Resources: {
        Role: {
          Type: 'AWS::IAM::Role',
          Properties: {
            AssumeRolePolicyDocument: {
              Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
            },
          },
        },
        ParameterStorePolicy: {
          Type: 'AWS::IAM::Policy',
          Properties: {
            PolicyName: 'RoleDefaultPolicy',
            Roles: [{ Ref: 'Role' }],
            PolicyDocument: { Statement: [{ Effect: 'Allow', Action: 'ssm:*', Resource: '*' }] },
          },
        },
      },
      Outputs: { Policy: { Value: { Ref: 'ParameterStorePolicy' } } },
    });
    const ids: string[] = [];
    for (const name of ['dotbase-one', 'dotbase-two']) {
      const { stack } = await createStack(server, name, body, { Capabilities: ['CAPABILITY_IAM'] });
      expect(stack.StackStatus).toBe('CREATE_COMPLETE');
      ids.push(stack.Outputs![0].OutputValue!);
    }
    // 24 characters: five of the stack name, four of the logical id, 13 capitals and digits
    for (const id of ids) expect(id).toMatch(/^dotba-Para-[A-Z0-9]{13}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });
});

describe('Names of global services', () => {
  it('an IAM role name taken in one region fails AlreadyExists in another; a queue name does not', async () => {
    const eu = new CloudFormationClient({
      endpoint: server.endpoint,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    const body = (role: string, queue: string) => `
Resources:
  Role:
    Type: AWS::IAM::Role
    Properties:
      RoleName: ${role}
      AssumeRolePolicyDocument: {}
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: ${queue}
`;
    const iam = { Capabilities: ['CAPABILITY_NAMED_IAM' as const] };
    expect((await createStack(server, 'roles-us', body('deployer', 'jobs-global'), iam)).stack.StackStatus).toBe(
      'CREATE_COMPLETE',
    );
    const { StackId } = await eu.send(
      new CreateStackCommand({
        StackName: 'roles-eu',
        TemplateBody: body('deployer', 'jobs-global'),
        ...iam,
        ...NO_VALIDATION,
      }),
    );
    expect((await waitForStack(eu, StackId!)).StackStatus).toBe('ROLLBACK_COMPLETE');
    const events = await resourceEvents(eu, StackId!, 'Role');
    expect(events.find((e) => e.ResourceStatus === 'CREATE_FAILED')!.ResourceStatusReason).toMatch(
      ALREADY_EXISTS('AWS::IAM::Role', 'deployer'),
    );
    const queue = await resourceEvents(eu, StackId!, 'Queue');
    // A queue name is regional: whatever happens to the queue, it is not a collision.
    expect(queue.find((e) => /AlreadyExists/.test(e.ResourceStatusReason ?? ''))).toBeUndefined();
  });
});

describe('Out-of-band changes', () => {
  it('DeleteStack succeeds for a resource already deleted out of band (an absent resource counts as deleted)', async () => {
    const { id } = await createStack(server, 'gone', 'Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n');
    const queueUrl = (await worldRow(server, 'AWS::SQS::Queue', 'Queue', id)).physicalId;
    expect(queueUrl).toMatch(/^https:\/\/sqs\.us-east-1\.amazonaws\.com\/000000000000\/gone-Queue-/);
    expect((await control(server, 'DELETE', `/world/${encodeURIComponent(queueUrl)}`)).body).toEqual({
      deleted: queueUrl,
      type: 'AWS::SQS::Queue',
    });
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
    expect(await eventLines(server.client, id, 'Queue')).toEqual([
      'CREATE_IN_PROGRESS',
      'CREATE_IN_PROGRESS Resource creation Initiated',
      'CREATE_COMPLETE',
      'DELETE_IN_PROGRESS',
      'DELETE_COMPLETE',
    ]);
  });

  it('PATCH properties edits the physical resource (drift) as a merge patch: null removes a key', async () => {
    const { id } = await createStack(
      server,
      'drifty',
      'Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties:\n      DisplayName: before\n      FifoTopic: false\n',
    );
    const arn = (await worldRow(server, 'AWS::SNS::Topic', 'Topic', id)).physicalId;
    const patched = await control(server, 'PATCH', `/world/${encodeURIComponent(arn)}`, {
      properties: { DisplayName: 'after', FifoTopic: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.properties).toEqual({ DisplayName: 'after' });
    expect(patched.body.stackName).toBe('drifty');
  });
});

describe('Values other features read from the world', () => {
  it('an SSM parameter created over the control API feeds an AWS::SSM::Parameter::Value<String> template parameter', async () => {
    await control(server, 'POST', '/world', {
      type: 'AWS::SSM::Parameter',
      properties: { Name: '/config/size', Type: 'String', Value: 'large' },
    });
    const { stack } = await createStack(
      server,
      'reads-ssm',
      `
Parameters:
  Size:
    Type: AWS::SSM::Parameter::Value<String>
    Default: /config/size
Resources:
  Topic:
    Type: AWS::SNS::Topic
Outputs:
  Size:
    Value: !Ref Size
`,
    );
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(stack.Outputs![0].OutputValue).toBe('large');
  });

  it("a stack's AWS::SSM::Parameter is stored by name with properties.Value", async () => {
    const { id } = await createStack(
      server,
      'writes-ssm',
      'Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Name: /app/color\n      Type: String\n      Value: blue\n',
    );
    const row = (await control(server, 'GET', '/world/%2Fapp%2Fcolor')).body;
    expect(row).toMatchObject({
      type: 'AWS::SSM::Parameter',
      name: '/app/color',
      stackId: id,
      properties: { Value: 'blue' },
    });
  });

  it('an AWS::SecretsManager::Secret stores its generated SecretString in the world; Ref is the ARN with a 6-character suffix', async () => {
    const { id } = await createStack(
      server,
      'secret',
      `
Resources:
  Secret:
    Type: AWS::SecretsManager::Secret
    Properties:
      Name: app/db
      GenerateSecretString:
        SecretStringTemplate: '{"username":"admin"}'
        GenerateStringKey: password
        PasswordLength: 20
        ExcludePunctuation: true
`,
    );
    const { StackResourceDetail } = await server.client.send(
      new DescribeStackResourceCommand({ StackName: id, LogicalResourceId: 'Secret' }),
    );
    expect(StackResourceDetail!.PhysicalResourceId).toMatch(
      /^arn:aws:secretsmanager:us-east-1:000000000000:secret:app\/db-[A-Za-z0-9]{6}$/,
    );
    const row = await worldRow(server, 'AWS::SecretsManager::Secret', 'Secret', id);
    expect(row.name).toBe('app/db');
    const value = JSON.parse(row.properties.SecretString);
    expect(value.username).toBe('admin');
    expect(value.password).toMatch(/^[A-Za-z0-9]{20}$/);
  });
});
