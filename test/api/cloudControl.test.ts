// The Cloud Control API on the same port, through @aws-sdk/client-cloudcontrol: asynchronous writes with AWS's
// ProgressEvent, reads of the schema's properties by primary identifier, RFC 6902 updates, the refusals, the
// control API's faults, and a stack's resource read and changed through it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CancelResourceRequestCommand,
  CloudControlClient,
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  GetResourceRequestStatusCommand,
  ListResourceRequestsCommand,
  ListResourcesCommand,
  UpdateResourceCommand,
  type ProgressEvent,
} from '@aws-sdk/client-cloudcontrol';
import { CreateStackCommand, DetectStackResourceDriftCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';

let server: TestServer;
let cc: CloudControlClient;
beforeAll(async () => {
  server = await startServer();
  cc = new CloudControlClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});
afterAll(() => server.close());

/** Polls GetResourceRequestStatus until the request leaves IN_PROGRESS (bounded). */
async function settled(event: ProgressEvent): Promise<ProgressEvent> {
  for (let i = 0; i < 400; i++) {
    const { ProgressEvent } = await cc.send(new GetResourceRequestStatusCommand({ RequestToken: event.RequestToken }));
    if (ProgressEvent!.OperationStatus !== 'IN_PROGRESS') return ProgressEvent!;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`request ${event.RequestToken} never settled`);
}

async function create(type: string, desired: Record<string, unknown>) {
  const { ProgressEvent } = await cc.send(
    new CreateResourceCommand({ TypeName: type, DesiredState: JSON.stringify(desired) }),
  );
  return { first: ProgressEvent!, last: await settled(ProgressEvent!) };
}

const errorOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    const e = err as { name: string; message: string; $metadata: { httpStatusCode: number } };
    return { name: e.name, message: e.message, status: e.$metadata.httpStatusCode };
  }
  throw new Error('expected a refusal');
};

