// Invoke runs the account's functions in cfn-local's runtime: nodejs* on this machine's node, python3* on its python3,
// with Lambda's event, context, environment, errors, timeouts and log tail. docs/lambda-runtime.md
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvokeCommand, LambdaClient, UpdateFunctionCodeCommand } from '@aws-sdk/client-lambda';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { zipSync, strToU8 } from 'fflate';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { awsErrorOf } from '../helpers/errors.js';
import { canMountOpt } from '../../runtime/optMount.js';

let server: TestServer;
let lambda: LambdaClient;

const NODE_ECHO = `exports.handler = async (event, context) => {
  console.log('got', JSON.stringify(event));
  return {
    event,
    requestId: context.awsRequestId,
    arn: context.invokedFunctionArn,
    remaining: context.getRemainingTimeInMillis(),
    env: Object.fromEntries(['AWS_REGION', 'AWS_LAMBDA_FUNCTION_NAME', 'AWS_LAMBDA_FUNCTION_VERSION',
      'AWS_LAMBDA_FUNCTION_MEMORY_SIZE', '_HANDLER', 'STAGE', 'AWS_EXECUTION_ENV'].map((k) => [k, process.env[k]])),
    taskRoot: process.env.LAMBDA_TASK_ROOT === process.cwd(),
    pid: process.pid,
  };
};`;

const PY_ECHO = `import os
def handler(event, context):
    print("got", event)
    return {"event": event, "requestId": context.aws_request_id, "remaining": context.get_remaining_time_in_millis(),
            "name": os.environ["AWS_LAMBDA_FUNCTION_NAME"], "handler": os.environ["_HANDLER"], "stage": os.environ.get("STAGE")}
`;

const fn = (name: string, runtime: string, code: string, extra = '') => `
  ${name}:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: ${name.toLowerCase()}
      Runtime: ${runtime}
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      MemorySize: 256
      Environment: { Variables: { STAGE: dev, PARAM: !Ref Param, BUCKET: !Ref Bucket } }
      Code:
        ZipFile: |
${code
  .split('\n')
  .map((l) => `          ${l}`)
  .join('\n')}
${extra}`;

const TEMPLATE = `Resources:
  Param:
    Type: AWS::SSM::Parameter
    Properties: { Name: /app/greeting, Type: String, Value: hello-from-ssm }
  Bucket:
    Type: AWS::S3::Bucket
${fn('NodeEcho', 'nodejs20.x', NODE_ECHO)}
${fn('PyEcho', 'python3.12', PY_ECHO)}
${fn('NodeThrows', 'nodejs22.x', "exports.handler = async () => { throw new TypeError('bad input'); };")}
${fn('PyThrows', 'python3.12', 'def handler(event, context):\n    raise ValueError("bad input")')}
${fn('NodeSleeps', 'nodejs20.x', 'exports.handler = () => new Promise(() => {});', '      Timeout: 1')}
${fn(
  'NodeSdk',
  'nodejs20.x',
  `const { SSMClient, GetParameterCommand } = require('@aws-sdk/client-ssm');
const { S3Client, PutObjectCommand, GetObjectCommand } = require('@aws-sdk/client-s3');
exports.handler = async () => {
  const ssm = new SSMClient({});
  const p = await ssm.send(new GetParameterCommand({ Name: process.env.PARAM }));
  const s3 = new S3Client({});
  await s3.send(new PutObjectCommand({ Bucket: process.env.BUCKET, Key: 'from-node.txt', Body: p.Parameter.Value }));
  const o = await s3.send(new GetObjectCommand({ Bucket: process.env.BUCKET, Key: 'from-node.txt' }));
  return { value: p.Parameter.Value, object: await o.Body.transformToString() };
};`,
)}
${fn(
  'PySdk',
  'python3.12',
  `import os, boto3
def handler(event, context):
    value = boto3.client("ssm").get_parameter(Name=os.environ["PARAM"])["Parameter"]["Value"]
    s3 = boto3.client("s3")
    s3.put_object(Bucket=os.environ["BUCKET"], Key="from-python.txt", Body=value.encode())
    body = s3.get_object(Bucket=os.environ["BUCKET"], Key="from-python.txt")["Body"].read().decode()
    return {"value": value, "object": body}`,
)}
  Counter:
    Type: AWS::SSM::Parameter
    Properties: { Name: /retry/count, Type: String, Value: '0' }
${fn(
  'PyRetried',
  'python3.12',
  `import boto3
