// Reading the registry: DescribeType of AWS's types (the schema written from the resource specification), ListTypes'
// visibility, filters and paging, and third-party public types activated from the catalogue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActivateTypeCommand,
  DeactivateTypeCommand,
  DescribeTypeCommand,
  ListTypesCommand,
  ListTypeVersionsCommand,
  SetTypeConfigurationCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';
import { s3Client } from '../helpers/s3.js';
import { WIDGET_SCHEMA, registerAndWait } from '../helpers/registry.js';

const ACCOUNT = '000000000000';
const EXAMPLE_PUBLISHER = '0e5a1f7c3d2b4a6980e5a1f7c3d2b4a6980e5a1f';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('DescribeType', () => {
  it("returns an AWS type's schema with its identifiers, read-only and create-only properties", async () => {
    const out = await server.client.send(new DescribeTypeCommand({ Type: 'RESOURCE', TypeName: 'AWS::S3::Bucket' }));
    expect(out).toMatchObject({
      Arn: 'arn:aws:cloudformation:us-east-1::type/resource/AWS-S3-Bucket',
      Type: 'RESOURCE',
      TypeName: 'AWS::S3::Bucket',
      IsDefaultVersion: true,
      Visibility: 'PUBLIC',
      ProvisioningType: 'FULLY_MUTABLE',
      DeprecatedStatus: 'LIVE',
    });
    const schema = JSON.parse(out.Schema!);
    expect(schema.typeName).toBe('AWS::S3::Bucket');
    expect(schema.primaryIdentifier).toEqual(['/properties/BucketName']);
    expect(schema.createOnlyProperties).toContain('/properties/BucketName');
    expect(schema.readOnlyProperties).toEqual(expect.arrayContaining(['/properties/Arn', '/properties/DomainName']));
    expect(schema.properties.BucketName).toEqual({ type: 'string' });
    expect(schema.properties.Tags).toEqual({ type: 'array', items: { $ref: '#/definitions/Tag' } });
    expect(schema.definitions.VersioningConfiguration.properties.Status.enum).toEqual(['Enabled', 'Suspended']);
    expect(schema.additionalProperties).toBe(false);
  });

  it('finds an AWS type by its ARN', async () => {
    const out = await server.client.send(
      new DescribeTypeCommand({ Arn: 'arn:aws:cloudformation:us-east-1::type/resource/AWS-SQS-Queue' }),
    );
    expect(out.TypeName).toBe('AWS::SQS::Queue');
  });

  it("answers TypeNotFoundException with AWS's text for an unknown type", async () => {
    const err = await awsErrorOf(
      server.client.send(new DescribeTypeCommand({ Type: 'RESOURCE', TypeName: 'AWS::Nope::Nothing' })),
    );
    expect(err).toEqual({
      code: 'TypeNotFoundException',
      message: "The type 'AWS::Nope::Nothing' cannot be found.",
      status: 404,
    });
  });
});

describe('ListTypes', () => {
  it('lists AWS types when Visibility is PUBLIC, filtered by name prefix and paged', async () => {
    const first = await server.client.send(
      new ListTypesCommand({ Visibility: 'PUBLIC', Type: 'RESOURCE', Filters: { TypeNamePrefix: 'AWS::SQS::' } }),
    );
    expect(first.TypeSummaries!.map((t) => t.TypeName)).toEqual(expect.arrayContaining(['AWS::SQS::Queue']));
    expect(first.TypeSummaries!.every((t) => t.TypeName!.startsWith('AWS::SQS::'))).toBe(true);
    const paged = await server.client.send(
      new ListTypesCommand({ Visibility: 'PUBLIC', Filters: { Category: 'AWS_TYPES' }, MaxResults: 2 }),
    );
    expect(paged.TypeSummaries).toHaveLength(2);
    const next = await server.client.send(
      new ListTypesCommand({
        Visibility: 'PUBLIC',
        Filters: { Category: 'AWS_TYPES' },
        MaxResults: 2,
        NextToken: paged.NextToken,
      }),
    );
    expect(next.TypeSummaries![0].TypeName! > paged.TypeSummaries![1].TypeName!).toBe(true);
  });

  it('lists nothing PRIVATE in a fresh account (PRIVATE is the default visibility)', async () => {
    const out = await server.client.send(new ListTypesCommand({ Type: 'HOOK' }));
    expect(out.TypeSummaries).toEqual([]);
  });

  it('lists the public third-party catalogue', async () => {
    const out = await server.client.send(
      new ListTypesCommand({ Visibility: 'PUBLIC', Filters: { Category: 'THIRD_PARTY' } }),
    );
    expect(out.TypeSummaries!.map((t) => t.TypeName)).toContain('Example::Monitoring::Monitor');
  });

  it('refuses MaxResults over 100', async () => {
    const err = await awsErrorOf(server.client.send(new ListTypesCommand({ MaxResults: 101 })));
    expect(err.code).toBe('ValidationError');
  });
});

