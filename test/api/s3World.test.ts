// Buckets are the simulated account's: a stack's bucket is an S3 bucket (listable, writable, its configuration
// readable), a bucket made through S3 collides with a stack's by name, objects make a bucket "not empty" for a
// stack's delete, and a retained bucket keeps its objects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetBucketEncryptionCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  GetObjectCommand,
  GetPublicAccessBlockCommand,
  ListBucketsCommand,
  PutBucketPolicyCommand,
  GetBucketPolicyCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { startServer, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { thrownBy } from '../helpers/errors.js';
import { createStack, deleteStack, eventLines } from './worldHelpers.js';

let server: TestServer;
let s3: S3Client;
beforeAll(async () => {
  server = await startServer();
  s3 = s3Client(server.endpoint);
});
afterAll(() => server.close());

const bucketTemplate = (name: string, extra = '') => `
Resources:
  Bucket:
    Type: AWS::S3::Bucket
${extra}    Properties:
      BucketName: ${name}
      VersioningConfiguration: { Status: Enabled }
      Tags: [{ Key: team, Value: platform }]
`;

describe("a stack's bucket through S3", () => {
  it("is listed, takes objects, and answers its template's configuration", async () => {
    await createStack(server, 'bucket-stack', bucketTemplate('stack-made-bucket'));
    const names = (await s3.send(new ListBucketsCommand({}))).Buckets!.map((b) => b.Name);
    expect(names).toContain('stack-made-bucket');
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket: 'stack-made-bucket' }))).Status).toBe('Enabled');
    expect((await s3.send(new GetBucketTaggingCommand({ Bucket: 'stack-made-bucket' }))).TagSet).toEqual([
      { Key: 'team', Value: 'platform' },
    ]);
    const encryption = await s3.send(new GetBucketEncryptionCommand({ Bucket: 'stack-made-bucket' }));
    expect(
      encryption.ServerSideEncryptionConfiguration?.Rules?.[0].ApplyServerSideEncryptionByDefault?.SSEAlgorithm,
    ).toBe('AES256');
    expect(
      (await s3.send(new GetPublicAccessBlockCommand({ Bucket: 'stack-made-bucket' }))).PublicAccessBlockConfiguration
        ?.BlockPublicAcls,
    ).toBe(true);
    await s3.send(new PutObjectCommand({ Bucket: 'stack-made-bucket', Key: 'k', Body: 'v' }));
  });

  it('its objects make DeleteStack fail with BucketNotEmpty; once emptied the stack deletes', async () => {
    const { id } = await createStack(server, 'full-bucket-stack', bucketTemplate('full-bucket'));
    await s3.send(new PutObjectCommand({ Bucket: 'full-bucket', Key: 'a', Body: 'x' }));
    const failed = await deleteStack(server, id);
    expect(failed.StackStatus).toBe('DELETE_FAILED');
    expect((await eventLines(server.client, id, 'Bucket')).join('\n')).toContain(
      'The bucket you tried to delete is not empty',
    );
    await s3.send(new DeleteObjectCommand({ Bucket: 'full-bucket', Key: 'a' }));
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
    expect(await thrownBy(s3.send(new GetBucketVersioningCommand({ Bucket: 'full-bucket' })))).toMatchObject({
      name: 'NoSuchBucket',
    });
  });

  it('a retained bucket keeps its objects after its stack is deleted', async () => {
    const { id } = await createStack(
      server,
      'retained-stack',
      bucketTemplate('retained-bucket', '    DeletionPolicy: Retain\n'),
    );
    await s3.send(new PutObjectCommand({ Bucket: 'retained-bucket', Key: 'kept', Body: 'still here' }));
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
    const got = await s3.send(new GetObjectCommand({ Bucket: 'retained-bucket', Key: 'kept' }));
    expect(await got.Body!.transformToString()).toBe('still here');
  });

  it("a stack's AWS::S3::BucketPolicy is the bucket's policy; PutBucketPolicy replaces it", async () => {
    const doc = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Deny',
          Principal: '*',
          Action: 's3:*',
          Resource: 'arn:aws:s3:::policy-bucket/*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        },
      ],
    };
    await createStack(
      server,
      'policy-stack',
      `
Resources:
  B: { Type: AWS::S3::Bucket, Properties: { BucketName: policy-bucket } }
  P: { Type: AWS::S3::BucketPolicy, Properties: { Bucket: !Ref B, PolicyDocument: ${JSON.stringify(doc)} } }
`,
    );
    expect(JSON.parse((await s3.send(new GetBucketPolicyCommand({ Bucket: 'policy-bucket' }))).Policy!)).toEqual(doc);
    const mine = JSON.stringify({ Version: '2012-10-17', Statement: [] });
    await s3.send(new PutBucketPolicyCommand({ Bucket: 'policy-bucket', Policy: mine }));
    expect((await s3.send(new GetBucketPolicyCommand({ Bucket: 'policy-bucket' }))).Policy).toBe(mine);
  });
});

describe('a bucket made through S3', () => {
  it('takes the name in the account: a stack creating it fails with AlreadyExists', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'made-by-s3' }));
    // pre-deployment validation off, so the create itself meets the taken name (test/api/earlyValidation.test.ts)
    const { id, stack } = await createStack(server, 'collides', bucketTemplate('made-by-s3'), {
      DisableValidation: true,
    });
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect((await eventLines(server.client, id, 'Bucket')).join('\n')).toContain('already exists');
  });

  it("a stack's bucket name is refused by CreateBucket with BucketAlreadyOwnedByYou outside us-east-1", async () => {
    const eu = s3Client(server.endpoint, 'path', 'eu-west-1');
    await createStack(server, 'eu-named', bucketTemplate('stack-owned-name'));
    const err = await thrownBy(
      eu.send(
        new CreateBucketCommand({
          Bucket: 'stack-owned-name',
          CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' },
        }),
      ),
    );
    expect(err).toMatchObject({ name: 'BucketAlreadyOwnedByYou' });
  });
});
