// The IaC generator: a scan lists every resource of the account and region (Retain leftovers as not managed), a
// generated template is written from their actual properties with AWS's policies, and the round trip: a stack
// deleted with Retain, scanned, generated, imported into a new stack, which then owns them with no drift.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateGeneratedTemplateCommand,
  CreateStackCommand,
  DeleteGeneratedTemplateCommand,
  DeleteStackCommand,
  DescribeGeneratedTemplateCommand,
  DescribeResourceScanCommand,
  DescribeStackDriftDetectionStatusCommand,
  DetectStackDriftCommand,
  ExecuteChangeSetCommand,
  GetGeneratedTemplateCommand,
  ListGeneratedTemplatesCommand,
  ListResourceScanRelatedResourcesCommand,
  ListResourceScanResourcesCommand,
  ListResourceScansCommand,
  StartResourceScanCommand,
  UpdateGeneratedTemplateCommand,
  type CloudFormationClient,
  type DescribeGeneratedTemplateCommandOutput,
} from '@aws-sdk/client-cloudformation';
import { parse } from 'yaml';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { waitForChangeSet } from './changeSetsHelpers.js';
import { ManualTimers } from '../helpers/timers.js';

const RETAINED = `Resources:
  Setting:
    Type: AWS::SSM::Parameter
    DeletionPolicy: Retain
    Properties: { Name: /gen/setting, Type: String, Value: kept, Description: left behind }
  Data:
    Type: AWS::S3::Bucket
    DeletionPolicy: Retain
    Properties: { BucketName: gen-data, VersioningConfiguration: { Status: Enabled } }
  Link:
    Type: AWS::SSM::Parameter
    DeletionPolicy: Retain
    Properties: { Name: /gen/bucket, Type: String, Value: !Ref Data }
  Gone:
    Type: AWS::SSM::Parameter
    Properties: { Name: /gen/gone, Type: String, Value: deleted }
`;

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('never settled');
}

const scanned = (client: CloudFormationClient, ResourceScanId: string) =>
  until(
    () => client.send(new DescribeResourceScanCommand({ ResourceScanId })),
    (s) => s.Status !== 'IN_PROGRESS',
  );
const generated = (client: CloudFormationClient, GeneratedTemplateName: string) =>
  until(
    () => client.send(new DescribeGeneratedTemplateCommand({ GeneratedTemplateName })),
    (t: DescribeGeneratedTemplateCommandOutput) => t.Status === 'COMPLETE' || t.Status === 'FAILED',
  );

