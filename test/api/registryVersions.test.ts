// The registry's versions and publishing: DeregisterType and SetTypeDefaultVersion with AWS's recorded refusals,
// RegisterPublisher, TestType and PublishType (the published type activated from another account), the control
// API's catalogue, and RecordHandlerProgress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActivateTypeCommand,
  CloudFormationClient,
  DeregisterTypeCommand,
  DescribePublisherCommand,
  DescribeTypeCommand,
  ListTypesCommand,
  ListTypeVersionsCommand,
  PublishTypeCommand,
  RecordHandlerProgressCommand,
  RegisterPublisherCommand,
  SetTypeDefaultVersionCommand,
  TestTypeCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';
import { s3Client } from '../helpers/s3.js';
import { WIDGET_SCHEMA, registerAndWait } from '../helpers/registry.js';

const TYPE_ARN = 'arn:aws:cloudformation:us-east-1:000000000000:type/resource/MyOrg-Widgets-Widget';
const byName = { Type: 'RESOURCE', TypeName: WIDGET_SCHEMA.typeName } as const;

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  const s3 = s3Client(server.endpoint);
  await registerAndWait(server.client, s3, 'RESOURCE', WIDGET_SCHEMA);
  await registerAndWait(server.client, s3, 'RESOURCE', WIDGET_SCHEMA);
});
afterAll(() => server.close());

describe('DeregisterType', () => {
  it('keeps the first version the default until SetTypeDefaultVersion moves it', async () => {
    const { TypeVersionSummaries } = await server.client.send(new ListTypeVersionsCommand(byName));
    expect(TypeVersionSummaries!.map((v) => [v.VersionId, v.IsDefaultVersion])).toEqual([
      ['00000001', true],
      ['00000002', false],
    ]);
    await server.client.send(new SetTypeDefaultVersionCommand({ Arn: `${TYPE_ARN}/00000002` }));
    expect((await server.client.send(new DescribeTypeCommand(byName))).DefaultVersionId).toBe('00000002');
  });

  it('refuses the whole type while another version is live', async () => {
    expect(await awsErrorOf(server.client.send(new DeregisterTypeCommand(byName)))).toEqual({
      code: 'CFNRegistryException',
      message:
        'This type has more than one active version. Please deregister non-default active versions before attempting to deregister the type.',
      status: 400,
    });
  });

  it('refuses a version the type does not have', async () => {
    const err = await awsErrorOf(server.client.send(new DeregisterTypeCommand({ Arn: `${TYPE_ARN}/00000099` })));
    expect(err).toMatchObject({ code: 'CFNRegistryException', message: 'TypeName is invalid' });
  });

  it('deregisters a non-default version, refuses the default one, then deregisters the type', async () => {
    await server.client.send(new DeregisterTypeCommand({ Arn: `${TYPE_ARN}/00000001` }));
    const err = await awsErrorOf(server.client.send(new DeregisterTypeCommand({ Arn: `${TYPE_ARN}/00000002` })));
    expect(err).toMatchObject({
      code: 'CFNRegistryException',
      message: `Version '00000002' is the default version and cannot be deregistered. Deregister the resource type '${WIDGET_SCHEMA.typeName}' instead.`,
    });
    await server.client.send(new DeregisterTypeCommand(byName));
    expect((await awsErrorOf(server.client.send(new DescribeTypeCommand(byName)))).code).toBe('TypeNotFoundException');
    const deprecated = await server.client.send(new ListTypesCommand({ DeprecatedStatus: 'DEPRECATED' }));
    expect(deprecated.TypeSummaries!.map((t) => t.TypeName)).toEqual([WIDGET_SCHEMA.typeName]);
  });
});

