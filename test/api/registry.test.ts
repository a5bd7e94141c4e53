// The registry's private types: RegisterType from a handler package in cfn-local's S3 store, the registration's
// progress, DescribeType of the version it made, type configurations (hooks' among them), and the type store the
// hooks read (configuredHooks), kept across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BatchDescribeTypeConfigurationsCommand,
  CloudFormationClient,
  CreateStackCommand,
  DescribeStackResourceCommand,
  UpdateStackCommand,
  DescribeTypeCommand,
  ListTypeRegistrationsCommand,
  RegisterTypeCommand,
  SetTypeConfigurationCommand,
} from '@aws-sdk/client-cloudformation';
import type { S3Client } from '@aws-sdk/client-s3';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { awsErrorOf } from '../helpers/errors.js';
import {
  HOOK_SCHEMA,
  WIDGET_SCHEMA,
  handlerPackage,
  registerAndWait,
  settledRegistration,
  uploadPackage,
} from '../helpers/registry.js';
import { configuredHooks } from '../../state-machine/registry/configuredHooks.js';

const ACCOUNT = '000000000000';
const TYPE_ARN = `arn:aws:cloudformation:us-east-1:${ACCOUNT}:type/resource/MyOrg-Widgets-Widget`;
const HOOK_ARN = `arn:aws:cloudformation:us-east-1:${ACCOUNT}:type/hook/MyOrg-Checks-BucketHook`;
const HOOK_CONFIGURATION = JSON.stringify({
  CloudFormationConfiguration: {
    HookConfiguration: { TargetStacks: 'ALL', FailureMode: 'FAIL', Properties: { Strict: true } },
  },
});

let dir: string;
let server: TestServer;
let s3: S3Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cfn-registry-'));
  server = await startServer({ db: join(dir, 'cfn.db') });
  s3 = s3Client(server.endpoint);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('RegisterType', () => {
  it('registers a resource type from the package zip and completes with version 00000001', async () => {
    const done = await registerAndWait(server.client, s3, 'RESOURCE', WIDGET_SCHEMA);
    expect(done).toMatchObject({
      ProgressStatus: 'COMPLETE',
      TypeArn: TYPE_ARN,
      TypeVersionArn: `${TYPE_ARN}/00000001`,
    });
    const type = await server.client.send(new DescribeTypeCommand({ Arn: TYPE_ARN }));
    expect(type).toMatchObject({
      Arn: `${TYPE_ARN}/00000001`,
      Type: 'RESOURCE',
      TypeName: 'MyOrg::Widgets::Widget',
      DefaultVersionId: '00000001',
      IsDefaultVersion: true,
      Description: WIDGET_SCHEMA.description,
      SourceUrl: WIDGET_SCHEMA.sourceUrl,
      ProvisioningType: 'FULLY_MUTABLE',
      DeprecatedStatus: 'LIVE',
      Visibility: 'PRIVATE',
    });
    expect(JSON.parse(type.Schema!)).toEqual(WIDGET_SCHEMA);
    expect(type.TimeCreated).toBeInstanceOf(Date);
  });

  it('reads a package zipped from the project folder (<org>-<service>-<type>.json at its root)', async () => {
    const schema = { ...WIDGET_SCHEMA, typeName: 'MyOrg::Widgets::Gadget' };
    const url = await uploadPackage(
      s3,
      'registry-packages',
      'gadget.zip',
      handlerPackage(schema, 'myorg-widgets-gadget.json'),
    );
    const { RegistrationToken } = await server.client.send(
      new RegisterTypeCommand({ TypeName: schema.typeName, SchemaHandlerPackage: url }),
    );
    expect((await settledRegistration(server.client, RegistrationToken!)).ProgressStatus).toBe('COMPLETE');
  });

  it('fails the registration when the package does not exist', async () => {
    const { RegistrationToken } = await server.client.send(
      new RegisterTypeCommand({
        Type: 'RESOURCE',
        TypeName: 'MyOrg::Widgets::Missing',
        SchemaHandlerPackage: 's3://registry-packages/nothing-here.zip',
      }),
    );
    const done = await settledRegistration(server.client, RegistrationToken!);
    expect(done.ProgressStatus).toBe('FAILED');
    expect(done.Description).toMatch(/FAILED/);
    const err = await awsErrorOf(
      server.client.send(new DescribeTypeCommand({ Type: 'RESOURCE', TypeName: 'MyOrg::Widgets::Missing' })),
    );
    expect(err).toEqual({
      code: 'TypeNotFoundException',
      message: "The type 'MyOrg::Widgets::Missing' cannot be found.",
      status: 404,
    });
  });

  it('fails the registration when the schema names another type', async () => {
    const url = await uploadPackage(s3, 'registry-packages', 'wrong.zip', handlerPackage(WIDGET_SCHEMA));
    const { RegistrationToken } = await server.client.send(
      new RegisterTypeCommand({ TypeName: 'MyOrg::Widgets::Other', SchemaHandlerPackage: url }),
    );
    const done = await settledRegistration(server.client, RegistrationToken!);
    expect(done.ProgressStatus).toBe('FAILED');
    expect(done.Description).toContain('MyOrg::Widgets::Widget');
  });

  it('ListTypeRegistrations lists completed registrations only when asked for (IN_PROGRESS is the default)', async () => {
    const completed = await server.client.send(
      new ListTypeRegistrationsCommand({ TypeArn: TYPE_ARN, RegistrationStatusFilter: 'COMPLETE' }),
    );
    expect(completed.RegistrationTokenList).toHaveLength(1);
    const byDefault = await server.client.send(
      new ListTypeRegistrationsCommand({ Type: 'RESOURCE', TypeName: 'MyOrg::Widgets::Widget' }),
    );
    expect(byDefault.RegistrationTokenList).toEqual([]);
  });
});

