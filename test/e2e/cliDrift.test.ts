// The AWS CLI drift examples of AWS's documentation (awscli/examples/cloudformation: detect-stack-drift,
// describe-stack-drift-detection-status, describe-stack-resource-drifts, detect-stack-resource-drift) replayed
// against cfn-local: a Lambda function changed out of band shows the same two differences the examples print.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { AWS_CLI, awsCliAvailable, awsCloudFormation, gate, json, run } from './clients.js';

const cli = gate('AWS CLI v2 drift examples', await awsCliAvailable());
const TEMPLATE = `Resources:
  MyFunction:
    Type: AWS::Lambda::Function
    Properties:
      Description: Write a file to S3.
      Handler: index.handler
      MemorySize: 128
      Role: arn:aws:iam::000000000000:role/my-functionRole
      Runtime: nodejs20.x
      Timeout: 900
      TracingConfig: { Mode: Active }
      Code: { ZipFile: "exports.handler = async () => 1" }
`;
// The PropertyDifferences the documentation's examples show for this change.
const DOCUMENTED_DIFFERENCES = [
  { PropertyPath: '/MemorySize', ExpectedValue: '128', ActualValue: '256', DifferenceType: 'NOT_EQUAL' },
  { PropertyPath: '/Timeout', ExpectedValue: '900', ActualValue: '22', DifferenceType: 'NOT_EQUAL' },
];

describe.skipIf(cli.skip)(cli.title, () => {
  let server: TestServer;
  const aws = (...args: string[]) => awsCloudFormation(server.endpoint, args);

  beforeAll(async () => {
    server = await startServer();
    await server.client.send(new CreateStackCommand({ StackName: 'my-stack', TemplateBody: TEMPLATE }));
    await waitForStack(server.client, 'my-stack');
    const fn = json(await aws('describe-stack-resources', '--stack-name', 'my-stack')).StackResources[0];
    const changed = await run(AWS_CLI, [
      ...['--endpoint-url', server.endpoint, '--output', 'json', 'lambda', 'update-function-configuration'],
      ...['--function-name', fn.PhysicalResourceId, '--memory-size', '256', '--timeout', '22'],
    ]);
    expect(changed.code, changed.stderr).toBe(0);
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
  });

  it('detect-stack-drift, then describe-stack-drift-detection-status reports DRIFTED with one resource', async () => {
    const { StackDriftDetectionId } = json(await aws('detect-stack-drift', '--stack-name', 'my-stack'));
    expect(StackDriftDetectionId).toMatch(/^[0-9a-f-]{36}$/);
    let status = json(
      await aws('describe-stack-drift-detection-status', '--stack-drift-detection-id', StackDriftDetectionId),
    );
    for (let i = 0; i < 50 && status.DetectionStatus === 'DETECTION_IN_PROGRESS'; i++) {
      status = json(
        await aws('describe-stack-drift-detection-status', '--stack-drift-detection-id', StackDriftDetectionId),
      );
    }
    expect(status).toMatchObject({
      StackDriftDetectionId,
      StackDriftStatus: 'DRIFTED',
      DetectionStatus: 'DETECTION_COMPLETE',
      DriftedStackResourceCount: 1,
    });
    expect(status.StackId).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:stack\/my-stack\//);
  });

  it('describe-stack-resource-drifts shows the function MODIFIED with the documented differences', async () => {
    const { StackResourceDrifts } = json(await aws('describe-stack-resource-drifts', '--stack-name', 'my-stack'));
    expect(StackResourceDrifts).toHaveLength(1);
    const [drift] = StackResourceDrifts;
    expect(drift).toMatchObject({ LogicalResourceId: 'MyFunction', ResourceType: 'AWS::Lambda::Function' });
    expect(drift.StackResourceDriftStatus).toBe('MODIFIED');
    expect(drift.PropertyDifferences).toEqual(DOCUMENTED_DIFFERENCES);
    expect(Object.keys(JSON.parse(drift.ExpectedProperties))).toEqual([
      'Description',
      'Handler',
      'MemorySize',
      'Role',
      'Runtime',
      'Timeout',
      'TracingConfig',
    ]);
  });

  it('detect-stack-resource-drift checks the one function', async () => {
    const { StackResourceDrift } = json(
      await aws('detect-stack-resource-drift', '--stack-name', 'my-stack', '--logical-resource-id', 'MyFunction'),
    );
    expect(StackResourceDrift.StackResourceDriftStatus).toBe('MODIFIED');
    expect(StackResourceDrift.PropertyDifferences).toEqual(DOCUMENTED_DIFFERENCES);
  });
});

