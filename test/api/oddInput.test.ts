// Valid or merely odd input never answers 500 (issue #25): each gets the error its service gives. A JSON body that
// is no object, one nested 100,000 deep, a repeated query name, a response header override no response can carry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LambdaClient, UntagResourceCommand } from '@aws-sdk/client-lambda';
import { awsErrorOf } from '../helpers/errors.js';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { ACTIONS } from '../../handlers/cloudformation/index.js';
import { SSM_ACTIONS } from '../../handlers/ssm/index.js';
import { NOT_IMPLEMENTED } from '../../handlers/actionTable.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';

let server: TestServer;
let s3: S3Client;
beforeAll(async () => {
  server = await startServer();
  s3 = s3Client(server.endpoint);
  await s3.send(new CreateBucketCommand({ Bucket: 'bkt1' }));
  await s3.send(new PutObjectCommand({ Bucket: 'bkt1', Key: 'k', Body: 'x' }));
});
afterAll(() => server.close());

const served = (table: Record<string, unknown>) =>
  Object.entries(table)
    .filter(([, row]) => row !== NOT_IMPLEMENTED)
    .map(([name]) => name);

async function awsJson(target: string, body: string, version = '1.0') {
  const res = await fetch(server.endpoint, {
    method: 'POST',
    headers: { 'x-amz-target': target, 'content-type': `application/x-amz-json-${version}` },
    body,
  });
  return { status: res.status, body: (await res.json()) as { __type: string; message: string } };
}

const DEEP = (n: number) => `{"Name":${'['.repeat(n)}${']'.repeat(n)}}`;

describe('a JSON body that is no object', () => {
  it.each(served(ACTIONS))('CloudFormation.%s with null: ValidationError, not 500', async (action) => {
    const { status, body } = await awsJson(`CloudFormation.${action}`, 'null');
    expect({ status, type: body.__type }).toEqual({
      status: 400,
      type: 'com.amazonaws.cloudformation#ValidationError',
    });
  });

  it.each(served(SSM_ACTIONS))('AmazonSSM.%s with null: SerializationException', async (action) => {
    const { status, body } = await awsJson(`AmazonSSM.${action}`, 'null', '1.1');
    expect({ status, type: body.__type }).toEqual({ status: 400, type: 'SerializationException' });
  });

  it.each(['[]', '5', '"text"'])('SSM with %s: SerializationException', async (text) => {
    expect((await awsJson('AmazonSSM.GetParameter', text, '1.1')).body.__type).toBe('SerializationException');
  });
});

describe('a body nested 100,000 levels deep', () => {
  it('SSM: SerializationException (the message echo overflowed the stack)', async () => {
    const { status, body } = await awsJson('AmazonSSM.GetParameter', DEEP(100_000), '1.1');
    expect({ status, type: body.__type }).toEqual({ status: 400, type: 'SerializationException' });
  });

  it('CloudFormation awsJson: ValidationError', async () => {
    expect((await awsJson('CloudFormation.DescribeStacks', DEEP(100_000))).status).toBe(400);
  });

  it('Lambda: ValidationException, the body not parsed', async () => {
    const res = await fetch(`${server.endpoint}/2015-03-31/functions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/lambda/aws4_request, Signature=x',
      },
      body: DEEP(100_000),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Could not parse request body into json');
  });

  it('1,000 levels (the limit) still parse', async () => {
    const { body } = await awsJson('AmazonSSM.GetParameter', DEEP(999), '1.1');
    expect(body.__type).toBe('ValidationException');
  });
});

describe('a repeated query parameter', () => {
  it('lambda.untag_resource(TagKeys=[a, b]) answers what Lambda does: the function does not exist', async () => {
    const lambda = new LambdaClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    const call = lambda.send(
      new UntagResourceCommand({ Resource: 'arn:aws:lambda:us-east-1:000000000000:function:f', TagKeys: ['a', 'b'] }),
    );
    expect(await awsErrorOf(call)).toEqual({
      code: 'ResourceNotFoundException',
      message: 'Function not found: arn:aws:lambda:us-east-1:000000000000:function:f',
      status: 404,
    });
  });

  it('CloudFormation query: the values arrive joined, refused as a name', async () => {
    const res = await fetch(`${server.endpoint}/?Action=DescribeStacks&StackName=a&StackName=b`, { method: 'POST' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Stack with id a,b does not exist');
  });
});

describe('a response header override no response can carry', () => {
  it.each([
    ['response-content-type', '%0d%0aX-Injected:1', 'X-Injected:1'],
    ['response-content-disposition', 'attachment%3B%20filename%3D%E5%80%89', 'attachment; filename=倉'],
  ])('GET ?%s=%s: InvalidArgument in S3 XML', async (name, encoded, decoded) => {
    const res = await fetch(`${server.endpoint}/bkt1/k?${name}=${encoded}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('x-injected')).toBeNull();
    const text = await res.text();
    expect(text).toContain('<Code>InvalidArgument</Code>');
    expect(text).toContain('<Message>Header value cannot be represented using ISO-8859-1.</Message>');
    expect(text).toContain(`<ArgumentName>${name}</ArgumentName>`);
    expect(text).toMatch(new RegExp(`<ArgumentValue>[^<]*${decoded}</ArgumentValue>`));
  });

  it('an override that can be sent still applies', async () => {
    const out = await s3.send(new GetObjectCommand({ Bucket: 'bkt1', Key: 'k', ResponseContentType: 'text/x-ok' }));
    expect(out.ContentType).toBe('text/x-ok');
  });
});
