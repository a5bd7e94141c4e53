// Lambda's control plane over the world's functions: what `cdk deploy --hotswap` calls. A function changed here
// differs from its template, as on AWS. https://docs.aws.amazon.com/lambda/latest/api/
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GetAliasCommand,
  GetFunctionCommand,
  GetFunctionConfigurationCommand,
  InvokeCommand,
  LambdaClient,
  ListFunctionsCommand,
  PublishVersionCommand,
  UpdateAliasCommand,
  UpdateFunctionCodeCommand,
  UpdateFunctionConfigurationCommand,
} from '@aws-sdk/client-lambda';
import { CreateStackCommand, GetTemplateCommand } from '@aws-sdk/client-cloudformation';
import { createHash } from 'node:crypto';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { awsErrorOf } from '../helpers/errors.js';

let server: TestServer;
let lambda: LambdaClient;
const TEMPLATE = `Resources:
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: hello
      Runtime: nodejs20.x
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Code: { ZipFile: "exports.handler = async () => 'v1'" }
      Environment: { Variables: { STAGE: dev } }
  Live:
    Type: AWS::Lambda::Alias
    Properties: { FunctionName: !Ref Fn, FunctionVersion: $LATEST, Name: live }
`;

beforeAll(async () => {
  server = await startServer();
  lambda = new LambdaClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'fn', TemplateBody: TEMPLATE }));
  expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
});
afterAll(() => server.close());

describe('reads', () => {
  it("GetFunction shows a stack's function as Lambda's configuration", async () => {
    const { Configuration, Code } = await lambda.send(new GetFunctionCommand({ FunctionName: 'hello' }));
    expect(Configuration).toMatchObject({
      FunctionName: 'hello',
      FunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:hello',
      Runtime: 'nodejs20.x',
      Handler: 'index.handler',
      Version: '$LATEST',
      State: 'Active',
      LastUpdateStatus: 'Successful',
      Timeout: 3,
      MemorySize: 128,
      Environment: { Variables: { STAGE: 'dev' } },
      PackageType: 'Zip',
    });
    expect(Configuration!.LastModified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
    expect(Code!.RepositoryType).toBe('S3');
    const byArn = await lambda.send(
      new GetFunctionConfigurationCommand({ FunctionName: 'arn:aws:lambda:us-east-1:000000000000:function:hello' }),
    );
    expect(byArn.CodeSha256).toBe(Configuration!.CodeSha256);
    expect((await lambda.send(new ListFunctionsCommand({}))).Functions!.map((f) => f.FunctionName)).toEqual(['hello']);
  });

  it('answers ResourceNotFoundException (404) for a function the account does not have', async () => {
    expect(await awsErrorOf(lambda.send(new GetFunctionCommand({ FunctionName: 'nope' })))).toEqual({
      code: 'ResourceNotFoundException',
      status: 404,
      message: 'Function not found: arn:aws:lambda:us-east-1:000000000000:function:nope',
    });
  });
});

describe('hotswap calls', () => {
  it("UpdateFunctionCode changes the code hash while the stack's template stays as it was", async () => {
    const before = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'hello' }));
    const zip = Buffer.from('PK fake zip v2');
    const after = await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: 'hello', ZipFile: zip }));
    expect(after.CodeSha256).not.toBe(before.CodeSha256);
    expect(after.CodeSize).toBe(zip.length);
    expect(after.RevisionId).not.toBe(before.RevisionId);
    expect((await lambda.send(new GetFunctionCommand({ FunctionName: 'hello' }))).Configuration!.CodeSha256).toBe(
      after.CodeSha256,
    );
    expect((await server.client.send(new GetTemplateCommand({ StackName: 'fn' }))).TemplateBody).toContain("'v1'");
    expect(
      await awsErrorOf(
        lambda.send(
          new UpdateFunctionCodeCommand({ FunctionName: 'hello', ZipFile: zip, RevisionId: before.RevisionId }),
        ),
      ),
    ).toMatchObject({
      code: 'PreconditionFailedException',
      status: 412,
    });
  });

  it('UpdateFunctionCode from S3 hashes the object as Lambda does, and refuses a key the bucket lacks', async () => {
    const s3 = s3Client(server.endpoint);
    const zip = Buffer.from('PK zip in a bucket');
    await s3.send(new CreateBucketCommand({ Bucket: 'code' }));
    await s3.send(new PutObjectCommand({ Bucket: 'code', Key: 'fn.zip', Body: zip }));
    const updated = await lambda.send(
      new UpdateFunctionCodeCommand({ FunctionName: 'hello', S3Bucket: 'code', S3Key: 'fn.zip' }),
    );
    expect(updated).toMatchObject({
      CodeSha256: createHash('sha256').update(zip).digest('base64'),
      CodeSize: zip.length,
    });
    expect(
      await awsErrorOf(
        lambda.send(new UpdateFunctionCodeCommand({ FunctionName: 'hello', S3Bucket: 'code', S3Key: 'missing.zip' })),
      ),
    ).toEqual({
      code: 'InvalidParameterValueException',
      status: 400,
      message:
        'Error occurred while GetObject. S3 Error Code: NoSuchKey. S3 Error Message: The specified key does not exist.',
    });
  });

  it('UpdateFunctionConfiguration changes the environment and refuses values out of range', async () => {
    const updated = await lambda.send(
      new UpdateFunctionConfigurationCommand({
        FunctionName: 'hello',
        Environment: { Variables: { STAGE: 'hot' } },
        Timeout: 30,
      }),
    );
    expect(updated).toMatchObject({ Environment: { Variables: { STAGE: 'hot' } }, Timeout: 30 });
    expect(
      await awsErrorOf(lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'hello', MemorySize: 64 }))),
    ).toMatchObject({
      code: 'ValidationException',
      message:
        "1 validation error detected: Value '64' at 'memorySize' failed to satisfy constraint: Member must have value greater than or equal to 128",
    });
  });

  it("PublishVersion makes version 1, and UpdateAlias points the stack's alias at it", async () => {
    const v1 = await lambda.send(new PublishVersionCommand({ FunctionName: 'hello' }));
    expect(v1).toMatchObject({ Version: '1', FunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:hello:1' });
    expect((await lambda.send(new GetAliasCommand({ FunctionName: 'hello', Name: 'live' }))).FunctionVersion).toBe(
      '$LATEST',
    );
    const alias = await lambda.send(
      new UpdateAliasCommand({ FunctionName: 'hello', Name: 'live', FunctionVersion: '1' }),
    );
    expect(alias).toMatchObject({
      Name: 'live',
      FunctionVersion: '1',
      AliasArn: 'arn:aws:lambda:us-east-1:000000000000:function:hello:live',
    });
    expect(
      (await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'hello', Qualifier: 'live' }))).Version,
    ).toBe('1');
    expect((await awsErrorOf(lambda.send(new GetAliasCommand({ FunctionName: 'hello', Name: 'nope' })))).code).toBe(
      'ResourceNotFoundException',
    );
  });
});

