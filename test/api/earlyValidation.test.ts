// Pre-deployment validation on CreateChangeSet, CreateStack and UpdateStack: a named resource whose name the account
// already holds fails the change set or the operation with AWS's Early Validation text before anything is
// provisioned; DisableValidation skips the check, and a resource being imported is not a conflict.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DescribeChangeSetCommand,
  DescribeEventsCommand,
  DescribeStackEventsCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await deploy('owner', bucket('taken-bucket'));
});
afterAll(() => server.close());

const EARLY_VALIDATION_FAILED =
  'The following hook(s)/validation failed: [AWS::EarlyValidation::ResourceExistenceCheck]. To troubleshoot Early Validation errors, use the DescribeEvents API for detailed failure information.';

const bucket = (name: string, extra = '') => `Resources:
  Ok:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: a }
  Data:
    Type: AWS::S3::Bucket
    Properties: { BucketName: ${name} }
${extra}`;

async function deploy(name: string, body: string, extra: Record<string, unknown> = {}) {
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: name, TemplateBody: body, ...extra }),
  );
  return waitForStack(server.client, StackId!);
}

async function changeSet(stackName: string, name: string, body: string, extra: Record<string, unknown> = {}) {
  await server.client.send(
    new CreateChangeSetCommand({
      StackName: stackName,
      ChangeSetName: name,
      TemplateBody: body,
      ChangeSetType: 'CREATE',
      ...extra,
    }),
  );
  for (let i = 0; i < 400; i++) {
    const cs = await server.client.send(new DescribeChangeSetCommand({ StackName: stackName, ChangeSetName: name }));
    if (cs.Status === 'CREATE_COMPLETE' || cs.Status === 'FAILED') return cs;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`change set ${name} never settled`);
}

async function resourceEvents(stackId: string) {
  const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: stackId }));
  return StackEvents!.filter((e) => e.ResourceType !== 'AWS::CloudFormation::Stack');
}

describe('CreateChangeSet', () => {
  it("a taken bucket name fails the change set with AWS's Early Validation text", async () => {
    const cs = await changeSet('clash-cs', 'cs1', bucket('taken-bucket'));
    expect(cs.Status).toBe('FAILED');
    expect(cs.ExecutionStatus).toBe('UNAVAILABLE');
    expect(cs.StatusReason).toBe(EARLY_VALIDATION_FAILED);
  });

  it('DescribeEvents (what the CDK asks) shows the VALIDATION_ERROR with the Validation* members', async () => {
    const cs = await changeSet('clash-events', 'cs1', bucket('taken-bucket'));
    const { OperationEvents } = await server.client.send(
      new DescribeEventsCommand({ StackName: 'clash-events', ChangeSetName: 'cs1', Filters: { FailedEvents: true } }),
    );
    expect(OperationEvents).toHaveLength(1);
    expect(OperationEvents![0]).toMatchObject({
      StackId: cs.StackId,
      OperationType: 'CREATE_CHANGESET',
      EventType: 'VALIDATION_ERROR',
      LogicalResourceId: 'Data',
      PhysicalResourceId: '',
      ResourceType: 'AWS::S3::Bucket',
      ValidationFailureMode: 'FAIL',
      ValidationName: 'NAME_CONFLICT_VALIDATION',
      ValidationStatus: 'FAILED',
      ValidationStatusReason: "Resource of type 'AWS::S3::Bucket' with identifier 'taken-bucket' already exists.",
      ValidationPath: '/Resources/Data',
    });
    expect(OperationEvents![0].ResourceStatus).toBeUndefined();
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: 'clash-events' }));
    expect(StackEvents!.map((e) => e.ResourceStatus)).toEqual(['REVIEW_IN_PROGRESS']);
  });

  it('DisableValidation skips the check: the change set is created', async () => {
    const cs = await changeSet('clash-cs-off', 'cs1', bucket('taken-bucket'), { DisableValidation: true });
    expect(cs.Status).toBe('CREATE_COMPLETE');
  });

  it('a free name passes', async () => {
    expect((await changeSet('free-cs', 'cs1', bucket('free-bucket-1'))).Status).toBe('CREATE_COMPLETE');
  });
});

describe('CreateStack', () => {
  it('a taken name fails the create before any resource is provisioned, then rolls back', async () => {
    const stack = await deploy('clash-create', bucket('taken-bucket'));
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: stack.StackId }));
    const failed = StackEvents!.find((e) => e.ResourceStatus === 'ROLLBACK_IN_PROGRESS')!;
    expect(failed.ResourceStatusReason).toBe(`${EARLY_VALIDATION_FAILED} Rollback requested by user.`);
    expect(await resourceEvents(stack.StackId!)).toEqual([]);
    const { OperationEvents } = await server.client.send(
      new DescribeEventsCommand({
        OperationId: stack.LastOperations!.at(-1)!.OperationId,
        Filters: { FailedEvents: true },
      }),
    );
    expect(OperationEvents!.find((e) => e.EventType === 'VALIDATION_ERROR')).toMatchObject({
      OperationType: 'CREATE_STACK',
      LogicalResourceId: 'Data',
      ValidationName: 'NAME_CONFLICT_VALIDATION',
    });
  });

  it('DisableValidation: the clash is found when the bucket is created (AlreadyExists)', async () => {
    const stack = await deploy('clash-create-off', bucket('taken-bucket'), {
      DisableValidation: true,
      DisableRollback: true,
    });
    expect(stack.StackStatus).toBe('CREATE_FAILED');
    const data = (await resourceEvents(stack.StackId!)).find((e) => e.ResourceStatus === 'CREATE_FAILED')!;
    expect(data.LogicalResourceId).toBe('Data');
    expect(data.ResourceStatusReason).toContain('HandlerErrorCode: AlreadyExists');
  });
});

describe('UpdateStack', () => {
  it('adding a resource with a taken name fails the update before provisioning; kept resources are not checked', async () => {
    const stack = await deploy('clash-update', bucket('own-bucket'));
    const { StackId } = await server.client.send(
      new UpdateStackCommand({
        StackName: 'clash-update',
        TemplateBody: bucket(
          'own-bucket',
          '  Other:\n    Type: AWS::S3::Bucket\n    Properties: { BucketName: taken-bucket }\n',
        ),
      }),
    );
    const after = await waitForStack(server.client, StackId!);
    expect(after.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: stack.StackId }));
    expect(StackEvents!.find((e) => e.ResourceStatus === 'UPDATE_ROLLBACK_IN_PROGRESS')!.ResourceStatusReason).toBe(
      `${EARLY_VALIDATION_FAILED} `,
    );
    expect((await resourceEvents(stack.StackId!)).some((e) => e.LogicalResourceId === 'Other')).toBe(false);
  });
});
