// Drift detection: out-of-band changes through the served APIs (SSM, Lambda, S3) and the control API's world edits
// show as PropertyDifferences, in the detection's status, and in the DriftInformation of the stack and resource views.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DescribeStackDriftDetectionStatusCommand,
  DescribeStackResourceDriftsCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  DetectStackDriftCommand,
  DetectStackResourceDriftCommand,
  ListStackResourcesCommand,
  ListStacksCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { LambdaClient, UpdateFunctionConfigurationCommand } from '@aws-sdk/client-lambda';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { PutBucketVersioningCommand } from '@aws-sdk/client-s3';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { ManualTimers } from '../helpers/timers.js';
import { putTemplate } from './nestedHelpers.js';

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
const TEMPLATE = `Resources:
  Setting:
    Type: AWS::SSM::Parameter
    Properties: { Name: /drift/setting, Type: String, Value: as-deployed, Tier: Standard }
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: drift-fn
      Runtime: nodejs20.x
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Code: { ZipFile: "exports.handler = async () => 1" }
      MemorySize: 128
      Tags: [{ Key: team, Value: a }, { Key: app, Value: b }]
  Data:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: drift-data
      VersioningConfiguration: { Status: Enabled }
  Handle:
    Type: AWS::CloudFormation::WaitConditionHandle
`;

async function detect(client: CloudFormationClient, StackName: string) {
  const { StackDriftDetectionId } = await client.send(new DetectStackDriftCommand({ StackName }));
  for (let i = 0; i < 500; i++) {
    const status = await client.send(new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId }));
    if (status.DetectionStatus !== 'DETECTION_IN_PROGRESS') return status;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('drift detection never ended');
}

const drifts = async (client: CloudFormationClient, StackName: string) =>
  Object.fromEntries(
    (await client.send(new DescribeStackResourceDriftsCommand({ StackName }))).StackResourceDrifts!.map((d) => [
      d.LogicalResourceId,
      d,
    ]),
  );