def handler(event, context):
    ssm = boto3.client("ssm")
    n = int(ssm.get_parameter(Name="/retry/count")["Parameter"]["Value"]) + 1
    ssm.put_parameter(Name="/retry/count", Value=str(n), Type="String", Overwrite=True)
    raise RuntimeError("attempt %d" % n)`,
)}
${fn('NodeFloods', 'nodejs20.x', "exports.handler = async () => { for (let i = 0; i < 200000; i++) process.stdout.write('line ' + i + '\\n'); return 'done'; };")}
${fn('NodeExits', 'nodejs20.x', 'exports.handler = async () => { process.exit(3); };')}
${fn('NodeMissing', 'nodejs20.x', 'exports.other = async () => 1;')}
${fn('PyBroken', 'python3.12', 'import no_such_module\ndef handler(event, context):\n    return 1')}
  Java:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: java
      Runtime: java21
      Handler: example.Handler
      Role: arn:aws:iam::000000000000:role/exec
      Code: { S3Bucket: assets, S3Key: node.zip }
  Asset:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: asset
      Runtime: nodejs20.x
      Handler: src/app.main
      Role: arn:aws:iam::000000000000:role/exec
      Code: { S3Bucket: assets, S3Key: node.zip }
  Layer:
    Type: AWS::Lambda::LayerVersion
    Properties:
      LayerName: greet
      Content: { S3Bucket: assets, S3Key: layer.zip }
  NodeLayered:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: nodelayered
      Runtime: nodejs20.x
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Layers: [!Ref Layer]
      Code:
        ZipFile: |
          const fs = require('fs');
          exports.handler = async () => ({ greet: require('greet')('node'), opt: fs.existsSync('/opt/nodejs/node_modules/greet/index.js'), tool: fs.existsSync('/opt/bin/tool') });
  PyLayered:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: pylayered
      Runtime: python3.12
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Layers: [!Ref Layer]
      Code:
        ZipFile: |
          import greet
          def handler(event, context):
              return {"greet": greet.greet("python")}
  PyAsset:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: pyasset
      Runtime: python3.12
      Handler: pkg/app.main
      Role: arn:aws:iam::000000000000:role/exec
      Code: { S3Bucket: assets, S3Key: py.zip }
`;

const invoke = async (name: string, payload: unknown = {}, extra: Record<string, unknown> = {}) => {
  const out = await lambda.send(
    new InvokeCommand({ FunctionName: name, Payload: Buffer.from(JSON.stringify(payload)), ...extra }),
  );
  const text = out.Payload ? Buffer.from(out.Payload).toString('utf8') : '';
  return { ...out, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
};

beforeAll(async () => {
  // Lambda retries a failed asynchronous invocation after one and two minutes; here after 50 ms each.
  server = await startServer({ lambdaRetryDelaysMs: [50, 50] });
  lambda = new LambdaClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const s3 = s3Client(server.endpoint);
  await s3.send(new CreateBucketCommand({ Bucket: 'assets' }));
  const nodeZip = zipSync({
    'src/app.mjs': strToU8('export const main = async (e) => ({ esm: true, got: e.n });'),
    'package.json': strToU8('{}'),
  });
  await s3.send(new PutObjectCommand({ Bucket: 'assets', Key: 'node.zip', Body: nodeZip }));
  const pyZip = zipSync({
    'pkg/__init__.py': strToU8(''),
    'pkg/app.py': strToU8('def main(event, context):\n    return {"py": True, "got": event["n"]}\n'),
  });
  await s3.send(new PutObjectCommand({ Bucket: 'assets', Key: 'py.zip', Body: pyZip }));
  const layerZip = zipSync({
    'nodejs/node_modules/greet/index.js': strToU8("module.exports = (who) => 'hello ' + who;"),
    'python/greet.py': strToU8('def greet(who):\n    return "hello " + who\n'),
    'bin/tool': strToU8('#!/bin/sh\necho tool\n'),
  });
  await s3.send(new PutObjectCommand({ Bucket: 'assets', Key: 'layer.zip', Body: layerZip }));
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'fns', TemplateBody: TEMPLATE }));
  expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
}, 30_000);
afterAll(() => server.close());

