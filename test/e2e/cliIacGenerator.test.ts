// The AWS CLI IaC generator examples of AWS's documentation (awscli/examples/cloudformation: start-resource-scan,
// describe-resource-scan, list-resource-scan-resources, list-resource-scan-related-resources,
// create-generated-template, describe-generated-template, get-generated-template, list-generated-templates,
// delete-generated-template) replayed against cfn-local on resources a deleted stack retained: an IAM role and the
// SSM parameter that names it, both "MyApp" as in the examples; and the user guide's partial scan ("Start a resource
// scan (AWS CLI)"), its config.json as the guide writes it, over a retained bucket and security group. Debian's CLI
// v2.9.19 predates these commands, so the test runs the first CLI that has them (clients.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CreateStackCommand, DeleteStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsCliWith, gate, json, run } from './clients.js';

const found = await awsCliWith('start-resource-scan');
const cli = gate('AWS CLI IaC generator examples', found.availability);

const RETAINED = `Resources:
  Role:
    Type: AWS::IAM::Role
    DeletionPolicy: Retain
    Properties:
      RoleName: MyAppIAMRole
      AssumeRolePolicyDocument:
        Version: '2012-10-17'
        Statement: [{ Effect: Allow, Principal: { Service: lambda.amazonaws.com }, Action: sts:AssumeRole }]
  Setting:
    Type: AWS::SSM::Parameter
    DeletionPolicy: Retain
    Properties: { Name: MyAppParameter, Type: String, Value: MyAppIAMRole }
  Other:
    Type: AWS::SSM::Parameter
    DeletionPolicy: Retain
    Properties: { Name: other-setting, Type: String, Value: unrelated }
  Bucket:
    Type: AWS::S3::Bucket
    DeletionPolicy: Retain
    Properties: { BucketName: guide-scanned-bucket }
  Group:
    Type: AWS::EC2::SecurityGroup
    DeletionPolicy: Retain
    Properties: { GroupDescription: scanned by the guide's partial scan }
`;
const ROLE = { ResourceType: 'AWS::IAM::Role', ResourceIdentifier: { RoleName: 'MyAppIAMRole' } };
const PARAMETER = { ResourceType: 'AWS::SSM::Parameter', ResourceIdentifier: { Name: 'MyAppParameter' } };