describe('publishing', () => {
  const schema = { ...WIDGET_SCHEMA, typeName: 'MyOrg::Widgets::Shared' };
  const shared = { Type: 'RESOURCE', TypeName: schema.typeName } as const;

  it('RegisterPublisher refuses without accepting the terms, then gives a publisher id', async () => {
    expect((await awsErrorOf(server.client.send(new DescribePublisherCommand({})))).code).toBe('CFNRegistryException');
    expect((await awsErrorOf(server.client.send(new RegisterPublisherCommand({})))).code).toBe('CFNRegistryException');
    const { PublisherId } = await server.client.send(new RegisterPublisherCommand({ AcceptTermsAndConditions: true }));
    expect(PublisherId).toMatch(/^[0-9a-f]{40}$/);
    expect(await server.client.send(new DescribePublisherCommand({}))).toMatchObject({
      PublisherId,
      PublisherStatus: 'VERIFIED',
      IdentityProvider: 'AWS_Marketplace',
    });
  });

  it('PublishType needs TestType first; the published type is public and another account activates it', async () => {
    await registerAndWait(server.client, s3Client(server.endpoint), 'RESOURCE', schema);
    expect((await awsErrorOf(server.client.send(new PublishTypeCommand(shared)))).code).toBe('CFNRegistryException');
    const tested = await server.client.send(new TestTypeCommand(shared));
    expect(tested.TypeVersionArn).toMatch(/type\/resource\/MyOrg-Widgets-Shared\/00000001$/);
    expect((await server.client.send(new DescribeTypeCommand(shared))).TypeTestsStatus).toBe('PASSED');
    const { PublicTypeArn } = await server.client.send(new PublishTypeCommand(shared));
    const { PublisherId } = await server.client.send(new DescribePublisherCommand({}));
    expect(PublicTypeArn).toBe(`arn:aws:cloudformation:us-east-1::type/resource/${PublisherId}/MyOrg-Widgets-Shared`);
    const other = new CloudFormationClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: '111111111111', secretAccessKey: 'test' },
    });
    const listed = await other.send(new ListTypesCommand({ Visibility: 'PUBLIC', Filters: { PublisherId } }));
    expect(listed.TypeSummaries).toEqual([
      expect.objectContaining({ TypeName: schema.typeName, PublicVersionNumber: '1.0.0', IsActivated: false }),
    ]);
    const { Arn } = await other.send(new ActivateTypeCommand({ PublicTypeArn }));
    expect(Arn).toBe('arn:aws:cloudformation:us-east-1:111111111111:type/resource/MyOrg-Widgets-Shared');
  });
});

describe('the control API catalogue', () => {
  it('adds a public type that ActivateType then finds', async () => {
    const entry = {
      type: 'RESOURCE',
      typeName: 'Acme::Things::Thing',
      publisherId: 'abcdef0123456789abcdef0123456789abcdef01',
      schema: { ...WIDGET_SCHEMA, typeName: 'Acme::Things::Thing' },
    };
    const post = await fetch(`${server.endpoint}/_cfn-local/registry/public-types`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(entry),
    });
    expect(post.status).toBe(201);
    const bad = await fetch(`${server.endpoint}/_cfn-local/registry/public-types`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...entry, typeName: 'not a name' }),
    });
    expect(bad.status).toBe(400);
    const { types } = (await (await fetch(`${server.endpoint}/_cfn-local/registry/public-types`)).json()) as {
      types: { typeName: string }[];
    };
    expect(types.map((t) => t.typeName)).toContain('Acme::Things::Thing');
    const { Arn } = await server.client.send(
      new ActivateTypeCommand({ Type: 'RESOURCE', TypeName: entry.typeName, PublisherId: entry.publisherId }),
    );
    expect(Arn).toMatch(/:type\/resource\/Acme-Things-Thing$/);
  });
});

describe('RecordHandlerProgress', () => {
  it('answers OperationStatusCheckFailedException: no handler operation runs', async () => {
    const err = await awsErrorOf(
      server.client.send(new RecordHandlerProgressCommand({ BearerToken: 'token', OperationStatus: 'SUCCESS' })),
    );
    expect(err.code).toMatch(/OperationStatusCheckFailed|ConditionalCheckFailed/);
    expect(err.status).toBe(400);
  });
});