describe('RequestResponse', () => {
  it('runs a nodejs ZipFile function with the event, context and environment Lambda gives', async () => {
    const out = await invoke('nodeecho', { a: 1 }, { LogType: 'Tail' });
    expect(out.StatusCode).toBe(200);
    expect(out.ExecutedVersion).toBe('$LATEST');
    expect(out.FunctionError).toBeUndefined();
    expect(out.body).toMatchObject({
      event: { a: 1 },
      arn: 'arn:aws:lambda:us-east-1:000000000000:function:nodeecho',
      env: {
        AWS_REGION: 'us-east-1',
        AWS_LAMBDA_FUNCTION_NAME: 'nodeecho',
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256',
        _HANDLER: 'index.handler',
        STAGE: 'dev',
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs20.x',
      },
      taskRoot: true,
    });
    expect(out.body!.remaining).toBeGreaterThan(1000);
    expect(out.body!.remaining).toBeLessThanOrEqual(3000);
    const tail = Buffer.from(out.LogResult!, 'base64').toString('utf8');
    const id = String(out.body!.requestId);
    expect(tail).toContain(`START RequestId: ${id} Version: $LATEST`);
    expect(tail).toMatch(new RegExp(`\\t${id}\\tINFO\\tgot {"a":1}`));
    expect(tail).toContain(`END RequestId: ${id}`);
    expect(tail).toMatch(
      new RegExp(`REPORT RequestId: ${id}\\tDuration: [\\d.]+ ms\\tBilled Duration: \\d+ ms\\tMemory Size: 256 MB`),
    );
  });

  it('keeps a warm environment for the next invocation, and gives concurrent ones their own', async () => {
    const first = await invoke('nodeecho');
    const second = await invoke('nodeecho');
    expect(second.body!.pid).toBe(first.body!.pid);
    const both = await Promise.all([invoke('nodeecho'), invoke('nodeecho')]);
    expect(both[0].body!.pid).not.toBe(both[1].body!.pid);
  });

  it('runs a python3 ZipFile function', async () => {
    const out = await invoke('pyecho', { b: [1, 2] });
    expect(out.StatusCode).toBe(200);
    expect(out.body).toMatchObject({ event: { b: [1, 2] }, name: 'pyecho', handler: 'index.handler', stage: 'dev' });
    expect(out.body!.remaining).toBeGreaterThan(1000);
  });

  it('runs code from an S3 zip: an ES module at a nested path, and a python package', async () => {
    expect((await invoke('asset', { n: 7 })).body).toEqual({ esm: true, got: 7 });
    expect((await invoke('pyasset', { n: 8 })).body).toEqual({ py: true, got: 8 });
  });

  it("finds a layer's modules where AWS's runtimes look (nodejs/node_modules, python), and its files under /opt", async () => {
    const node = await invoke('nodelayered');
    expect(node.body).toMatchObject({ greet: 'hello node' });
    // /opt itself holds the layers where the machine allows a mount namespace (Linux with user namespaces).
    expect(node.body!.opt).toBe(await canMountOpt());
    expect(node.body!.tool).toBe(await canMountOpt());
    expect((await invoke('pylayered')).body).toEqual({ greet: 'hello python' });
  });

  it("answers a thrown error as Lambda does: X-Amz-Function-Error Unhandled and the runtime's error document", async () => {
    const node = await invoke('nodethrows');
    expect(node.StatusCode).toBe(200);
    expect(node.FunctionError).toBe('Unhandled');
    expect(node.body).toMatchObject({ errorType: 'TypeError', errorMessage: 'bad input' });
    expect((node.body!.trace as string[])[0]).toBe('TypeError: bad input');
    const py = await invoke('pythrows');
    expect(py.FunctionError).toBe('Unhandled');
    expect(py.body).toMatchObject({ errorType: 'ValueError', errorMessage: 'bad input' });
    expect((py.body!.stackTrace as string[]).join('')).toContain('raise ValueError("bad input")');
  });

  it("answers AWS's runtime errors: a process that exits, a handler not exported, a module that cannot import", async () => {
    const exits = await invoke('nodeexits');
    expect(exits.FunctionError).toBe('Unhandled');
    expect(exits.body).toEqual({
      errorType: 'Runtime.ExitError',
      errorMessage: expect.stringMatching(/^RequestId: [0-9a-f-]{36} Error: Runtime exited with error: exit status 3$/),
    });
    expect((await invoke('nodemissing')).body).toMatchObject({
      errorType: 'Runtime.HandlerNotFound',
      errorMessage: 'index.handler is undefined or not exported',
    });
    expect((await invoke('pybroken')).body).toMatchObject({
      errorType: 'Runtime.ImportModuleError',
      errorMessage: "Unable to import module 'index': No module named 'no_such_module'",
    });
  });

  it('answers a function that floods its output, the tail holding its last lines', async () => {
    const out = await invoke('nodefloods', {}, { LogType: 'Tail' });
    expect(out.body).toBe('done');
    const tail = Buffer.from(out.LogResult!, 'base64').toString('utf8');
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(4096);
    expect(tail).toContain('line 199999\n');
  });

  it("stops a function at its Timeout with Lambda's Sandbox.Timedout error", async () => {
    const out = await invoke('nodesleeps');
    expect(out.FunctionError).toBe('Unhandled');
    expect(out.body).toEqual({
      errorType: 'Sandbox.Timedout',
      errorMessage: expect.stringMatching(/^RequestId: [0-9a-f-]{36} Error: Task timed out after 1\.00 seconds$/),
    });
    // The next invocation gets a fresh environment, and times out the same way.
    expect((await invoke('nodesleeps')).body).toMatchObject({ errorType: 'Sandbox.Timedout' });
  });

  it("lets the function's SDK calls reach the stack's SSM parameter and bucket", async () => {
    expect((await invoke('nodesdk')).body).toEqual({ value: 'hello-from-ssm', object: 'hello-from-ssm' });
    expect((await invoke('pysdk')).body).toEqual({ value: 'hello-from-ssm', object: 'hello-from-ssm' });
  });

  it('runs the code UpdateFunctionCode sent next', async () => {
    const zip = zipSync({ 'index.js': strToU8("exports.handler = async () => 'v2';") });
    await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: 'nodeecho', ZipFile: zip }));
    expect((await invoke('nodeecho')).body).toBe('v2');
  });
});

