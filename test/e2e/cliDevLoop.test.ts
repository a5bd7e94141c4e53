// The AWS CLI's deploy loop against cfn-local with nothing but AWS_ENDPOINT_URL set: `cloudformation package` uploads
// local code to S3, `cloudformation deploy --s3-bucket` uploads a template over the 51,200-byte TemplateBody quota
// and passes its URL, `ssm get-parameter` reads a parameter the stack created, and a SAM app's nested
// AWS::Serverless::Application is uploaded by `package` and deployed as a nested stack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DescribeStackResourceCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { startServer, type TestServer } from '../helpers/server.js';
import { clientEnv, endpointUrlAwsCli, gate, run } from './clients.js';
import { samGate } from '../helpers/sam.js';

const found = await endpointUrlAwsCli();
// Not a CI failure when missing: Debian 12's awscli (2.9) predates AWS_ENDPOINT_URL, and the loop needs nothing else.
if (!found.cli) console.warn(`[cfn-local e2e] skipping the AWS CLI dev loop: ${found.availability.reason}`);
// Each CLI start is a Python start: seconds on a loaded machine.
const STEP_MS = 240_000;
const sam = await samGate('a nested SAM application');
/** A SAM app whose AWS::Serverless::Application is a local template that `package` uploads. */
const NESTED_APP = `Transform: AWS::Serverless-2016-10-31
Resources:
  Greeter:
    Type: AWS::Serverless::Application
    Properties:
      Location: ./greeter.yaml
      Parameters: { Greeting: hello }
Outputs:
  Greeting: { Value: !GetAtt Greeter.Outputs.Greeting }
`;
const GREETER = `Transform: AWS::Serverless-2016-10-31
Parameters:
  Greeting: { Type: String }
Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties: { Runtime: python3.12, Handler: index.handler, InlineCode: "def handler(e, c): return 1" }
Outputs:
  Greeting: { Value: !Ref Greeting }
`;
const suite = gate('AWS CLI dev loop', found.availability);