describe('ActivateType', () => {
  it('activates a public hook under an alias: it shows in PRIVATE ListTypes and takes a configuration', async () => {
    const { Arn } = await server.client.send(
      new ActivateTypeCommand({
        Type: 'HOOK',
        TypeName: 'Example::Security::BucketEncryptionHook',
        PublisherId: EXAMPLE_PUBLISHER,
        TypeNameAlias: 'MyOrg::Security::Encryption',
      }),
    );
    expect(Arn).toBe(`arn:aws:cloudformation:us-east-1:${ACCOUNT}:type/hook/MyOrg-Security-Encryption`);
    const listed = await server.client.send(new ListTypesCommand({ Visibility: 'PRIVATE', Type: 'HOOK' }));
    expect(listed.TypeSummaries).toEqual([
      expect.objectContaining({
        TypeName: 'MyOrg::Security::Encryption',
        TypeArn: Arn,
        IsActivated: true,
        OriginalTypeName: 'Example::Security::BucketEncryptionHook',
        PublisherId: EXAMPLE_PUBLISHER,
      }),
    ]);
    const described = await server.client.send(new DescribeTypeCommand({ Arn }));
    expect(described).toMatchObject({ IsActivated: true, Visibility: 'PRIVATE', PublicVersionNumber: '1.0.0' });
    expect(JSON.parse(described.ConfigurationSchema!).required).toEqual(['CloudFormationConfiguration']);
    const configured = await server.client.send(
      new SetTypeConfigurationCommand({
        TypeArn: Arn,
        Configuration: JSON.stringify({
          CloudFormationConfiguration: { HookConfiguration: { TargetStacks: 'ALL', FailureMode: 'WARN' } },
        }),
      }),
    );
    expect(configured.ConfigurationArn).toMatch(/:type-configuration\/hook\/MyOrg-Security-Encryption\/default$/);
    const publicView = await server.client.send(
      new DescribeTypeCommand({
        Type: 'HOOK',
        TypeName: 'Example::Security::BucketEncryptionHook',
        PublisherId: EXAMPLE_PUBLISHER,
      }),
    );
    expect(publicView).toMatchObject({ Visibility: 'PUBLIC', IsActivated: true });
  });

  it('DeactivateType removes the activated type', async () => {
    await server.client.send(new DeactivateTypeCommand({ Type: 'HOOK', TypeName: 'MyOrg::Security::Encryption' }));
    const err = await awsErrorOf(
      server.client.send(new DescribeTypeCommand({ Type: 'HOOK', TypeName: 'MyOrg::Security::Encryption' })),
    );
    expect(err.code).toBe('TypeNotFoundException');
  });

  it('answers TypeNotFoundException for a public type the catalogue lacks', async () => {
    const err = await awsErrorOf(
      server.client.send(
        new ActivateTypeCommand({ Type: 'RESOURCE', TypeName: 'Nobody::Has::This', PublisherId: EXAMPLE_PUBLISHER }),
      ),
    );
    expect(err).toMatchObject({
      code: 'TypeNotFoundException',
      message: "The type 'Nobody::Has::This' cannot be found.",
    });
  });
});

describe('ListTypeVersions', () => {
  it("lists a registered type's versions", async () => {
    await registerAndWait(server.client, s3Client(server.endpoint), 'RESOURCE', WIDGET_SCHEMA);
    const out = await server.client.send(
      new ListTypeVersionsCommand({ Type: 'RESOURCE', TypeName: WIDGET_SCHEMA.typeName }),
    );
    expect(out.TypeVersionSummaries).toEqual([
      expect.objectContaining({ VersionId: '00000001', IsDefaultVersion: true, Type: 'RESOURCE' }),
    ]);
  });
});
