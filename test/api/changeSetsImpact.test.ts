// The data-loss report (GET /_cfn-local/change-sets/{arn}/impact): what a change set would destroy, keep, or cannot do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { changeSet, deploy, execute } from './changeSetsHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const impact = async (arn: string) => {
  const res = await fetch(`${server.endpoint}/_cfn-local/change-sets/${encodeURIComponent(arn)}/impact`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const patchWorld = (physicalId: string, body: unknown) =>
  fetch(`${server.endpoint}/_cfn-local/world/${encodeURIComponent(physicalId)}`, {
    method: 'PATCH',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

const table = (name: string, key: string, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::DynamoDB::Table',
  Properties: {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: key, AttributeType: 'S' }],
    KeySchema: [{ AttributeName: key, KeyType: 'HASH' }],
    ...extra,
  },
});

describe('GET /_cfn-local/change-sets/{arn}/impact', () => {
  it('reports data lost, retained by policy, kept by a refused delete, and replacements that cannot proceed', async () => {
    const before = {
      Resources: {
        Bucket: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'impact-bucket' } },
        Logs: { Type: 'AWS::Logs::LogGroup', DeletionPolicy: 'Retain', Properties: { LogGroupName: 'impact-logs' } },
        Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'impact-queue-1' } },
        Table: table('impact-table', 'id'),
        Plain: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'v' } },
      },
    };
    const { stackId } = await deploy(server.client, 'impact', before);
    const bucket = await patchWorld('impact-bucket', { dataItems: 5 });
    expect(bucket.status).toBe(200);
    const queueUrl = 'https://sqs.us-east-1.amazonaws.com/000000000000/impact-queue-1';
    expect((await patchWorld(queueUrl, { dataItems: 3 })).status).toBe(200);
    const after = {
      Resources: {
        Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'impact-queue-2' } },
        Table: table('impact-table', 'pk'),
        Plain: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'w' } },
      },
    };
    // A long name: the encoded ARN outgrows the router's limit on one path parameter.
    const { id } = await changeSet(server.client, stackId, after, {
      ChangeSetName: 'a-long-change-set-name-that-pushes-the-encoded-arn-past-one-hundred-characters',
    });
    const { status, body } = await impact(id);
    expect(status).toBe(200);
    const byId = Object.fromEntries(body.dataLoss.map((e: { logicalResourceId: string }) => [e.logicalResourceId, e]));
    expect(byId.Bucket).toMatchObject({
      action: 'Remove',
      policyAction: 'Delete',
      data: 'retained',
      dataItems: 5,
      deleteRefused: { code: 'BucketNotEmpty' },
    });
    expect(byId.Logs).toMatchObject({ action: 'Remove', policyAction: 'Retain', data: 'retained', dataItems: 0 });
    expect(byId.Queue).toMatchObject({
      action: 'Replace',
      policyAction: 'ReplaceAndDelete',
      data: 'lost',
      dataItems: 3,
    });
    expect(byId.Table).toMatchObject({ action: 'Replace', policyAction: 'ReplaceAndDelete', data: 'lost' });
    expect(byId.Plain).toBeUndefined();
    expect(body.blockedReplacements).toEqual([
      {
        logicalResourceId: 'Table',
        physicalResourceId: 'impact-table',
        resourceType: 'AWS::DynamoDB::Table',
        cause: 'fixed-name',
        message:
          'CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename Table and update the stack again.',
      },
    ]);
    expect(body.summary).toEqual({ lost: 2, retained: 2, unknown: 0, blocked: 1 });
  });

  it('counts UpdateReplacePolicy Retain as retained, and flags a deletion-protected replacement', async () => {
    const before = {
      Resources: {
        Kept: { ...table('urp-kept', 'id'), UpdateReplacePolicy: 'Retain' },
        Guarded: table('urp-guarded', 'id', { DeletionProtectionEnabled: true }),
      },
    };
    const { stackId } = await deploy(server.client, 'impact-urp', before);
    const after = {
      Resources: {
        Kept: { ...table('urp-kept-2', 'id'), UpdateReplacePolicy: 'Retain' },
        Guarded: table('urp-guarded-2', 'id', { DeletionProtectionEnabled: true }),
      },
    };
    const { id } = await changeSet(server.client, stackId, after);
    const { body } = await impact(id);
    expect(body.dataLoss.find((e: { logicalResourceId: string }) => e.logicalResourceId === 'Kept')).toMatchObject({
      policyAction: 'ReplaceAndRetain',
      data: 'retained',
    });
    expect(body.blockedReplacements).toEqual([
      expect.objectContaining({ logicalResourceId: 'Guarded', cause: 'deletion-protection' }),
    ]);
  });

  it("what the report says is what execution does: the refused bucket stays with its data, the replaced queue's old copy is gone", async () => {
    const { stackId } = await deploy(server.client, 'impact-run', {
      Resources: {
        Bucket: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'run-bucket' } },
        Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'run-queue-1' } },
      },
    });
    await patchWorld('run-bucket', { dataItems: 2 });
    const { id } = await changeSet(server.client, stackId, {
      Resources: { Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'run-queue-2' } } },
    });
    const { body } = await impact(id);
    expect(
      body.dataLoss.map((e: { logicalResourceId: string; data: string }) => [e.logicalResourceId, e.data]),
    ).toEqual([
      ['Queue', 'lost'],
      ['Bucket', 'retained'],
    ]);
    const stack = await execute(server.client, id, stackId);
    expect(stack).toMatchObject({
      StackStatus: 'UPDATE_COMPLETE',
      StackStatusReason: 'Update successful. One or more resources could not be deleted.',
    });
    const world = (await (await fetch(`${server.endpoint}/_cfn-local/world`)).json()) as {
      resources: { physicalId: string; state: { dataItems?: number } }[];
    };
    const ids = world.resources.map((r) => r.physicalId);
    expect(world.resources.find((r) => r.physicalId === 'run-bucket')?.state.dataItems).toBe(2);
    expect(ids).not.toContain('https://sqs.us-east-1.amazonaws.com/000000000000/run-queue-1');
    expect(ids).toContain('https://sqs.us-east-1.amazonaws.com/000000000000/run-queue-2');
  });

  it('reports the refused delete of a namespace that holds a table made outside the stack', async () => {
    const bucketArn = 'arn:aws:s3tables:us-east-1:000000000000:bucket/impact-lake';
    const space = { Type: 'AWS::S3Tables::Namespace', Properties: { TableBucketARN: bucketArn, Namespace: 'sales' } };
    const { stackId } = await deploy(server.client, 'impact-space', {
      Resources: {
        Bucket: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: 'impact-lake' } },
        Space: { ...space, DependsOn: 'Bucket' },
      },
    });
    const made = await fetch(`${server.endpoint}/_cfn-local/world`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'AWS::S3Tables::Table',
        properties: { TableBucketARN: bucketArn, Namespace: 'sales', TableName: 'outside', OpenTableFormat: 'ICEBERG' },
      }),
    });
    expect(made.status).toBe(201);
    const { id } = await changeSet(server.client, stackId, {
      Resources: { Bucket: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: 'impact-lake' } } },
    });
    const { body } = await impact(id);
    expect(body.dataLoss).toEqual([
      expect.objectContaining({
        logicalResourceId: 'Space',
        action: 'Remove',
        data: 'retained',
        deleteRefused: {
          code: 'BadRequestException',
          message: expect.stringContaining('The namespace that you tried to delete is not empty.'),
        },
      }),
    ]);
  });

  it('answers 404 for an unknown change set', async () => {
    const { status, body } = await impact(
      'arn:aws:cloudformation:us-east-1:000000000000:changeSet/none/00000000-0000-0000-0000-000000000000',
    );
    expect(status).toBe(404);
    expect(body.error).toBe('ChangeSetNotFound');
  });
});