describe('drift detection', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await server.client.send(new CreateStackCommand({ StackName: 'drifty', TemplateBody: TEMPLATE }));
    expect((await waitForStack(server.client, 'drifty')).StackStatus).toBe('CREATE_COMPLETE');
  });
  afterAll(() => server.close());

  it('a stack just deployed is IN_SYNC; a type AWS cannot check is NOT_CHECKED', async () => {
    const before = (await server.client.send(new DescribeStacksCommand({ StackName: 'drifty' }))).Stacks![0];
    expect(before.DriftInformation).toEqual({ StackDriftStatus: 'NOT_CHECKED' });
    const status = await detect(server.client, 'drifty');
    expect(status).toMatchObject({ DetectionStatus: 'DETECTION_COMPLETE', StackDriftStatus: 'IN_SYNC' });
    expect(status.DriftedStackResourceCount).toBe(0);
    const all = await drifts(server.client, 'drifty');
    expect(all.Setting.StackResourceDriftStatus).toBe('IN_SYNC');
    expect(all.Handle.StackResourceDriftStatus).toBe('NOT_CHECKED');
    expect(JSON.parse(all.Fn.ExpectedProperties!)).not.toHaveProperty('Code'); // write-only
  });

  it('an SSM PutParameter on the stack’s parameter is a NOT_EQUAL difference, and the stack DRIFTED', async () => {
    const ssm = new SSMClient({ endpoint: server.endpoint, region: 'us-east-1', credentials });
    await ssm.send(new PutParameterCommand({ Name: '/drift/setting', Value: 'changed', Overwrite: true }));
    const status = await detect(server.client, 'drifty');
    expect(status).toMatchObject({ StackDriftStatus: 'DRIFTED', DriftedStackResourceCount: 1 });
    const { Setting } = await drifts(server.client, 'drifty');
    expect(Setting.StackResourceDriftStatus).toBe('MODIFIED');
    expect(Setting.PropertyDifferences).toEqual([
      { PropertyPath: '/Value', ExpectedValue: 'as-deployed', ActualValue: 'changed', DifferenceType: 'NOT_EQUAL' },
    ]);
    expect(JSON.parse(Setting.ExpectedProperties!)).toEqual({
      Name: '/drift/setting',
      Tier: 'Standard',
      Type: 'String',
      Value: 'as-deployed',
    });
    expect(JSON.parse(Setting.ActualProperties!).Value).toBe('changed');
  });

  it('DriftInformation shows in DescribeStacks, ListStacks, DescribeStackResources and ListStackResources', async () => {
    const stack = (await server.client.send(new DescribeStacksCommand({ StackName: 'drifty' }))).Stacks![0];
    expect(stack.DriftInformation!.StackDriftStatus).toBe('DRIFTED');
    expect(stack.DriftInformation!.LastCheckTimestamp).toBeInstanceOf(Date);
    const summary = (await server.client.send(new ListStacksCommand({}))).StackSummaries!.find(
      (s) => s.StackName === 'drifty',
    )!;
    expect(summary.DriftInformation!.StackDriftStatus).toBe('DRIFTED');
    const resources = (await server.client.send(new DescribeStackResourcesCommand({ StackName: 'drifty' })))
      .StackResources!;
    const setting = resources.find((r) => r.LogicalResourceId === 'Setting')!;
    expect(setting.DriftInformation).toMatchObject({ StackResourceDriftStatus: 'MODIFIED' });
    expect(setting.DriftInformation!.LastCheckTimestamp).toBeInstanceOf(Date);
    const listed = (await server.client.send(new ListStackResourcesCommand({ StackName: 'drifty' })))
      .StackResourceSummaries!;
    expect(listed.find((r) => r.LogicalResourceId === 'Handle')!.DriftInformation!.StackResourceDriftStatus).toBe(
      'NOT_CHECKED',
    );
  });

  it('a Lambda UpdateFunctionConfiguration shows in DetectStackResourceDrift; Tags order does not count', async () => {
    const lambda = new LambdaClient({ endpoint: server.endpoint, region: 'us-east-1', credentials });
    await lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'drift-fn', MemorySize: 256 }));
    const { StackResourceDrift } = await server.client.send(
      new DetectStackResourceDriftCommand({ StackName: 'drifty', LogicalResourceId: 'Fn' }),
    );
    expect(StackResourceDrift!.StackResourceDriftStatus).toBe('MODIFIED');
    expect(StackResourceDrift!.PropertyDifferences).toEqual([
      { PropertyPath: '/MemorySize', ExpectedValue: '128', ActualValue: '256', DifferenceType: 'NOT_EQUAL' },
    ]);
  });

  it('an S3 PutBucketVersioning shows as a nested property difference', async () => {
    await s3Client(server.endpoint).send(
      new PutBucketVersioningCommand({ Bucket: 'drift-data', VersioningConfiguration: { Status: 'Suspended' } }),
    );
    const { StackResourceDrift } = await server.client.send(
      new DetectStackResourceDriftCommand({ StackName: 'drifty', LogicalResourceId: 'Data' }),
    );
    expect(StackResourceDrift!.PropertyDifferences).toEqual([
      {
        PropertyPath: '/VersioningConfiguration/Status',
        ExpectedValue: 'Enabled',
        ActualValue: 'Suspended',
        DifferenceType: 'NOT_EQUAL',
      },
    ]);
  });

  it('a resource deleted out of band (control API) is DELETED, without properties', async () => {
    await fetch(`${server.endpoint}/_cfn-local/world/drift-data`, { method: 'DELETE' });
    const status = await detect(server.client, 'drifty');
    expect(status.DriftedStackResourceCount).toBe(3);
    const { Data } = await drifts(server.client, 'drifty');
    expect(Data.StackResourceDriftStatus).toBe('DELETED');
    expect(Data.ExpectedProperties).toBeUndefined();
    expect(Data.ActualProperties).toBeUndefined();
  });

  it('a control API world edit of a property shows as drift', async () => {
    await fetch(`${server.endpoint}/_cfn-local/world/drift-fn`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { Tags: [{ Key: 'app', Value: 'b' }] } }),
    });
    const { StackResourceDrift } = await server.client.send(
      new DetectStackResourceDriftCommand({ StackName: 'drifty', LogicalResourceId: 'Fn' }),
    );
    expect(StackResourceDrift!.PropertyDifferences).toContainEqual({
      PropertyPath: '/Tags/0',
      ExpectedValue: '{"Key":"team","Value":"a"}',
      ActualValue: 'null',
      DifferenceType: 'REMOVE',
    });
  });

  it('DescribeStackResourceDrifts filters by status and pages', async () => {
    const { StackResourceDrifts } = await server.client.send(
      new DescribeStackResourceDriftsCommand({ StackName: 'drifty', StackResourceDriftStatusFilters: ['DELETED'] }),
    );
    expect(StackResourceDrifts!.map((d) => d.LogicalResourceId)).toEqual(['Data']);
    const first = await server.client.send(
      new DescribeStackResourceDriftsCommand({ StackName: 'drifty', MaxResults: 1 }),
    );
    expect(first.StackResourceDrifts).toHaveLength(1);
    const second = await server.client.send(
      new DescribeStackResourceDriftsCommand({ StackName: 'drifty', MaxResults: 1, NextToken: first.NextToken }),
    );
    expect(second.StackResourceDrifts![0].LogicalResourceId).not.toBe(first.StackResourceDrifts![0].LogicalResourceId);
  });

  it.each([
    [
      'a stack that does not exist',
      () => new DetectStackDriftCommand({ StackName: 'nope' }),
      'Stack with id nope does not exist',
    ],
    [
      'a resource the stack lacks',
      () => new DetectStackResourceDriftCommand({ StackName: 'drifty', LogicalResourceId: 'Nope' }),
      'Resource Nope does not exist for stack drifty',
    ],
    [
      'an unknown detection id',
      () => new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId: 'nope' }),
      'Stack drift detection with id nope does not exist',
    ],
    [
      'MaxResults above 100',
      () => new DescribeStackResourceDriftsCommand({ StackName: 'drifty', MaxResults: 101 }),
      "1 validation error detected: Value '101' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 100",
    ],
  ])('returns ValidationError for %s', async (_, command, message) => {
    await expect(server.client.send(command() as never)).rejects.toMatchObject({ name: 'ValidationError', message });
  });

  it('refuses a stack in REVIEW_IN_PROGRESS', async () => {
    await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'drift-review',
        ChangeSetName: 'c',
        ChangeSetType: 'CREATE',
        TemplateBody: TEMPLATE,
      }),
    );
    await expect(server.client.send(new DetectStackDriftCommand({ StackName: 'drift-review' }))).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringMatching(/is in REVIEW_IN_PROGRESS state and cannot be checked for drift$/),
    });
  });
});