describe('SetTypeConfiguration', () => {
  it('configures a registered hook under the default alias, as BatchDescribeTypeConfigurations shows it', async () => {
    expect((await registerAndWait(server.client, s3, 'HOOK', HOOK_SCHEMA)).TypeArn).toBe(HOOK_ARN);
    const { ConfigurationArn } = await server.client.send(
      new SetTypeConfigurationCommand({ TypeArn: HOOK_ARN, Configuration: HOOK_CONFIGURATION }),
    );
    expect(ConfigurationArn).toBe(
      `arn:aws:cloudformation:us-east-1:${ACCOUNT}:type-configuration/hook/MyOrg-Checks-BucketHook/default`,
    );
    const out = await server.client.send(
      new BatchDescribeTypeConfigurationsCommand({ TypeConfigurationIdentifiers: [{ TypeArn: HOOK_ARN }] }),
    );
    expect(out.Errors).toEqual([]);
    expect(out.TypeConfigurations).toEqual([
      expect.objectContaining({
        Alias: 'default',
        Arn: ConfigurationArn,
        Configuration: HOOK_CONFIGURATION,
        TypeArn: HOOK_ARN,
      }),
    ]);
  });

  it('refuses a hook configuration without FailureMode', async () => {
    const err = await awsErrorOf(
      server.client.send(
        new SetTypeConfigurationCommand({
          Type: 'HOOK',
          TypeName: HOOK_SCHEMA.typeName,
          Configuration: JSON.stringify({
            CloudFormationConfiguration: { HookConfiguration: { TargetStacks: 'ALL' } },
          }),
        }),
      ),
    );
    expect(err.code).toBe('CFNRegistryException');
    expect(err.message).toContain('required key [FailureMode] not found');
  });

  it('takes the documented HookInvocationStatus in place of TargetStacks, and refuses values it does not know', async () => {
    const configure = (hookConfiguration: object) =>
      server.client.send(
        new SetTypeConfigurationCommand({
          Type: 'HOOK',
          TypeName: HOOK_SCHEMA.typeName,
          ConfigurationAlias: 'documented',
          Configuration: JSON.stringify({ CloudFormationConfiguration: { HookConfiguration: hookConfiguration } }),
        }),
      );
    const set = await configure({ HookInvocationStatus: 'ENABLED', TargetOperations: ['STACK'], FailureMode: 'FAIL' });
    expect(set.ConfigurationArn).toContain('/documented');
    for (const [bad, message] of [
      [{ HookInvocationStatus: 'ON', FailureMode: 'FAIL' }, '/HookInvocationStatus: "ON" is not a valid enum value'],
      [
        { HookInvocationStatus: 'ENABLED', TargetOperations: ['STACK', 'LAMBDA'], FailureMode: 'FAIL' },
        '/TargetOperations/1: "LAMBDA" is not a valid enum value',
      ],
      [{ FailureMode: 'FAIL' }, 'required key [TargetStacks] not found'],
    ] as const) {
      const err = await awsErrorOf(configure(bad));
      expect(err).toMatchObject({ code: 'CFNRegistryException', message: expect.stringContaining(message) });
    }
  });

  it('answers TypeNotFoundException for a type that is not registered', async () => {
    const err = await awsErrorOf(
      server.client.send(
        new SetTypeConfigurationCommand({ Type: 'HOOK', TypeName: 'MyOrg::No::Hook', Configuration: '{}' }),
      ),
    );
    expect(err).toMatchObject({
      code: 'TypeNotFoundException',
      message: "The type 'MyOrg::No::Hook' cannot be found.",
    });
  });

  it('BatchDescribeTypeConfigurations refuses an identifier that names nothing, as AWS does', async () => {
    const err = await awsErrorOf(
      server.client.send(new BatchDescribeTypeConfigurationsCommand({ TypeConfigurationIdentifiers: [{}] })),
    );
    expect(err).toMatchObject({
      code: 'ValidationError',
      message:
        "1 validation error detected: Value null at 'typeConfigurationIdentifiers' failed to satisfy constraint: Member must not be null",
    });
  });

  it('configuredHooks gives the hook with its parsed HookConfiguration and handler targets', () => {
    expect(configuredHooks(server.app.store, { account: ACCOUNT, region: 'us-east-1' })).toEqual([
      expect.objectContaining({
        typeName: HOOK_SCHEMA.typeName,
        typeArn: HOOK_ARN,
        configuration: { TargetStacks: 'ALL', FailureMode: 'FAIL', Properties: { Strict: true } },
        handlers: { preCreate: ['AWS::S3::Bucket'] },
      }),
    ]);
    expect(configuredHooks(server.app.store, { account: ACCOUNT, region: 'eu-west-1' })).toEqual([]);
  });
});

