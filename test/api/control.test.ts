// The control API's own contract: health, reset, and bad input answered with 400/404/409 and a clear message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStackCommand, ListStacksCommand } from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { control, createStack, physicalIdOnceCreated } from './worldHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ defaultRegion: 'eu-west-1' });
});
afterAll(() => server.close());

const raw = async (method: string, path: string, body?: string, contentType = 'application/json') => {
  const res = await fetch(`${server.endpoint}/_cfn-local${path}`, {
    method,
    body,
    headers: body === undefined ? {} : { 'content-type': contentType },
  });
  return { status: res.status, body: await res.json() };
};

describe('GET /_cfn-local/health and POST /_cfn-local/reset', () => {
  it('answers {"status":"ok"}', async () => {
    expect(await control(server, 'GET', '/health')).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('reset empties stacks, the world and faults', async () => {
    await createStack(server, 'before-reset', 'Resources:\n  T:\n    Type: AWS::SNS::Topic\n');
    await control(server, 'POST', '/faults', { action: 'Create' });
    expect(await control(server, 'POST', '/reset')).toEqual({ status: 200, body: { reset: true } });
    expect((await server.client.send(new ListStacksCommand({}))).StackSummaries).toEqual([]);
    expect((await control(server, 'GET', '/world')).body).toEqual({ resources: [] });
    expect((await control(server, 'GET', '/faults')).body).toEqual({ faults: [] });
  });
});

describe('POST /_cfn-local/reset while a stack waits', () => {
  it("ends the wait at once instead of waiting out the wait condition's timeout", async () => {
    const body =
      "Resources:\n  H:\n    Type: AWS::CloudFormation::WaitConditionHandle\n  W:\n    Type: AWS::CloudFormation::WaitCondition\n    Properties:\n      Handle: !Ref H\n      Timeout: '3000'\n";
    const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'waiting', TemplateBody: body }));
    await physicalIdOnceCreated(server.client, StackId!, 'H');
    // Were the wait not ended, reset would wait out the 3000 s timeout and the test its own time limit.
    expect((await control(server, 'POST', '/reset')).body).toEqual({ reset: true });
    expect((await server.client.send(new ListStacksCommand({}))).StackSummaries).toEqual([]);
  });
});