it('refuses a second detection while one runs, and reports DETECTION_IN_PROGRESS until it ends', async () => {
  const timers = new ManualTimers();
  const server = await startServer({ timers });
  try {
    await server.client.send(new CreateStackCommand({ StackName: 'busy', TemplateBody: TEMPLATE }));
    await waitForStack(server.client, 'busy');
    const { StackDriftDetectionId } = await server.client.send(new DetectStackDriftCommand({ StackName: 'busy' }));
    const running = await server.client.send(new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId }));
    expect(running).toMatchObject({
      DetectionStatus: 'DETECTION_IN_PROGRESS',
      DetectionStatusReason: 'User Initiated',
    });
    expect(running.StackDriftStatus).toBeUndefined();
    await expect(server.client.send(new DetectStackDriftCommand({ StackName: 'busy' }))).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringMatching(/^Drift detection is already in progress for stack arn:aws:cloudformation:/),
    });
    await timers.advance(0);
    for (let i = 0; i < 200; i++) {
      const s = await server.client.send(new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId }));
      if (s.DetectionStatus === 'DETECTION_COMPLETE') return;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('detection never completed');
  } finally {
    await server.close();
  }
});

it('a nested stack resource takes its child’s verdict, and the child gets a detection of its own', async () => {
  const server = await startServer();
  try {
    const url = await putTemplate(
      server,
      'Resources:\n  Inner:\n    Type: AWS::SSM::Parameter\n    Properties: { Name: /drift/inner, Type: String, Value: v1 }\n',
    );
    await server.client.send(
      new CreateStackCommand({
        StackName: 'drift-parent',
        TemplateBody: `Resources:\n  Child:\n    Type: AWS::CloudFormation::Stack\n    Properties: { TemplateURL: '${url}' }\n`,
      }),
    );
    await waitForStack(server.client, 'drift-parent');
    const ssm = new SSMClient({ endpoint: server.endpoint, region: 'us-east-1', credentials });
    await ssm.send(new PutParameterCommand({ Name: '/drift/inner', Value: 'v2', Overwrite: true }));
    expect(await detect(server.client, 'drift-parent')).toMatchObject({
      StackDriftStatus: 'DRIFTED',
      DriftedStackResourceCount: 1,
    });
    const { Child } = await drifts(server.client, 'drift-parent');
    expect(Child.StackResourceDriftStatus).toBe('MODIFIED');
    const child = (await server.client.send(new DescribeStacksCommand({ StackName: Child.PhysicalResourceId })))
      .Stacks![0];
    expect(child.DriftInformation!.StackDriftStatus).toBe('DRIFTED');
    const { Inner } = await drifts(server.client, child.StackId!);
    expect(Inner.PropertyDifferences![0]).toMatchObject({ PropertyPath: '/Value', ActualValue: 'v2' });
  } finally {
    await server.close();
  }
});