describe('a registered resource type in a stack', () => {
  const template = (name: string, size: number) =>
    JSON.stringify({
      Resources: { W: { Type: WIDGET_SCHEMA.typeName, Properties: { Name: name, Size: size } } },
      Outputs: { Ref: { Value: { Ref: 'W' } }, Arn: { Value: { 'Fn::GetAtt': ['W', 'Arn'] } } },
    });
  const physicalId = async () =>
    (await server.client.send(new DescribeStackResourceCommand({ StackName: 'widgets', LogicalResourceId: 'W' })))
      .StackResourceDetail!.PhysicalResourceId!;

  it('deploys through the generic provider: Ref is the primary identifier, read-only properties are attributes', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'widgets', TemplateBody: template('w1', 1) }),
    );
    const stack = await waitForStack(server.client, StackId!);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const outputs = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey, o.OutputValue]));
    expect(outputs.Ref).toBe(await physicalId());
    expect(outputs.Arn).toEqual(expect.any(String));
  });

  it('updates a mutable property in place and replaces on a create-only one', async () => {
    const before = await physicalId();
    const update = async (name: string, size: number) =>
      waitForStack(
        server.client,
        (await server.client.send(new UpdateStackCommand({ StackName: 'widgets', TemplateBody: template(name, size) })))
          .StackId!,
      );
    expect((await update('w1', 2)).StackStatus).toBe('UPDATE_COMPLETE');
    expect(await physicalId()).toBe(before);
    expect((await update('w2', 2)).StackStatus).toBe('UPDATE_COMPLETE');
    expect(await physicalId()).not.toBe(before);
  });

  it('refuses a property the schema lacks, and a missing required one', async () => {
    const body = (properties: object) =>
      JSON.stringify({ Resources: { W: { Type: WIDGET_SCHEMA.typeName, Properties: properties } } });
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'bad-widget', TemplateBody: body({ Name: 'x' }) }),
    );
    const stack = await waitForStack(server.client, StackId!);
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
  });

  it('is unknown in a region it was not registered in', async () => {
    const west = new CloudFormationClient({
      endpoint: server.endpoint,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    const err = await awsErrorOf(west.send(new CreateStackCommand({ StackName: 'w', TemplateBody: template('a', 1) })));
    expect(err).toMatchObject({
      code: 'ValidationError',
      message: `Template format error: Unrecognized resource types: [${WIDGET_SCHEMA.typeName}]`,
    });
  });
});

describe('the type store across a restart', () => {
  it('keeps registered types and configurations', async () => {
    await server.close();
    server = await startServer({ db: join(dir, 'cfn.db') });
    const type = await server.client.send(
      new DescribeTypeCommand({ Type: 'RESOURCE', TypeName: WIDGET_SCHEMA.typeName }),
    );
    expect(type.DefaultVersionId).toBe('00000001');
    expect(configuredHooks(server.app.store, { account: ACCOUNT, region: 'us-east-1' })).toHaveLength(1);
  });
});