describe('POST /_cfn-local/faults validation', () => {
  it.each([
    ['not JSON', '{oops', /^the body is not valid JSON \(/],
    ['an array', '[]', /^the body must be a JSON object$/],
    ['empty', '', /^the body is empty/],
    ['no action', '{}', /^action is required: one of Create, Update, Delete$/],
    ['a bad action', '{"action":"Explode"}', /^action must be one of Create, Update, Delete \(got "Explode"\)$/],
    [
      'an unknown field',
      '{"action":"Create","logical":"X"}',
      /^unknown field logical; allowed: action, stackName, logicalId/,
    ],
    ['a string times', '{"action":"Create","times":"2"}', /^times must be a number \(got "2"\)$/],
    ['a negative delay', '{"action":"Create","delayMs":-1}', /^delayMs must be a whole number >= 0 \(got -1\)$/],
    [
      "a delay past a timer's range",
      '{"action":"Create","delayMs":1e308}',
      /^delayMs must be at most 2147483647 \(got 1e\+308\)$/,
    ],
  ])('answers 400 for %s', async (_, body, message) => {
    const res = await raw('POST', '/faults', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('BadRequest');
    expect(res.body.message).toMatch(message);
  });

  it('answers 404 when deleting a fault that does not exist', async () => {
    expect(await control(server, 'DELETE', '/faults/nope')).toEqual({
      status: 404,
      body: { error: 'NotFound', message: 'no fault with id nope' },
    });
  });
});

describe('/_cfn-local/world validation', () => {
  it('answers 404 for a physical id the account does not hold', async () => {
    const res = await control(server, 'PATCH', '/world/no-such-bucket', { dataItems: 1 });
    expect(res).toEqual({
      status: 404,
      body: { error: 'NotFound', message: 'no resource with physical id no-such-bucket in the simulated account' },
    });
    expect((await control(server, 'DELETE', '/world/no-such-bucket')).status).toBe(404);
    expect((await control(server, 'GET', '/world/no-such-bucket')).status).toBe(404);
  });

  it.each([
    [
      'an unknown field',
      { items: 1 },
      /^unknown field items; allowed: dataItems, deletionProtection, attachedOutside, failedResources, properties$/,
    ],
    ['a negative dataItems', { dataItems: -1 }, /^dataItems must be a whole number >= 0 \(got -1\)$/],
    ['a string deletionProtection', { deletionProtection: 'yes' }, /^deletionProtection must be true or false/],
    ['a non-list attachedOutside', { attachedOutside: 'arn:x' }, /^attachedOutside must be an array of strings/],
    ['non-object properties', { properties: [1] }, /^properties must be a JSON object/],
  ])('PATCH answers 400 for %s', async (_, body, message) => {
    await control(server, 'POST', '/world', { type: 'AWS::S3::Bucket', properties: { BucketName: 'patch-target' } });
    const res = await control(server, 'PATCH', '/world/patch-target', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it.each([
    ['no type', {}, /^type is required/],
    ['an unknown type', { type: 'AWS::Nope::Thing' }, /^unknown resource type AWS::Nope::Thing$/],
    ['a bad account', { type: 'AWS::S3::Bucket', account: '12' }, /^account must be 12 digits$/],
    ['an unknown field', { type: 'AWS::S3::Bucket', color: 'red' }, /^unknown field color; allowed:/],
    [
      'a bad state',
      { type: 'AWS::S3::Bucket', state: { dataItems: 'lots' } },
      /^state: dataItems must be a whole number/,
    ],
  ])('POST answers 400 for %s', async (_, body, message) => {
    const res = await control(server, 'POST', '/world', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('POST creates in the default region, and answers 409 for a name already taken', async () => {
    const created = await control(server, 'POST', '/world', {
      type: 'AWS::SQS::Queue',
      properties: { QueueName: 'jobs' },
      state: { dataItems: 4 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      physicalId: 'https://sqs.eu-west-1.amazonaws.com/000000000000/jobs',
      name: 'jobs',
      region: 'eu-west-1',
      state: { dataItems: 4 },
      attributes: { Arn: 'arn:aws:sqs:eu-west-1:000000000000:jobs', QueueName: 'jobs' },
    });
    const again = await control(server, 'POST', '/world', {
      type: 'AWS::SQS::Queue',
      properties: { QueueName: 'jobs' },
    });
    expect(again).toEqual({
      status: 409,
      body: { error: 'Conflict', message: "Resource of type 'AWS::SQS::Queue' with identifier 'jobs' already exists." },
    });
  });

  it('answers 409 when a physical id names resources in two regions, and ?region= picks one', async () => {
    await control(server, 'POST', '/world', { type: 'AWS::SNS::Topic', physicalId: 'twin', region: 'us-east-1' });
    await control(server, 'POST', '/world', { type: 'AWS::SNS::Topic', physicalId: 'twin', region: 'us-west-2' });
    const ambiguous = await control(server, 'PATCH', '/world/twin', { dataItems: 1 });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.message).toMatch(
      /^physical id twin names 2 resources \(.*\); add \?type=, \?account= or \?region= to pick one$/,
    );
    const picked = await control(server, 'PATCH', '/world/twin?region=us-west-2', { dataItems: 1 });
    expect(picked.status).toBe(200);
    expect(picked.body).toMatchObject({ region: 'us-west-2', state: { dataItems: 1 } });
  });

  it('GET /world refuses an unknown filter and filters by type and stack name', async () => {
    expect((await control(server, 'GET', '/world?kind=x')).body.message).toBe(
      'unknown query parameter kind; allowed: type, account, region, stackName',
    );
    const { id } = await createStack(
      server,
      'listed',
      'Resources:\n  T:\n    Type: AWS::SNS::Topic\n  Q:\n    Type: AWS::SQS::Queue\n',
    );
    const { body } = await control(server, 'GET', '/world?stackName=listed&type=AWS::SNS::Topic');
    expect(body.resources).toHaveLength(1);
    expect(body.resources[0]).toMatchObject({
      type: 'AWS::SNS::Topic',
      stackId: id,
      stackName: 'listed',
      logicalId: 'T',
      region: 'us-east-1',
    });
  });
});

describe('a mistyped /_cfn-local path', () => {
  it.each([
    ['GET', ''],
    ['GET', '/nope'],
    ['POST', '/reset-all'],
    ['PUT', '/faults/x/y'],
  ])('%s /_cfn-local%s answers a JSON 404 listing the routes, not S3', async (method, path) => {
    const { status, body } = await raw(method, path, method === 'GET' ? undefined : '{}');
    expect(status).toBe(404);
    expect(body.error).toBe('NotFound');
    expect(body.message).toBe(`the control API has no route ${method} /_cfn-local${path}`);
    expect(body.routes).toEqual(
      expect.arrayContaining([
        'GET /_cfn-local/health',
        'POST /_cfn-local/reset',
        'GET /_cfn-local/world/*',
        'GET /_cfn-local/change-sets/*',
        'PUT /_cfn-local/waitcondition/*',
      ]),
    );
  });

  it('leaves the known routes and S3 buckets alone', async () => {
    expect((await raw('GET', '/health')).body).toEqual({ status: 'ok' });
    const res = await fetch(`${server.endpoint}/_cfn-localx/key`);
    expect(await res.text()).toContain('NoSuchBucket');
  });
});