describe('Invoke', () => {
  it('answers a clear error with --no-lambda and no --lambda-endpoint', async () => {
    const off = await startServer({ lambda: false });
    try {
      await off.client.send(new CreateStackCommand({ StackName: 'fn', TemplateBody: TEMPLATE }));
      const client = new LambdaClient({
        endpoint: off.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      const e = await awsErrorOf(client.send(new InvokeCommand({ FunctionName: 'hello' })));
      expect(e.status).toBe(501);
      expect(e.message).toContain('--no-lambda');
      expect(e.message).toContain('--lambda-endpoint');
    } finally {
      await off.close();
    }
  });

  it('forwards to --lambda-endpoint and answers what it answered', async () => {
    const seen: string[] = [];
    const target: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push(`${req.url} ${body}`);
        res
          .writeHead(200, { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST' })
          .end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const forwarding = await startServer({
      lambdaEndpoint: `http://127.0.0.1:${(target.address() as { port: number }).port}`,
    });
    try {
      const { StackId } = await forwarding.client.send(
        new CreateStackCommand({ StackName: 'fn', TemplateBody: TEMPLATE }),
      );
      await waitForStack(forwarding.client, StackId!);
      const client = new LambdaClient({
        endpoint: forwarding.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      const out = await client.send(new InvokeCommand({ FunctionName: 'hello', Payload: Buffer.from('{"n":1}') }));
      expect(out.StatusCode).toBe(200);
      expect(Buffer.from(out.Payload!).toString()).toBe('{"ok":true}');
      expect(seen).toEqual(['/2015-03-31/functions/hello/invocations {"n":1}']);
    } finally {
      await forwarding.close();
      target.close();
    }
  });
});
