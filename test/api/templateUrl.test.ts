// TemplateURL, StackPolicyURL and StackPolicyDuringUpdateURL read from the account's S3 buckets: every URL form
// CloudFormation accepts, and its refusals for what is not an S3 URL or not there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DescribeChangeSetCommand,
  GetStackPolicyCommand,
  GetTemplateSummaryCommand,
  SetStackPolicyCommand,
  UpdateStackCommand,
  ValidateTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { awsErrorOf } from '../helpers/errors.js';

let server: TestServer;
const Bucket = 'templates-bucket';
const TEMPLATE =
  'Description: from S3\nParameters:\n  Size: { Type: String, Default: small }\nResources:\n  Q: { Type: AWS::SQS::Queue }\n';
const UPDATED =
  'Description: from S3, updated\nResources:\n  Q: { Type: AWS::SQS::Queue }\n  T: { Type: AWS::SNS::Topic }\n';
const POLICY = JSON.stringify({ Statement: [{ Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*' }] });

beforeAll(async () => {
  server = await startServer();
  const s3 = s3Client(server.endpoint);
  await s3.send(new CreateBucketCommand({ Bucket }));
  for (const [Key, Body] of [
    ['t/template.yaml', TEMPLATE],
    ['t/updated.yaml', UPDATED],
    ['policy.json', POLICY],
  ]) {
    await s3.send(new PutObjectCommand({ Bucket, Key, Body }));
  }
});
afterAll(() => server.close());

describe('TemplateURL', () => {
  it.each([
    ['virtual-hosted, no region', () => `https://${Bucket}.s3.amazonaws.com/t/template.yaml`],
    ['virtual-hosted with region', () => `https://${Bucket}.s3.eu-west-1.amazonaws.com/t/template.yaml`],
    ['virtual-hosted, legacy dash region', () => `https://${Bucket}.s3-us-west-2.amazonaws.com/t/template.yaml`],
    ['path-style', () => `https://s3.amazonaws.com/${Bucket}/t/template.yaml`],
    ['path-style with region', () => `https://s3.us-east-1.amazonaws.com/${Bucket}/t/template.yaml`],
    ["the endpoint's own address", () => `${server.endpoint}/${Bucket}/t/template.yaml`],
    [
      'the endpoint, virtual-hosted',
      () => `http://${Bucket}.localhost:${new URL(server.endpoint).port}/t/template.yaml`,
    ],
  ])('ValidateTemplate reads a %s URL', async (_form, url) => {
    const out = await server.client.send(new ValidateTemplateCommand({ TemplateURL: url() }));
    expect(out.Description).toBe('from S3');
  });

  it.each([
    [
      'an s3:// URI',
      's3://templates-bucket/t/template.yaml',
      'S3 error: Domain name specified in templates-bucket is not a valid S3 domain',
    ],
    ['a URL that is not S3', 'https://example.com/t/template.yaml', 'TemplateURL must be a supported URL.'],
    [
      'a missing bucket',
      'https://no-such-bucket-x.s3.amazonaws.com/t/template.yaml',
      'S3 error: The specified bucket does not exist\nFor more information check http://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html',
    ],
    [
      'a missing key',
      `https://${Bucket}.s3.amazonaws.com/t/nope.yaml`,
      'S3 error: The specified key does not exist.\nFor more information check http://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html',
    ],
  ])('refuses %s with ValidationError', async (_what, url, message) => {
    expect(await awsErrorOf(server.client.send(new ValidateTemplateCommand({ TemplateURL: url })))).toEqual({
      code: 'ValidationError',
      message,
      status: 400,
    });
  });

  it('CreateStack and UpdateStack deploy templates read from S3; GetTemplateSummary reads them too', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({
        StackName: 'from-url',
        TemplateURL: `https://${Bucket}.s3.amazonaws.com/t/template.yaml`,
      }),
    );
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
    await server.client.send(
      new UpdateStackCommand({
        StackName: 'from-url',
        TemplateURL: `https://s3.amazonaws.com/${Bucket}/t/updated.yaml`,
      }),
    );
    const updated = await waitForStack(server.client, StackId!);
    expect(updated).toMatchObject({ StackStatus: 'UPDATE_COMPLETE', Description: 'from S3, updated' });
    const summary = await server.client.send(
      new GetTemplateSummaryCommand({ TemplateURL: `https://${Bucket}.s3.amazonaws.com/t/template.yaml` }),
    );
    expect(summary.Parameters?.map((p) => p.ParameterKey)).toEqual(['Size']);
  });

  it('CreateChangeSet reads its template from S3', async () => {
    await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'cs-from-url',
        ChangeSetName: 'first',
        ChangeSetType: 'CREATE',
        TemplateURL: `https://${Bucket}.s3.amazonaws.com/t/updated.yaml`,
      }),
    );
    let described;
    for (let i = 0; i < 200; i++) {
      described = await server.client.send(
        new DescribeChangeSetCommand({ StackName: 'cs-from-url', ChangeSetName: 'first' }),
      );
      if (described.Status !== 'CREATE_PENDING' && described.Status !== 'CREATE_IN_PROGRESS') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(described?.Changes?.map((c) => c.ResourceChange?.LogicalResourceId).sort()).toEqual(['Q', 'T']);
  });
});

describe('StackPolicyURL and StackPolicyDuringUpdateURL', () => {
  it('CreateStack applies the policy read from StackPolicyURL', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({
        StackName: 'policy-from-url',
        TemplateBody: TEMPLATE,
        StackPolicyURL: `https://${Bucket}.s3.amazonaws.com/policy.json`,
      }),
    );
    await waitForStack(server.client, StackId!);
    expect(
      (await server.client.send(new GetStackPolicyCommand({ StackName: 'policy-from-url' }))).StackPolicyBody,
    ).toBe(POLICY);
  });

  it('SetStackPolicy takes a StackPolicyURL; a missing object is refused, never ignored', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'set-policy-url', TemplateBody: TEMPLATE }),
    );
    await waitForStack(server.client, StackId!);
    await server.client.send(
      new SetStackPolicyCommand({
        StackName: 'set-policy-url',
        StackPolicyURL: `https://s3.amazonaws.com/${Bucket}/policy.json`,
      }),
    );
    expect((await server.client.send(new GetStackPolicyCommand({ StackName: 'set-policy-url' }))).StackPolicyBody).toBe(
      POLICY,
    );
    const missing = await awsErrorOf(
      server.client.send(
        new UpdateStackCommand({
          StackName: 'set-policy-url',
          TemplateBody: UPDATED,
          StackPolicyDuringUpdateURL: `https://s3.amazonaws.com/${Bucket}/none.json`,
        }),
      ),
    );
    expect(missing).toMatchObject({
      code: 'ValidationError',
      message: expect.stringMatching(/^S3 error: The specified key does not exist\./),
    });
  });
});