// The user guide's drift examples ("Detect drift on an entire CloudFormation stack" and "Detect drift on an individual
// stack resource", AWS CLI): a queue whose DelaySeconds and RedrivePolicy maxReceiveCount were changed out of band.
const GUIDE_TEMPLATE = `Resources:
  DLQ:
    Type: AWS::SQS::Queue
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      ReceiveMessageWaitTimeSeconds: 0
      DelaySeconds: 20
      RedrivePolicy: { deadLetterTargetArn: !GetAtt DLQ.Arn, maxReceiveCount: 10 }
      MessageRetentionPeriod: 345600
      MaximumMessageSize: 262144
      VisibilityTimeout: 60
`;
const GUIDE_DIFFERENCES = [
  { PropertyPath: '/DelaySeconds', ActualValue: '120', ExpectedValue: '20', DifferenceType: 'NOT_EQUAL' },
  {
    PropertyPath: '/RedrivePolicy/maxReceiveCount',
    ActualValue: '12',
    ExpectedValue: '10',
    DifferenceType: 'NOT_EQUAL',
  },
];
const GUIDE_STACK = 'my-stack-with-resource-drift';

describe.skipIf(cli.skip)(`${cli.title}: the user guide's queue`, () => {
  let server: TestServer;
  const aws = (...args: string[]) => awsCloudFormation(server.endpoint, args);

  beforeAll(async () => {
    server = await startServer();
    await server.client.send(new CreateStackCommand({ StackName: GUIDE_STACK, TemplateBody: GUIDE_TEMPLATE }));
    expect((await waitForStack(server.client, GUIDE_STACK)).StackStatus).toBe('CREATE_COMPLETE');
    const queue = json(
      await aws('describe-stack-resource', '--stack-name', GUIDE_STACK, '--logical-resource-id', 'Queue'),
    ).StackResourceDetail.PhysicalResourceId;
    // the out-of-band change, through the control API's world edit
    const edited = await fetch(`${server.endpoint}/_cfn-local/world/${encodeURIComponent(queue)}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { DelaySeconds: 120, RedrivePolicy: { maxReceiveCount: 12 } } }),
    });
    expect(edited.status).toBe(200);
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
  });

  it('detect-stack-drift, describe-stack-drift-detection-status: DRIFTED, one resource drifted', async () => {
    const { StackDriftDetectionId } = json(await aws('detect-stack-drift', '--stack-name', GUIDE_STACK));
    const describe = () =>
      aws('describe-stack-drift-detection-status', '--stack-drift-detection-id', StackDriftDetectionId);
    let status = json(await describe());
    for (let i = 0; i < 50 && status.DetectionStatus === 'DETECTION_IN_PROGRESS'; i++) status = json(await describe());
    expect(status).toMatchObject({
      StackDriftDetectionId,
      StackDriftStatus: 'DRIFTED',
      DetectionStatus: 'DETECTION_COMPLETE',
      DriftedStackResourceCount: 1,
    });
  });

  it('describe-stack-resource-drifts --stack-resource-drift-status-filters MODIFIED DELETED: the queue', async () => {
    const { StackResourceDrifts } = json(
      await aws(
        ...['describe-stack-resource-drifts', '--stack-name', GUIDE_STACK],
        ...['--stack-resource-drift-status-filters', 'MODIFIED', 'DELETED'],
      ),
    );
    expect(StackResourceDrifts).toHaveLength(1);
    expect(StackResourceDrifts[0]).toMatchObject({
      LogicalResourceId: 'Queue',
      ResourceType: 'AWS::SQS::Queue',
      StackResourceDriftStatus: 'MODIFIED',
      PropertyDifferences: GUIDE_DIFFERENCES,
    });
    expect(JSON.parse(StackResourceDrifts[0].ActualProperties)).toMatchObject({
      DelaySeconds: 120,
      RedrivePolicy: { maxReceiveCount: 12 },
    });
  });

  it('detect-stack-resource-drift --logical-resource-id: the same two differences', async () => {
    const { StackResourceDrift } = json(
      await aws('detect-stack-resource-drift', '--stack-name', GUIDE_STACK, '--logical-resource-id', 'Queue'),
    );
    expect(StackResourceDrift).toMatchObject({
      StackResourceDriftStatus: 'MODIFIED',
      PropertyDifferences: GUIDE_DIFFERENCES,
    });
  });
});