describe('CreateResource', () => {
  it('answers IN_PROGRESS with a RequestToken; the request ends SUCCESS with the primary identifier', async () => {
    const { first, last } = await create('AWS::SSM::Parameter', { Name: 'cc-param', Type: 'String', Value: 'v1' });
    expect(first).toMatchObject({
      TypeName: 'AWS::SSM::Parameter',
      Operation: 'CREATE',
      OperationStatus: 'IN_PROGRESS',
    });
    expect(first.RequestToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.EventTime).toBeInstanceOf(Date);
    expect(last).toMatchObject({ OperationStatus: 'SUCCESS', Identifier: 'cc-param', Operation: 'CREATE' });
    expect(JSON.parse(last.ResourceModel!)).toMatchObject({ Name: 'cc-param', Value: 'v1' });
  });

  it('a taken name ends FAILED with ErrorCode AlreadyExists and the handler message', async () => {
    await create('AWS::S3::Bucket', { BucketName: 'cc-bucket' });
    const { last } = await create('AWS::S3::Bucket', { BucketName: 'cc-bucket' });
    expect(last).toMatchObject({
      OperationStatus: 'FAILED',
      ErrorCode: 'AlreadyExists',
      StatusMessage: "Resource of type 'AWS::S3::Bucket' with identifier 'cc-bucket' already exists.",
    });
  });

  it('refuses an unknown type (TypeNotFoundException), a non-provisionable one, and DesiredState that is no JSON object', async () => {
    expect(
      await errorOf(cc.send(new CreateResourceCommand({ TypeName: 'AWS::No::Such', DesiredState: '{}' }))),
    ).toEqual({
      name: 'TypeNotFoundException',
      message: "The type 'AWS::No::Such' cannot be found.",
      status: 400,
    });
    const wait = cc.send(
      new CreateResourceCommand({ TypeName: 'AWS::CloudFormation::WaitConditionHandle', DesiredState: '{}' }),
    );
    expect((await errorOf(wait)).name).toBe('UnsupportedActionException');
    const bad = cc.send(new CreateResourceCommand({ TypeName: 'AWS::SQS::Queue', DesiredState: 'not json' }));
    expect(await errorOf(bad)).toMatchObject({ name: 'ValidationException', status: 400 });
  });

  it("the control API's faults by type apply: FAILED with the injected code", async () => {
    const res = await fetch(`${server.endpoint}/_cfn-local/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceType: 'AWS::SNS::Topic',
        action: 'Create',
        code: 'ServiceLimitExceeded',
        message: 'no more topics',
        times: 1,
      }),
    });
    expect(res.status).toBeLessThan(300);
    const { last } = await create('AWS::SNS::Topic', { TopicName: 'cc-topic' });
    expect(last).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'ServiceLimitExceeded' });
    expect((await create('AWS::SNS::Topic', { TopicName: 'cc-topic' })).last.OperationStatus).toBe('SUCCESS');
  });
});

describe('GetResource, ListResources', () => {
  it('reads the schema properties (read-only ones too) by primary identifier; a missing one is ResourceNotFoundException', async () => {
    await create('AWS::SQS::Queue', { QueueName: 'cc-queue' });
    const { ResourceDescriptions } = await cc.send(new ListResourcesCommand({ TypeName: 'AWS::SQS::Queue' }));
    const queue = ResourceDescriptions!.find((d) => JSON.parse(d.Properties!).QueueName === 'cc-queue')!;
    expect(queue.Identifier).toMatch(/^https?:\/\/.*cc-queue$/);
    const { ResourceDescription } = await cc.send(
      new GetResourceCommand({ TypeName: 'AWS::SQS::Queue', Identifier: queue.Identifier }),
    );
    expect(JSON.parse(ResourceDescription!.Properties!)).toMatchObject({
      QueueName: 'cc-queue',
      Arn: expect.stringContaining(':cc-queue'),
    });
    expect(await errorOf(cc.send(new GetResourceCommand({ TypeName: 'AWS::SQS::Queue', Identifier: 'nope' })))).toEqual(
      {
        name: 'ResourceNotFoundException',
        message: "Resource of type 'AWS::SQS::Queue' with identifier 'nope' was not found.",
        status: 400,
      },
    );
  });
});

describe('UpdateResource, DeleteResource', () => {
  it('applies an RFC 6902 PatchDocument; a create-only property is NotUpdatable; DeleteResource removes it', async () => {
    await create('AWS::SSM::Parameter', { Name: 'cc-upd', Type: 'String', Value: 'v1' });
    const patch = [{ op: 'replace', path: '/Value', value: 'v2' }];
    const { ProgressEvent: upd } = await cc.send(
      new UpdateResourceCommand({
        TypeName: 'AWS::SSM::Parameter',
        Identifier: 'cc-upd',
        PatchDocument: JSON.stringify(patch),
      }),
    );
    expect(upd).toMatchObject({ Operation: 'UPDATE', OperationStatus: 'IN_PROGRESS', Identifier: 'cc-upd' });
    expect((await settled(upd!)).OperationStatus).toBe('SUCCESS');
    const { ResourceDescription } = await cc.send(
      new GetResourceCommand({ TypeName: 'AWS::SSM::Parameter', Identifier: 'cc-upd' }),
    );
    expect(JSON.parse(ResourceDescription!.Properties!).Value).toBe('v2');

    const rename = [{ op: 'replace', path: '/Name', value: 'other' }];
    const { ProgressEvent: renamed } = await cc.send(
      new UpdateResourceCommand({
        TypeName: 'AWS::SSM::Parameter',
        Identifier: 'cc-upd',
        PatchDocument: JSON.stringify(rename),
      }),
    );
    expect(await settled(renamed!)).toMatchObject({
      OperationStatus: 'FAILED',
      ErrorCode: 'NotUpdatable',
      StatusMessage: 'Invalid patch update: createOnlyProperties [/properties/Name] cannot be updated',
    });
    const badPatch = cc.send(
      new UpdateResourceCommand({
        TypeName: 'AWS::SSM::Parameter',
        Identifier: 'cc-upd',
        PatchDocument: '[{"op":"remove","path":"/Missing"}]',
      }),
    );
    expect((await errorOf(badPatch)).name).toBe('ValidationException');

    const { ProgressEvent: del } = await cc.send(
      new DeleteResourceCommand({ TypeName: 'AWS::SSM::Parameter', Identifier: 'cc-upd' }),
    );
    expect(await settled(del!)).toMatchObject({
      Operation: 'DELETE',
      OperationStatus: 'SUCCESS',
      Identifier: 'cc-upd',
    });
    const gone = cc.send(new GetResourceCommand({ TypeName: 'AWS::SSM::Parameter', Identifier: 'cc-upd' }));
    expect((await errorOf(gone)).name).toBe('ResourceNotFoundException');
  });

  it("reads a stack's resource, and an update through Cloud Control changes the account (drift)", async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({
        StackName: 'cc-stack',
        TemplateBody:
          'Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties: { Name: cc-stack-param, Type: String, Value: a }\n',
      }),
    );
    await waitForStack(server.client, StackId!);
    const read = await cc.send(
      new GetResourceCommand({ TypeName: 'AWS::SSM::Parameter', Identifier: 'cc-stack-param' }),
    );
    expect(JSON.parse(read.ResourceDescription!.Properties!)).toMatchObject({ Value: 'a' });
    const { ProgressEvent } = await cc.send(
      new UpdateResourceCommand({
        TypeName: 'AWS::SSM::Parameter',
        Identifier: 'cc-stack-param',
        PatchDocument: JSON.stringify([{ op: 'replace', path: '/Value', value: 'changed' }]),
      }),
    );
    expect((await settled(ProgressEvent!)).OperationStatus).toBe('SUCCESS');
    const world = await (await fetch(`${server.endpoint}/_cfn-local/world/cc-stack-param`)).json();
    expect(world).toMatchObject({ stackId: StackId, properties: { Value: 'changed' } });
    const { StackResourceDrift } = await server.client.send(
      new DetectStackResourceDriftCommand({ StackName: 'cc-stack', LogicalResourceId: 'P' }),
    );
    expect(StackResourceDrift).toMatchObject({
      StackResourceDriftStatus: 'MODIFIED',
      PropertyDifferences: [
        expect.objectContaining({ PropertyPath: '/Value', ActualValue: 'changed', ExpectedValue: 'a' }),
      ],
    });
  });
});

describe('GetResourceRequestStatus, ListResourceRequests, CancelResourceRequest', () => {
  it('lists requests newest first with filters; an unknown token is RequestTokenNotFoundException; a finished one cannot be cancelled', async () => {
    const { last } = await create('AWS::SSM::Parameter', { Name: 'cc-list', Type: 'String', Value: 'x' });
    const { ResourceRequestStatusSummaries } = await cc.send(
      new ListResourceRequestsCommand({
        ResourceRequestStatusFilter: { Operations: ['CREATE'], OperationStatuses: ['SUCCESS'] },
      }),
    );
    expect(ResourceRequestStatusSummaries![0].RequestToken).toBe(last.RequestToken);
    expect(
      ResourceRequestStatusSummaries!.every((e) => e.Operation === 'CREATE' && e.OperationStatus === 'SUCCESS'),
    ).toBe(true);
    const unknown = cc.send(
      new GetResourceRequestStatusCommand({ RequestToken: '00000000-0000-0000-0000-000000000000' }),
    );
    expect((await errorOf(unknown)).name).toBe('RequestTokenNotFoundException');
    const cancel = cc.send(new CancelResourceRequestCommand({ RequestToken: last.RequestToken }));
    expect((await errorOf(cancel)).name).toBe('ConcurrentModificationException');
  });

  it('a request still running is cancelled: CANCEL_COMPLETE, and nothing is created', async () => {
    await fetch(`${server.endpoint}/_cfn-local/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ resourceType: 'AWS::Logs::LogGroup', action: 'Create', delayMs: 60_000 }),
    });
    const { ProgressEvent } = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::Logs::LogGroup',
        DesiredState: JSON.stringify({ LogGroupName: 'cc-slow' }),
      }),
    );
    const { ProgressEvent: cancelled } = await cc.send(
      new CancelResourceRequestCommand({ RequestToken: ProgressEvent!.RequestToken }),
    );
    expect(cancelled).toMatchObject({ OperationStatus: 'CANCEL_COMPLETE', Operation: 'CREATE' });
    const { ResourceDescriptions } = await cc.send(new ListResourcesCommand({ TypeName: 'AWS::Logs::LogGroup' }));
    expect(ResourceDescriptions).toEqual([]);
  });
});