describe('invocation types and refusals', () => {
  it('answers DryRun with 204 and Event with 202', async () => {
    const dry = await lambda.send(new InvokeCommand({ FunctionName: 'pyecho', InvocationType: 'DryRun' }));
    expect(dry.StatusCode).toBe(204);
    const event = await lambda.send(new InvokeCommand({ FunctionName: 'pyecho', InvocationType: 'Event' }));
    expect(event.StatusCode).toBe(202);
  });

  it('retries a failed Event invocation twice, as Lambda does', async () => {
    const ssm = new SSMClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    const event = await lambda.send(new InvokeCommand({ FunctionName: 'pyretried', InvocationType: 'Event' }));
    expect(event.StatusCode).toBe(202);
    const count = async () => (await ssm.send(new GetParameterCommand({ Name: '/retry/count' }))).Parameter!.Value;
    const end = Date.now() + 20_000;
    while ((await count()) !== '3' && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(await count()).toBe('3');
  });

  it('refuses a payload that is not JSON', async () => {
    const err = await awsErrorOf(
      lambda.send(new InvokeCommand({ FunctionName: 'pyecho', Payload: Buffer.from('{nope') })),
    );
    expect(err).toMatchObject({ code: 'InvalidRequestContentException', status: 400 });
  });

  it('refuses a runtime it cannot run, naming it and --lambda-endpoint', async () => {
    const err = await awsErrorOf(lambda.send(new InvokeCommand({ FunctionName: 'java' })));
    expect(err).toMatchObject({ code: 'InvalidRuntimeException', status: 502 });
    expect(err.message).toContain('java21');
    expect(err.message).toContain('--lambda-endpoint');
  });
});
