// Shared pieces of the nested-stack tests: templates put where a TemplateURL can read them, and tree lookups.
import { DescribeStacksCommand, type CloudFormationClient, type Stack } from '@aws-sdk/client-cloudformation';
import { allEvents } from '../helpers/events.js';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';

const BUCKET = 'nested-templates';
const withBucket = new WeakSet<TestServer>();
let counter = 0;

/**
 * Puts a child template in the server's S3 (at `url`, or a new key) and returns its TemplateURL, in the path-style
 * form a deploy tool writes (`https://s3.<region>.amazonaws.com/<bucket>/<key>`).
 */
export async function putTemplate(
  server: TestServer,
  body: string,
  url = `https://s3.us-east-1.amazonaws.com/${BUCKET}/t${++counter}.yaml`,
): Promise<string> {
  const s3 = s3Client(server.endpoint);
  if (!withBucket.has(server)) {
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    withBucket.add(server);
  }
  await s3.send(
    new PutObjectCommand({ Bucket: BUCKET, Key: new URL(url).pathname.split('/').slice(2).join('/'), Body: body }),
  );
  return url;
}

export const param = (name: string, extra = '') => `  ${name}:
    Type: AWS::SSM::Parameter
${extra}    Properties:
      Type: String
      Value: ${name}
`;

export const failing = (fail: string) =>
  `    Metadata:\n      cfn-local:\n        Fail: [${fail}]\n        Message: "Rate exceeded"\n`;

export const nested = (logicalId: string, url: string, extra = '') => `  ${logicalId}:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ${url}
${extra}`;

/** The child stack behind a parent's AWS::CloudFormation::Stack resource (by its events: a rolled-back parent keeps no resources). */
export async function childOf(client: CloudFormationClient, parent: string, logicalId: string): Promise<Stack> {
  const events = await allEvents(client, parent);
  const id = events.find((e) => e.LogicalResourceId === logicalId && e.PhysicalResourceId)!.PhysicalResourceId;
  const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: id }));
  return Stacks![0];
}
