// Real refusals from real state: each row makes the service refuse a delete through the control API, checks
// DeleteStack → DELETE_FAILED with the service's reason (lasting across a retry), clears the condition, and checks
// DeleteStack again → DELETE_COMPLETE, resuming from what was left. Texts: AWS's ResourceStatusReason as quoted in public issues (see resources/refusals.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { control, createStack, deleteStack, eventLines, resourceEvents, worldRow } from './worldHelpers.js';

interface Row {
  name: string;
  type: string;
  /** The resource's YAML under `Resources:` (logical id `Target`), and any siblings it needs. */
  resources: string;
  refuse: Record<string, unknown>;
  clear: Record<string, unknown>;
  reason: (physicalId: string) => string;
  service: string;
}

const ROWS: Row[] = [
  {
    name: 'S3 bucket holding objects',
    type: 'AWS::S3::Bucket',
    resources: '  Target:\n    Type: AWS::S3::Bucket\n',
    refuse: { dataItems: 3 },
    clear: { dataItems: 0 },
    reason: () => 'The bucket you tried to delete is not empty',
    service: 'S3, Status Code: 409',
  },
  {
    name: 'versioned S3 bucket holding versions',
    type: 'AWS::S3::Bucket',
    resources:
      '  Target:\n    Type: AWS::S3::Bucket\n    Properties:\n      VersioningConfiguration:\n        Status: Enabled\n',
    refuse: { dataItems: 1 },
    clear: { dataItems: 0 },
    service: 'S3, Status Code: 409',
    reason: () => 'The bucket you tried to delete is not empty. You must delete all versions in the bucket.',
  },
  {
    name: 'ECR repository with images',
    type: 'AWS::ECR::Repository',
    resources: '  Target:\n    Type: AWS::ECR::Repository\n',
    refuse: { dataItems: 2 },
    clear: { dataItems: 0 },
    service: 'Ecr, Status Code: 400',
    reason: (id) =>
      `The repository with name '${id}' in registry with id '000000000000' cannot be deleted because it still contains images`,
  },
  {
    name: 'IAM role with a managed policy attached outside',
    type: 'AWS::IAM::Role',
    resources: '  Target:\n    Type: AWS::IAM::Role\n    Properties:\n      AssumeRolePolicyDocument: {}\n',
    refuse: { attachedOutside: ['arn:aws:iam::aws:policy/ReadOnlyAccess'] },
    clear: { attachedOutside: [] },
    reason: () => 'Cannot delete entity, must detach all policies first.',
    service: 'Iam, Status Code: 409',
  },
  {
    name: 'IAM role with an inline policy added outside',
    type: 'AWS::IAM::Role',
    resources: '  Target:\n    Type: AWS::IAM::Role\n    Properties:\n      AssumeRolePolicyDocument: {}\n',
    refuse: { attachedOutside: ['OutsidePolicy'] },
    clear: { attachedOutside: [] },
    reason: () => 'Cannot delete entity, must delete policies first.',
    service: 'Iam, Status Code: 409',
  },
  {
    name: 'IAM managed policy attached to an outside entity',
    type: 'AWS::IAM::ManagedPolicy',
    resources: '  Target:\n    Type: AWS::IAM::ManagedPolicy\n    Properties:\n      PolicyDocument: {}\n',
    refuse: { attachedOutside: ['arn:aws:iam::000000000000:role/outside'] },
    clear: { attachedOutside: [] },
    reason: () => 'Cannot delete a policy attached to entities.',
    service: 'Iam, Status Code: 409',
  },
  {
    name: 'VPC with dependants outside the stack',
    type: 'AWS::EC2::VPC',
    resources: '  Target:\n    Type: AWS::EC2::VPC\n    Properties:\n      CidrBlock: 10.0.0.0/16\n',
    refuse: { attachedOutside: ['eni-0123456789abcdef0'] },
    clear: { attachedOutside: [] },
    reason: (id) => `The vpc '${id}' has dependencies and cannot be deleted.`,
    service: 'Ec2, Status Code: 400',
  },
  {
    name: 'subnet with network interfaces outside (its VPC stays too)',
    type: 'AWS::EC2::Subnet',
    resources:
      '  Vpc:\n    Type: AWS::EC2::VPC\n    Properties:\n      CidrBlock: 10.0.0.0/16\n  Target:\n    Type: AWS::EC2::Subnet\n    Properties:\n      VpcId: !Ref Vpc\n      CidrBlock: 10.0.1.0/24\n',
    refuse: { attachedOutside: ['eni-0123456789abcdef0'] },
    clear: { attachedOutside: [] },
    reason: (id) => `The subnet '${id}' has dependencies and cannot be deleted.`,
    service: 'Ec2, Status Code: 400',
  },
  {
    name: 'security group referenced outside',
    type: 'AWS::EC2::SecurityGroup',
    resources: '  Target:\n    Type: AWS::EC2::SecurityGroup\n    Properties:\n      GroupDescription: web\n',
    refuse: { attachedOutside: ['sg-0fedcba9876543210'] },
    clear: { attachedOutside: [] },
    reason: (id) => `resource ${id} has a dependent object`,
    service: 'Ec2, Status Code: 400',
  },
  {
    name: 'RDS instance with DeletionProtection in the template',
    type: 'AWS::RDS::DBInstance',
    resources: '  Target:\n    Type: AWS::RDS::DBInstance\n    Properties:\n      DeletionProtection: true\n',
    refuse: {},
    clear: { deletionProtection: false },
    service: 'Rds, Status Code: 400',
    reason: () => 'Cannot delete protected DB Instance, please disable deletion protection and try again.',
  },
  {
    name: 'RDS cluster with deletion protection turned on outside',
    type: 'AWS::RDS::DBCluster',
    resources: '  Target:\n    Type: AWS::RDS::DBCluster\n    Properties:\n      Engine: aurora-postgresql\n',
    refuse: { deletionProtection: true },
    clear: { deletionProtection: false },
    service: 'Rds, Status Code: 400',
    reason: () => 'Cannot delete protected Cluster, please disable deletion protection and try again.',
  },
  {
    name: 'DynamoDB table with DeletionProtectionEnabled',
    type: 'AWS::DynamoDB::Table',
    resources:
      '  Target:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      KeySchema: [{AttributeName: id, KeyType: HASH}]\n      DeletionProtectionEnabled: true\n',
    refuse: {},
    clear: { deletionProtection: false },
    service: 'DynamoDb, Status Code: 400',
    reason: () =>
      'Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.',
  },
  {
    name: 'Cognito user pool with DeletionProtection ACTIVE',
    type: 'AWS::Cognito::UserPool',
    resources: '  Target:\n    Type: AWS::Cognito::UserPool\n    Properties:\n      DeletionProtection: ACTIVE\n',
    refuse: {},
    clear: { deletionProtection: false },
    service: 'CognitoIdentityProvider, Status Code: 400',
    reason: () =>
      'The user pool cannot be deleted because deletion protection is activated. Deletion protection must be inactivated first.',
  },
  {
    name: 'log group with deletion protection turned on outside',
    type: 'AWS::Logs::LogGroup',
    resources: '  Target:\n    Type: AWS::Logs::LogGroup\n',
    refuse: { deletionProtection: true },
    clear: { deletionProtection: false },
    service: 'CloudWatchLogs, Status Code: 400',
    reason: (id) => `Log group ${id} is protected from deletion. Disable deletion protection first.`,
  },
  {
    name: 'S3 Tables namespace holding a table',
    type: 'AWS::S3Tables::Namespace',
    resources:
      '  Bucket:\n    Type: AWS::S3Tables::TableBucket\n    Properties:\n      TableBucketName: analytics\n  Target:\n    Type: AWS::S3Tables::Namespace\n    Properties:\n      TableBucketARN: !GetAtt Bucket.TableBucketARN\n      Namespace: sales\n',
    refuse: { dataItems: 1 },
    clear: { dataItems: 0 },
    service: 'S3Tables, Status Code: 400',
    reason: () => 'The namespace that you tried to delete is not empty.',
  },
  {
    name: 'S3 Tables table bucket holding namespaces',
    type: 'AWS::S3Tables::TableBucket',
    resources: '  Target:\n    Type: AWS::S3Tables::TableBucket\n    Properties:\n      TableBucketName: lake\n',
    refuse: { dataItems: 1 },
    clear: { dataItems: 0 },
    service: 'S3Tables, Status Code: 409',
    reason: () => 'The bucket that you tried to delete is not empty.',
  },
  {
    name: 'Athena workgroup with saved queries',
    type: 'AWS::Athena::WorkGroup',
    resources: '  Target:\n    Type: AWS::Athena::WorkGroup\n    Properties:\n      Name: reporting\n',
    refuse: { dataItems: 2 },
    clear: { dataItems: 0 },
    service: 'Athena, Status Code: 400',
    reason: () => 'WorkGroup reporting is not empty',
  },
  {
    name: 'Backup vault holding recovery points',
    type: 'AWS::Backup::BackupVault',
    resources: '  Target:\n    Type: AWS::Backup::BackupVault\n    Properties:\n      BackupVaultName: nightly\n',
    refuse: { dataItems: 2 },
    clear: { dataItems: 0 },
    service: 'Backup, Status Code: 400',
    reason: () => 'Backup vault cannot be deleted (contains 2 recovery points)',
  },
  {
    name: 'Route 53 hosted zone with records made outside',
    type: 'AWS::Route53::HostedZone',
    resources: '  Target:\n    Type: AWS::Route53::HostedZone\n    Properties:\n      Name: example.org\n',
    refuse: { dataItems: 1 },
    clear: { dataItems: 0 },
    service: 'Route53, Status Code: 400',
    reason: () => 'The specified hosted zone contains non-required resource record sets and so cannot be deleted.',
  },
  {
    name: 'ECS cluster running services made outside',
    type: 'AWS::ECS::Cluster',
    resources: '  Target:\n    Type: AWS::ECS::Cluster\n',
    refuse: { dataItems: 1 },
    clear: { dataItems: 0 },
    service: 'Ecs, Status Code: 400',
    reason: () => 'The Cluster cannot be deleted while Services are active.',
  },
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const patch = (id: string, body: Record<string, unknown>) =>
  control(server, 'PATCH', `/world/${encodeURIComponent(id)}`, body);

describe('DeleteStack refused by the service, then cleared through the control API', () => {
  it.each(ROWS.map((row, i) => [row.name, row, i] as const))(
    '%s: DELETE_FAILED with the service reason until cleared, then DELETE_COMPLETE',
    async (_, row, i) => {
      const body = `Resources:\n${row.resources}  Queue:\n    Type: AWS::SQS::Queue\n`;
      const { id, stack } = await createStack(server, `refusal-${i}`, body, { Capabilities: ['CAPABILITY_IAM'] });
      expect(stack.StackStatus).toBe('CREATE_COMPLETE');
      const physicalId = (await worldRow(server, row.type, 'Target', id)).physicalId as string;
      if (Object.keys(row.refuse).length) expect((await patch(physicalId, row.refuse)).status).toBe(200);

      const failed = await deleteStack(server, id);
      expect(failed.StackStatus).toBe('DELETE_FAILED');
      expect(failed.StackStatusReason).toMatch(
        /^The following resource\(s\) failed to delete: \[(Target|Target, Vpc|Vpc, Target)\]\. $/,
      );
      const reason = (await resourceEvents(server.client, id, 'Target')).find(
        (e) => e.ResourceStatus === 'DELETE_FAILED',
      )!.ResourceStatusReason!;
      expect(
        reason.startsWith(
          `Resource handler returned message: "${row.reason(physicalId)} (Service: ${row.service}, Request ID: `,
        ),
      ).toBe(true);
      expect(reason).toMatch(/\)" \(RequestToken: [0-9a-f-]{36}, HandlerErrorCode: \w+\)$/);
      // The independent queue went in the first attempt.
      expect(await eventLines(server.client, id, 'Queue')).toContain('DELETE_COMPLETE');

      // Lasting: a retry fails the same way while the condition holds.
      expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_FAILED');

      expect((await patch(physicalId, row.clear)).status).toBe(200);
      const queueEventsBefore = (await eventLines(server.client, id, 'Queue')).length;
      expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
      expect((await eventLines(server.client, id, 'Queue')).length).toBe(queueEventsBefore);
      expect(await worldRow(server, row.type, 'Target', id)).toBeUndefined();
    },
  );
});
