// Versions and aliases run the code they point at: Invoke with a Qualifier (a version number, an alias, or
// `name:qualifier`) runs the code the version was published with, also after the function's code has changed, and
// answers X-Amz-Executed-Version. docs/lambda-runtime.md, "Code"
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InvokeCommand,
  LambdaClient,
  PublishVersionCommand,
  UpdateAliasCommand,
  UpdateFunctionCodeCommand,
} from '@aws-sdk/client-lambda';
import { CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { strToU8, zipSync } from 'fflate';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';

let server: TestServer;
let lambda: LambdaClient;

const TEMPLATE = `Resources:
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: versioned
      Runtime: nodejs20.x
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Code:
        ZipFile: "exports.handler = async () => ({ code: 'one', version: process.env.AWS_LAMBDA_FUNCTION_VERSION });"
  V1:
    Type: AWS::Lambda::Version
    Properties: { FunctionName: !Ref Fn, Description: first }
  Live:
    Type: AWS::Lambda::Alias
    Properties: { FunctionName: !Ref Fn, FunctionVersion: !GetAtt V1.Version, Name: live }
Outputs:
  Version: { Value: !GetAtt V1.Version }
  VersionArn: { Value: !Ref V1 }
  AliasArn: { Value: !Ref Live }
`;

const zipOf = (code: string) =>
  zipSync({
    'index.js': strToU8(
      `exports.handler = async () => ({ code: '${code}', version: process.env.AWS_LAMBDA_FUNCTION_VERSION });`,
    ),
  });

async function run(FunctionName: string, Qualifier?: string) {
  const out = await lambda.send(new InvokeCommand({ FunctionName, Qualifier }));
  return { ...JSON.parse(Buffer.from(out.Payload!).toString('utf8')), executed: out.ExecutedVersion };
}

let outputs: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  lambda = new LambdaClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: 'versions', TemplateBody: TEMPLATE }),
  );
  expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
  const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'versions' }));
  outputs = Object.fromEntries(Stacks![0].Outputs!.map((o) => [o.OutputKey!, o.OutputValue!]));
});
afterAll(async () => {
  await server.close();
});

describe('Lambda versions and aliases', () => {
  it("a stack's AWS::Lambda::Version is version 1 and its AWS::Lambda::Alias points at it", () => {
    expect(outputs.Version).toBe('1');
    expect(outputs.VersionArn).toBe('arn:aws:lambda:us-east-1:000000000000:function:versioned:1');
    expect(outputs.AliasArn).toBe('arn:aws:lambda:us-east-1:000000000000:function:versioned:live');
  });

  it('Invoke with a version, an alias, or name:qualifier runs that version', async () => {
    expect(await run('versioned')).toEqual({ code: 'one', version: '$LATEST', executed: '$LATEST' });
    expect(await run('versioned', '1')).toEqual({ code: 'one', version: '1', executed: '1' });
    expect(await run('versioned', 'live')).toEqual({ code: 'one', version: '1', executed: '1' });
    expect(await run('versioned:live')).toEqual({ code: 'one', version: '1', executed: '1' });
    expect(await run(outputs.AliasArn)).toEqual({ code: 'one', version: '1', executed: '1' });
  });

  it('after UpdateFunctionCode, $LATEST runs the new code and the published versions keep theirs', async () => {
    await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: 'versioned', ZipFile: zipOf('two') }));
    expect(await run('versioned')).toMatchObject({ code: 'two', executed: '$LATEST' });
    expect(await run('versioned', '1')).toMatchObject({ code: 'one', executed: '1' });
    const v2 = await lambda.send(new PublishVersionCommand({ FunctionName: 'versioned' }));
    expect(v2.Version).toBe('2');
    await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: 'versioned', ZipFile: zipOf('three') }));
    expect(await run('versioned', '2')).toMatchObject({ code: 'two', executed: '2' });
    expect(await run('versioned', 'live')).toMatchObject({ code: 'one', executed: '1' });
    await lambda.send(new UpdateAliasCommand({ FunctionName: 'versioned', Name: 'live', FunctionVersion: '2' }));
    expect(await run('versioned', 'live')).toMatchObject({ code: 'two', version: '2', executed: '2' });
    expect(await run('versioned')).toMatchObject({ code: 'three', executed: '$LATEST' });
  });

  it('a qualifier that names no version or alias is ResourceNotFoundException', async () => {
    expect(await awsErrorOf(lambda.send(new InvokeCommand({ FunctionName: 'versioned', Qualifier: '9' })))).toEqual({
      code: 'ResourceNotFoundException',
      message: 'Function not found: arn:aws:lambda:us-east-1:000000000000:function:versioned:9',
      status: 404,
    });
  });
});
