// AWS::Include: snippets read from the simulated account's S3 (put there through the S3 API), as Fn::Transform and in
// the Transform section, with AWS's errors for a snippet that cannot be read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetTemplateCommand, ListStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { changeSet, deploy } from './changeSetsHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  const s3 = s3Client(server.endpoint);
  await s3.send(new CreateBucketCommand({ Bucket: 'snippets' }));
  const put = (Key: string, Body: string) => s3.send(new PutObjectCommand({ Bucket: 'snippets', Key, Body }));
  await put('topic-properties.yaml', 'TopicName: !Sub "${AWS::StackName}-included"\nDisplayName: from S3\n');
  await put('queue.json', JSON.stringify({ Queue: { Type: 'AWS::SQS::Queue' } }));
  await put(
    'sections.yaml',
    'Resources:\n  Extra:\n    Type: AWS::SNS::Topic\nOutputs:\n  ExtraArn:\n    Value: !Ref Extra\n',
  );
  await put('broken.yaml', 'Resources: [unclosed\n');
});
afterAll(() => server.close());

const include = (Location: string) => ({ 'Fn::Transform': { Name: 'AWS::Include', Parameters: { Location } } });

describe('AWS::Include as Fn::Transform', () => {
  it('replaces the object holding it with the snippet, beside what stands next to it', async () => {
    const template = {
      Resources: {
        Topic: {
          Type: 'AWS::SNS::Topic',
          Properties: { ...include('s3://snippets/topic-properties.yaml'), Tags: [{ Key: 'k', Value: 'v' }] },
        },
        ...include('https://snippets.s3.amazonaws.com/queue.json'),
      },
    };
    const { stack } = await deploy(server.client, 'included', template);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const { StackResourceSummaries } = await server.client.send(
      new ListStackResourcesCommand({ StackName: 'included' }),
    );
    expect(StackResourceSummaries!.map((r) => `${r.LogicalResourceId} ${r.PhysicalResourceId}`).sort()).toEqual([
      expect.stringMatching(/^Queue https:\/\/sqs\.us-east-1\.amazonaws\.com\/000000000000\/included-Queue-/),
      'Topic arn:aws:sns:us-east-1:000000000000:included-included',
    ]);
    const processed = JSON.parse(
      (await server.client.send(new GetTemplateCommand({ StackName: 'included', TemplateStage: 'Processed' })))
        .TemplateBody!,
    );
    expect(processed.Resources.Topic.Properties).toEqual({
      TopicName: { 'Fn::Sub': '${AWS::StackName}-included' },
      DisplayName: 'from S3',
      Tags: [{ Key: 'k', Value: 'v' }],
    });
  });
});

describe('AWS::Include in the Transform section', () => {
  it("adds the snippet's sections to the template", async () => {
    const template = {
      Transform: { Name: 'AWS::Include', Parameters: { Location: 's3://snippets/sections.yaml' } },
      Resources: { Own: { Type: 'AWS::SQS::Queue' } },
    };
    const { stack } = await deploy(server.client, 'include-section', template);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(stack.Outputs!.map((o) => o.OutputKey)).toEqual(['ExtraArn']);
    const { StackResourceSummaries } = await server.client.send(
      new ListStackResourcesCommand({ StackName: 'include-section' }),
    );
    expect(StackResourceSummaries!.map((r) => r.LogicalResourceId).sort()).toEqual(['Extra', 'Own']);
  });
});

describe('a snippet that cannot be read', () => {
  it.each([
    [
      'a bucket that does not exist',
      's3://doesnotexist/x.yaml',
      'Transform AWS::Include failed with: S3 bucket [doesnotexist] does not exist.',
    ],
    [
      'a key that does not exist',
      's3://snippets/missing.yaml',
      'Transform AWS::Include failed with: S3 object [missing.yaml] does not exist in bucket [snippets].',
    ],
    [
      'content that is not YAML or JSON',
      's3://snippets/broken.yaml',
      "Transform AWS::Include failed with: The specified S3 object's content should be valid Yaml/JSON.",
    ],
    [
      'a Location that is not S3',
      './local/snippet.yaml',
      'Transform AWS::Include failed with: The location parameter is not a valid S3 uri.',
    ],
  ])("%s makes a FAILED change set with AWS's reason", async (_, location, reason) => {
    const { described } = await changeSet(
      server.client,
      `include-${location.length}`,
      { Resources: { T: { Type: 'AWS::SNS::Topic', Properties: include(location) } } },
      { ChangeSetType: 'CREATE' },
    );
    expect(described.Status).toBe('FAILED');
    expect(described.ExecutionStatus).toBe('UNAVAILABLE');
    expect(described.StatusReason).toBe(reason);
    expect(described.Changes).toEqual([]);
  });
});