describe('the IaC generator', () => {
  let server: TestServer;
  let scanId = '';
  beforeAll(async () => {
    server = await startServer();
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'gen-old', TemplateBody: RETAINED }),
    );
    await waitForStack(server.client, 'gen-old');
    await server.client.send(
      new CreateStackCommand({ StackName: 'gen-live', TemplateBody: 'Resources:\n  Q:\n    Type: AWS::SQS::Queue\n' }),
    );
    await waitForStack(server.client, 'gen-live');
    await server.client.send(new DeleteStackCommand({ StackName: 'gen-old' }));
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('DELETE_COMPLETE');
  });
  afterAll(() => server.close());

  it('StartResourceScan lists every resource of the account, Retain leftovers as not managed by a stack', async () => {
    ({ ResourceScanId: scanId } = (await server.client.send(new StartResourceScanCommand({}))) as {
      ResourceScanId: string;
    });
    expect(scanId).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:resourceScan\/[0-9a-f-]{36}$/);
    const scan = await scanned(server.client, scanId);
    expect(scan).toMatchObject({ Status: 'COMPLETE', PercentageCompleted: 100 });
    expect(scan.ResourceTypes).toEqual(['AWS::S3::Bucket', 'AWS::SQS::Queue', 'AWS::SSM::Parameter']);
    const { Resources } = await server.client.send(new ListResourceScanResourcesCommand({ ResourceScanId: scanId }));
    const byId = Object.fromEntries(Resources!.map((r) => [Object.values(r.ResourceIdentifier!)[0], r]));
    expect(byId['/gen/setting']).toEqual({
      ResourceType: 'AWS::SSM::Parameter',
      ResourceIdentifier: { Name: '/gen/setting' },
      ManagedByStack: false,
    });
    expect(byId['gen-data'].ManagedByStack).toBe(false);
    expect(byId['/gen/gone']).toBeUndefined();
    expect(Object.values(byId).find((r) => r.ResourceType === 'AWS::SQS::Queue')!.ManagedByStack).toBe(true);
  });

  it('ListResourceScanResources filters by type prefix; ListResourceScans lists the scan as FULL', async () => {
    const { Resources } = await server.client.send(
      new ListResourceScanResourcesCommand({ ResourceScanId: scanId, ResourceTypePrefix: 'AWS::SSM::' }),
    );
    expect(Resources!.map((r) => r.ResourceType)).toEqual(['AWS::SSM::Parameter', 'AWS::SSM::Parameter']);
    const { ResourceScanSummaries } = await server.client.send(new ListResourceScansCommand({}));
    expect(ResourceScanSummaries![0]).toMatchObject({ ResourceScanId: scanId, Status: 'COMPLETE', ScanType: 'FULL' });
  });

  it('ListResourceScanRelatedResources finds the parameter that names the bucket', async () => {
    const { RelatedResources } = await server.client.send(
      new ListResourceScanRelatedResourcesCommand({
        ResourceScanId: scanId,
        Resources: [{ ResourceType: 'AWS::S3::Bucket', ResourceIdentifier: { BucketName: 'gen-data' } }],
      }),
    );
    expect(RelatedResources).toEqual([
      { ResourceType: 'AWS::SSM::Parameter', ResourceIdentifier: { Name: '/gen/bucket' }, ManagedByStack: false },
    ]);
  });

  it('a partial scan with ScanFilters lists only those types', async () => {
    const { ResourceScanId } = await server.client.send(
      new StartResourceScanCommand({ ScanFilters: [{ Types: ['AWS::S3::*'] }] }),
    );
    const scan = await scanned(server.client, ResourceScanId!);
    expect(scan.ResourceTypes).toEqual(['AWS::S3::Bucket']);
    expect(scan.ScanFilters).toEqual([{ Types: ['AWS::S3::*'] }]);
    const { ResourceScanSummaries } = await server.client.send(
      new ListResourceScansCommand({ ScanTypeFilter: 'PARTIAL' }),
    );
    expect(ResourceScanSummaries!.map((s) => s.ResourceScanId)).toEqual([ResourceScanId]);
  });

  it('round trip: generated template → IMPORT change set → the new stack owns them with no drift', async () => {
    const { GeneratedTemplateId } = await server.client.send(
      new CreateGeneratedTemplateCommand({
        GeneratedTemplateName: 'adopt',
        Resources: [
          { ResourceType: 'AWS::SSM::Parameter', ResourceIdentifier: { Name: '/gen/setting' } },
          { ResourceType: 'AWS::S3::Bucket', ResourceIdentifier: { BucketName: 'gen-data' } },
        ],
      }),
    );
    expect(GeneratedTemplateId).toMatch(/:generatedTemplate\/[0-9a-f-]{36}$/);
    const described = await generated(server.client, 'adopt');
    expect(described).toMatchObject({
      Status: 'COMPLETE',
      StatusReason: 'All resources complete',
      Progress: { ResourcesSucceeded: 2, ResourcesFailed: 0, ResourcesProcessing: 0, ResourcesPending: 0 },
      TemplateConfiguration: { DeletionPolicy: 'RETAIN', UpdateReplacePolicy: 'RETAIN' },
      TotalWarnings: 0,
    });
    expect(described.Resources!.map((r) => [r.LogicalResourceId, r.ResourceStatus, r.ResourceStatusReason])).toEqual([
      ['SSMParameter', 'COMPLETE', 'Resource Template complete'],
      ['S3Bucket', 'COMPLETE', 'Resource Template complete'],
    ]);
    const { TemplateBody } = await server.client.send(
      new GetGeneratedTemplateCommand({ GeneratedTemplateName: 'adopt' }),
    );
    const template = JSON.parse(TemplateBody!);
    expect(template.Resources.SSMParameter).toEqual({
      Type: 'AWS::SSM::Parameter',
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: expect.objectContaining({ Name: '/gen/setting', Value: 'kept', Description: 'left behind' }),
    });
    const yaml = await server.client.send(
      new GetGeneratedTemplateCommand({ GeneratedTemplateName: 'adopt', Format: 'YAML' }),
    );
    expect(parse(yaml.TemplateBody!)).toEqual(template);

    const { Id } = await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'gen-new',
        ChangeSetName: 'adopt',
        ChangeSetType: 'IMPORT',
        TemplateBody,
        ResourcesToImport: described.Resources!.map((r) => ({
          ResourceType: r.ResourceType!,
          LogicalResourceId: r.LogicalResourceId!,
          ResourceIdentifier: r.ResourceIdentifier!,
        })),
      }),
    );
    expect((await waitForChangeSet(server.client, Id!)).Status).toBe('CREATE_COMPLETE');
    await server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: Id }));
    expect((await waitForStack(server.client, 'gen-new')).StackStatus).toBe('IMPORT_COMPLETE');
    const { StackDriftDetectionId } = await server.client.send(new DetectStackDriftCommand({ StackName: 'gen-new' }));
    const drift = await until(
      () => server.client.send(new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId })),
      (s) => s.DetectionStatus !== 'DETECTION_IN_PROGRESS',
    );
    expect(drift).toMatchObject({ DetectionStatus: 'DETECTION_COMPLETE', StackDriftStatus: 'IN_SYNC' });
  });

  it('a template generated for an existing stack keeps its resources and imports the new one into it', async () => {
    const { ResourceScanId } = await server.client.send(new StartResourceScanCommand({}));
    await scanned(server.client, ResourceScanId!);
    const { GeneratedTemplateId } = await server.client.send(
      new CreateGeneratedTemplateCommand({
        GeneratedTemplateName: 'into-live',
        StackName: 'gen-live',
        Resources: [{ ResourceType: 'AWS::SSM::Parameter', ResourceIdentifier: { Name: '/gen/bucket' } }],
      }),
    );
    const described = await generated(server.client, GeneratedTemplateId!);
    expect(described.StackId).toMatch(/:stack\/gen-live\//);
    const { TemplateBody } = await server.client.send(
      new GetGeneratedTemplateCommand({ GeneratedTemplateName: GeneratedTemplateId }),
    );
    expect(Object.keys(JSON.parse(TemplateBody!).Resources)).toEqual(['Q', 'SSMParameter']);
    const { Id } = await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'gen-live',
        ChangeSetName: 'adopt-one',
        ChangeSetType: 'IMPORT',
        TemplateBody,
        ResourcesToImport: [
          {
            ResourceType: 'AWS::SSM::Parameter',
            LogicalResourceId: 'SSMParameter',
            ResourceIdentifier: { Name: '/gen/bucket' },
          },
        ],
      }),
    );
    expect((await waitForChangeSet(server.client, Id!)).Status).toBe('CREATE_COMPLETE');
    await server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: Id }));
    expect((await waitForStack(server.client, 'gen-live')).StackStatus).toBe('IMPORT_COMPLETE');
    await server.client.send(new DeleteGeneratedTemplateCommand({ GeneratedTemplateName: 'into-live' }));
  });

  it('UpdateGeneratedTemplate adds and removes resources and renames; List and Delete', async () => {
    await server.client.send(
      new UpdateGeneratedTemplateCommand({
        GeneratedTemplateName: 'adopt',
        NewGeneratedTemplateName: 'adopted',
        RemoveResources: ['S3Bucket'],
        AddResources: [{ ResourceType: 'AWS::SSM::Parameter', ResourceIdentifier: { Name: '/gen/bucket' } }],
        TemplateConfiguration: { DeletionPolicy: 'DELETE' },
      }),
    );
    const t = await generated(server.client, 'adopted');
    expect(t.Resources!.map((r) => r.LogicalResourceId)).toEqual(['SSMParameter', 'SSMParameter2']);
    expect(t.TemplateConfiguration).toEqual({ DeletionPolicy: 'DELETE', UpdateReplacePolicy: 'RETAIN' });
    const { Summaries } = await server.client.send(new ListGeneratedTemplatesCommand({}));
    expect(Summaries!.map((s) => [s.GeneratedTemplateName, s.NumberOfResources])).toEqual([['adopted', 2]]);
    await server.client.send(new DeleteGeneratedTemplateCommand({ GeneratedTemplateName: 'adopted' }));
    expect((await server.client.send(new ListGeneratedTemplatesCommand({}))).Summaries).toEqual([]);
  });

  it.each([
    [
      'DescribeResourceScan of an unknown scan',
      () =>
        new DescribeResourceScanCommand({
          ResourceScanId: 'arn:aws:cloudformation:us-east-1:000000000000:resourceScan/nope',
        }),
      'ResourceScanNotFoundException',
    ],
    [
      'DescribeGeneratedTemplate of an unknown name',
      () => new DescribeGeneratedTemplateCommand({ GeneratedTemplateName: 'nope' }),
      'GeneratedTemplateNotFoundException',
    ],
    [
      'DeleteGeneratedTemplate of an unknown name',
      () => new DeleteGeneratedTemplateCommand({ GeneratedTemplateName: 'nope' }),
      'GeneratedTemplateNotFoundException',
    ],
  ])('%s is refused', async (_, command, name) => {
    await expect(server.client.send(command() as never)).rejects.toMatchObject({ name });
  });

  it('refuses a template name already taken', async () => {
    await server.client.send(new CreateGeneratedTemplateCommand({ GeneratedTemplateName: 'twice' }));
    await expect(
      server.client.send(new CreateGeneratedTemplateCommand({ GeneratedTemplateName: 'twice' })),
    ).rejects.toMatchObject({ name: 'AlreadyExistsException' });
  });
});

it('refuses a second scan while one runs', async () => {
  const timers = new ManualTimers();
  const server = await startServer({ timers });
  try {
    const { ResourceScanId } = await server.client.send(new StartResourceScanCommand({}));
    await expect(server.client.send(new StartResourceScanCommand({}))).rejects.toMatchObject({
      name: 'ResourceScanInProgressException',
    });
    await expect(server.client.send(new ListResourceScanResourcesCommand({ ResourceScanId }))).rejects.toMatchObject({
      name: 'ResourceScanInProgressException',
    });
    await timers.advance(0);
    expect((await server.client.send(new DescribeResourceScanCommand({ ResourceScanId }))).Status).toBe('COMPLETE');
  } finally {
    await server.close();
  }
});
