// S3 Tables through the API: a table bucket and a table are referred to by ARN, as their schemas identify them
// (primaryIdentifier TableBucketARN, TableARN), and a namespace holding a table made outside the stack refuses to
// be deleted as the service refuses ("The namespace that you tried to delete is not empty.").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { control, createStack, deleteStack, resourceEvents } from './worldHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const TEMPLATE = (bucket: string, withTable: boolean) => `
Resources:
  Bucket:
    Type: AWS::S3Tables::TableBucket
    Properties:
      TableBucketName: ${bucket}
  Space:
    Type: AWS::S3Tables::Namespace
    Properties:
      TableBucketARN: !Ref Bucket
      Namespace: sales
${
  withTable
    ? `  Table:
    Type: AWS::S3Tables::Table
    DependsOn: Space
    Properties:
      TableBucketARN: !Ref Bucket
      Namespace: sales
      TableName: orders
      OpenTableFormat: ICEBERG
Outputs:
  BucketRef: { Value: !Ref Bucket }
  BucketArn: { Value: !GetAtt Bucket.TableBucketARN }
  TableRef: { Value: !Ref Table }
  TableArn: { Value: !GetAtt Table.TableARN }
`
    : ''
}`;

describe('AWS::S3Tables', () => {
  it('Ref of a table bucket and of a table is its ARN, the same as its physical id', async () => {
    const { id, stack } = await createStack(server, 'tables', TEMPLATE('lake', true));
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const out = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey, o.OutputValue]));
    const bucketArn = 'arn:aws:s3tables:us-east-1:000000000000:bucket/lake';
    expect(out.BucketRef).toBe(bucketArn);
    expect(out.BucketArn).toBe(bucketArn);
    expect(out.TableRef).toMatch(
      new RegExp(`^${bucketArn}/table/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`),
    );
    expect(out.TableArn).toBe(out.TableRef);
    const { StackResources } = await server.client.send(new DescribeStackResourcesCommand({ StackName: id }));
    const physical = Object.fromEntries(StackResources!.map((r) => [r.LogicalResourceId, r.PhysicalResourceId]));
    expect([physical.Bucket, physical.Table]).toEqual([bucketArn, out.TableRef]);
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
  });

  it('a namespace holding a table made outside the stack is not deleted; once the table goes, it is', async () => {
    const { id } = await createStack(server, 'spaces', TEMPLATE('warehouse', false));
    const bucketArn = 'arn:aws:s3tables:us-east-1:000000000000:bucket/warehouse';
    const made = await control(server, 'POST', '/world', {
      type: 'AWS::S3Tables::Table',
      properties: { TableBucketARN: bucketArn, Namespace: 'sales', TableName: 'outside', OpenTableFormat: 'ICEBERG' },
    });
    expect(made.status).toBe(201);
    const failed = await deleteStack(server, id);
    expect(failed.StackStatus).toBe('DELETE_FAILED');
    const reason = (await resourceEvents(server.client, id, 'Space')).find(
      (e) => e.ResourceStatus === 'DELETE_FAILED',
    )!.ResourceStatusReason!;
    expect(reason).toMatch(
      /^Resource handler returned message: "The namespace that you tried to delete is not empty\. \(Service: S3Tables, Status Code: 400, Request ID: /,
    );
    expect((await control(server, 'DELETE', `/world/${encodeURIComponent(made.body.physicalId)}`)).status).toBe(200);
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
  });
});