describe.skipIf(cli.skip)(cli.title, { timeout: 120_000 }, () => {
  let server: TestServer;
  let dir: string;
  const aws = (...args: string[]) =>
    run(found.cli!, ['--endpoint-url', server.endpoint, '--output', 'json', 'cloudformation', ...args], { cwd: dir });
  let scanId = '';

  beforeAll(async () => {
    server = await startServer();
    dir = mkdtempSync(join(tmpdir(), 'cfn-local-cli-generator-'));
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'my-app', TemplateBody: RETAINED, Capabilities: ['CAPABILITY_NAMED_IAM'] }),
    );
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
    await server.client.send(new DeleteStackCommand({ StackName: StackId }));
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('DELETE_COMPLETE');
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('start-resource-scan answers the scan ARN; describe-resource-scan shows it COMPLETE', async () => {
    const { ResourceScanId } = json(await aws('start-resource-scan'));
    expect(ResourceScanId).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:resourceScan\/[0-9a-f-]{36}$/);
    scanId = ResourceScanId;
    let scan = json(await aws('describe-resource-scan', '--resource-scan-id', scanId));
    for (let i = 0; i < 100 && scan.Status === 'IN_PROGRESS'; i++)
      scan = json(await aws('describe-resource-scan', '--resource-scan-id', scanId));
    expect(scan).toMatchObject({ ResourceScanId: scanId, Status: 'COMPLETE', PercentageCompleted: 100 });
    expect(scan.ResourceTypes).toEqual(expect.arrayContaining(['AWS::IAM::Role', 'AWS::SSM::Parameter']));
    expect(scan.ResourcesRead).toBeGreaterThanOrEqual(3);
    expect(Date.parse(scan.EndTime)).toBeGreaterThanOrEqual(Date.parse(scan.StartTime));
  });

  it("the user guide's partial scan: start-resource-scan --scan-filters file://config.json, then describe it", async () => {
    // "Start a resource scan (AWS CLI)", partial scan: EC2 instances, security groups and every S3 type
    const filters = [{ Types: ['AWS::EC2::Instance', 'AWS::EC2::SecurityGroup', 'AWS::S3::*'] }];
    writeFileSync(join(dir, 'config.json'), JSON.stringify(filters));
    const { ResourceScanId } = json(
      await aws('start-resource-scan', '--scan-filters', 'file://config.json', '--region', 'us-east-1'),
    );
    expect(ResourceScanId).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:resourceScan\/[0-9a-f-]{36}$/);
    const describe = () => aws('describe-resource-scan', '--region', 'us-east-1', '--resource-scan-id', ResourceScanId);
    let scan = json(await describe());
    for (let i = 0; i < 100 && scan.Status === 'IN_PROGRESS'; i++) scan = json(await describe());
    expect(scan).toMatchObject({
      ResourceScanId,
      Status: 'COMPLETE',
      PercentageCompleted: 100,
      ResourceTypes: ['AWS::EC2::SecurityGroup', 'AWS::S3::Bucket'],
      ResourcesRead: 2,
      ScanFilters: filters,
    });
  });

  it('list-resource-scan-resources --resource-identifier MyApp lists the two, not managed by a stack', async () => {
    const { Resources } = json(
      await aws('list-resource-scan-resources', '--resource-scan-id', scanId, '--resource-identifier', 'MyApp'),
    );
    expect(Resources).toHaveLength(2);
    expect(Resources).toEqual(
      expect.arrayContaining([
        { ...ROLE, ManagedByStack: false },
        { ...PARAMETER, ManagedByStack: false },
      ]),
    );
  });

  it('list-resource-scan-related-resources --resources file://resources.json finds the role', async () => {
    writeFileSync(join(dir, 'resources.json'), JSON.stringify([PARAMETER]));
    const { RelatedResources } = json(
      await aws(
        'list-resource-scan-related-resources',
        '--resource-scan-id',
        scanId,
        '--resources',
        'file://resources.json',
      ),
    );
    expect(RelatedResources).toEqual([{ ...ROLE, ManagedByStack: false }]);
  });

  it('create-generated-template, then describe-generated-template shows it COMPLETE as the example does', async () => {
    writeFileSync(
      join(dir, 'resources.json'),
      JSON.stringify([
        { ...ROLE, LogicalResourceId: 'MyRole' },
        { ...PARAMETER, LogicalResourceId: 'MyParameter' },
      ]),
    );
    const created = json(
      await aws(
        'create-generated-template',
        '--generated-template-name',
        'MyTemplate',
        '--resources',
        'file://resources.json',
      ),
    );
    // the example prints Arn and Name; the API's CreateGeneratedTemplateOutput has GeneratedTemplateId alone
    expect(created).toEqual({
      GeneratedTemplateId: expect.stringMatching(
        /^arn:aws:cloudformation:us-east-1:000000000000:generatedTemplate\/[0-9a-f-]{36}$/,
      ),
    });
    let described = json(await aws('describe-generated-template', '--generated-template-name', 'MyTemplate'));
    for (let i = 0; i < 100 && described.Status !== 'COMPLETE' && described.Status !== 'FAILED'; i++)
      described = json(await aws('describe-generated-template', '--generated-template-name', 'MyTemplate'));
    const complete = { ResourceStatus: 'COMPLETE', ResourceStatusReason: 'Resource Template complete', Warnings: [] };
    expect(described).toEqual({
      GeneratedTemplateId: created.GeneratedTemplateId,
      GeneratedTemplateName: 'MyTemplate',
      Resources: [
        { ...ROLE, LogicalResourceId: 'MyRole', ...complete },
        { ...PARAMETER, LogicalResourceId: 'MyParameter', ...complete },
      ],
      Status: 'COMPLETE',
      StatusReason: 'All resources complete',
      CreationTime: expect.any(String),
      LastUpdatedTime: expect.any(String),
      Progress: { ResourcesSucceeded: 2, ResourcesFailed: 0, ResourcesProcessing: 0, ResourcesPending: 0 },
      TemplateConfiguration: { DeletionPolicy: 'RETAIN', UpdateReplacePolicy: 'RETAIN' },
      TotalWarnings: 0,
    });
  });

  it('get-generated-template gives the template, JSON or --format YAML, with the Retain policies', async () => {
    const asJson = json(await aws('get-generated-template', '--generated-template-name', 'MyTemplate'));
    expect(asJson.Status).toBe('COMPLETE');
    const template = JSON.parse(asJson.TemplateBody);
    expect(template.Resources.MyRole).toMatchObject({
      Type: 'AWS::IAM::Role',
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: { RoleName: 'MyAppIAMRole' },
    });
    expect(template.Resources.MyParameter).toMatchObject({
      Type: 'AWS::SSM::Parameter',
      DeletionPolicy: 'Retain',
      Properties: { Name: 'MyAppParameter', Type: 'String', Value: 'MyAppIAMRole' },
    });
    const asYaml = json(
      await aws('get-generated-template', '--generated-template-name', 'MyTemplate', '--format', 'YAML'),
    );
    expect(parseYaml(asYaml.TemplateBody)).toEqual(template);
  });

  it('list-generated-templates lists it; delete-generated-template prints nothing and it is gone', async () => {
    expect(json(await aws('list-generated-templates'))).toEqual({
      Summaries: [
        {
          GeneratedTemplateId: expect.stringContaining(':generatedTemplate/'),
          GeneratedTemplateName: 'MyTemplate',
          Status: 'COMPLETE',
          StatusReason: 'All resources complete',
          CreationTime: expect.any(String),
          LastUpdatedTime: expect.any(String),
          NumberOfResources: 2,
        },
      ],
    });
    const deleted = await aws('delete-generated-template', '--generated-template-name', 'MyTemplate');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe('');
    const gone = await aws('describe-generated-template', '--generated-template-name', 'MyTemplate');
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('GeneratedTemplateNotFound');
    expect(json(await aws('list-generated-templates'))).toEqual({ Summaries: [] });
  });
});