/** A template past 51,200 bytes: a function with local code, and parameters whose descriptions make up the bulk. */
function bigTemplate(): string {
  const lines = [
    'AWSTemplateFormatVersion: "2010-09-09"',
    'Resources:',
    '  Fn:',
    '    Type: AWS::Lambda::Function',
    '    Properties:',
    '      Runtime: python3.12',
    '      Handler: app.handler',
    '      Role: arn:aws:iam::000000000000:role/exec',
    '      Code: ./src',
    '  Setting:',
    '    Type: AWS::SSM::Parameter',
    '    Properties:',
    '      Name: /cli/setting',
    '      Type: String',
    '      Value: from-the-cli',
  ];
  for (let i = 0; i < 60; i++) {
    lines.push(
      `  Filler${i}:`,
      '    Type: AWS::SSM::Parameter',
      '    Properties:',
      '      Type: String',
      `      Value: filler-${i}`,
      `      Description: ${'x'.repeat(900)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

describe.skipIf(suite.skip)(suite.title, () => {
  let server: TestServer;
  let work: string;
  const aws = (...args: string[]) =>
    run(found.cli!, ['--output', 'json', ...args], {
      cwd: work,
      env: clientEnv({ AWS_ENDPOINT_URL: server.endpoint, AWS_DEFAULT_REGION: 'us-east-1' }),
      timeoutMs: STEP_MS,
    });

  beforeAll(async () => {
    server = await startServer();
    work = mkdtempSync(join(tmpdir(), 'cfn-local-cli-'));
    mkdirSync(join(work, 'src'));
    writeFileSync(join(work, 'src', 'app.py'), 'def handler(event, context):\n    return "ok"\n');
    writeFileSync(join(work, 'big.yaml'), bigTemplate());
  });
  afterAll(async () => {
    await server.close();
  });

  it(
    'package uploads the code to S3 and deploy --s3-bucket deploys a template over 51,200 bytes',
    async () => {
      expect(Buffer.byteLength(readFileSync(join(work, 'big.yaml')))).toBeGreaterThan(51_200);
      const mb = await aws('s3', 'mb', 's3://artifacts');
      expect(mb.code, mb.stderr).toBe(0);
      const packaged = await aws(
        'cloudformation',
        'package',
        '--template-file',
        'big.yaml',
        '--s3-bucket',
        'artifacts',
        '--output-template-file',
        'packaged.yaml',
      );
      expect(packaged.code, packaged.stderr).toBe(0);
      expect(readFileSync(join(work, 'packaged.yaml'), 'utf8')).toMatch(/S3Bucket: artifacts/);
      const deployed = await aws(
        'cloudformation',
        'deploy',
        '--template-file',
        'packaged.yaml',
        '--stack-name',
        'big',
        '--s3-bucket',
        'artifacts',
      );
      expect(deployed.code, deployed.stderr).toBe(0);
      expect(deployed.stdout).toContain('Successfully created/updated stack - big');
      const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'big' }));
      expect(Stacks![0].StackStatus).toBe('CREATE_COMPLETE');
      expect(
        Buffer.byteLength((await server.client.send(new GetTemplateCommand({ StackName: 'big' }))).TemplateBody!),
      ).toBeGreaterThan(51_200);
      const { StackResourceDetail } = await server.client.send(
        new DescribeStackResourceCommand({ StackName: 'big', LogicalResourceId: 'Fn' }),
      );
      const lambda = new LambdaClient({
        endpoint: server.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      const fn = await lambda.send(
        new GetFunctionConfigurationCommand({ FunctionName: StackResourceDetail!.PhysicalResourceId }),
      );
      expect(fn.Runtime).toBe('python3.12');
    },
    STEP_MS,
  );

  it(
    'ssm get-parameter reads the parameter the stack created',
    async () => {
      const got = await aws('ssm', 'get-parameter', '--name', '/cli/setting');
      expect(got.code, got.stderr).toBe(0);
      expect(JSON.parse(got.stdout).Parameter).toMatchObject({
        Name: '/cli/setting',
        Value: 'from-the-cli',
        Type: 'String',
        Version: 1,
      });
    },
    STEP_MS,
  );

  it.skipIf(sam.skip)(
    `package uploads a nested SAM application and deploy makes it a nested stack${sam.skip ? ` — ${sam.title}` : ''}`,
    async () => {
      writeFileSync(join(work, 'app.yaml'), NESTED_APP);
      writeFileSync(join(work, 'greeter.yaml'), GREETER);
      const packaged = await aws(
        'cloudformation',
        'package',
        '--template-file',
        'app.yaml',
        '--s3-bucket',
        'artifacts',
        '--output-template-file',
        'app-packaged.yaml',
      );
      expect(packaged.code, packaged.stderr).toBe(0);
      expect(readFileSync(join(work, 'app-packaged.yaml'), 'utf8')).toMatch(/Location: http\S+\/artifacts\//);
      const deployed = await aws(
        'cloudformation',
        'deploy',
        '--template-file',
        'app-packaged.yaml',
        '--stack-name',
        'sam-nested',
        '--capabilities',
        'CAPABILITY_IAM',
        'CAPABILITY_AUTO_EXPAND',
      );
      expect(deployed.code, deployed.stderr).toBe(0);
      const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'sam-nested' }));
      expect(Stacks![0].StackStatus).toBe('CREATE_COMPLETE');
      expect(Stacks![0].Outputs).toEqual([expect.objectContaining({ OutputKey: 'Greeting', OutputValue: 'hello' })]);
      const { StackResourceDetail: app } = await server.client.send(
        new DescribeStackResourceCommand({ StackName: 'sam-nested', LogicalResourceId: 'Greeter' }),
      );
      expect(app!.ResourceType).toBe('AWS::CloudFormation::Stack');
      const child = await server.client.send(new DescribeStacksCommand({ StackName: app!.PhysicalResourceId }));
      expect(child.Stacks![0]).toMatchObject({ StackStatus: 'CREATE_COMPLETE', ParentId: Stacks![0].StackId });
    },
    STEP_MS,
  );
});
