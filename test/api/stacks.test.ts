// CreateStack, UpdateStack, DeleteStack, DescribeStacks and ListStacks through the AWS SDK v3 client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
  ListStacksCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
  DescribeStackResourceCommand,
  DescribeStackResourcesCommand,
  waitUntilStackCreateComplete,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';

const APP = `AWSTemplateFormatVersion: 2010-09-09
Description: demo app
Parameters:
  Env:
    Type: String
    Default: dev
    AllowedValues: [dev, prod]
Resources:
  Queue:
    Type: AWS::SQS::Queue
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: !Sub '\${AWS::StackName}-\${Env}'
  Param:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !GetAtt Queue.Arn
Outputs:
  QueueUrl:
    Value: !Ref Queue
  TopicArn:
    Value: !Ref Topic
    Export:
      Name: !Sub '\${AWS::StackName}-topic'
  ParamName:
    Value: !Ref Param
`;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function create(name: string, body = APP, extra: Record<string, unknown> = {}) {
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: name, TemplateBody: body, ...extra }),
  );
  return StackId!;
}

describe('CreateStack', () => {
  it('returns an ARN at once and reaches CREATE_COMPLETE with outputs resolved', async () => {
    const id = await create('demo');
    expect(id).toMatch(
      /^arn:aws:cloudformation:us-east-1:000000000000:stack\/demo\/[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    await waitUntilStackCreateComplete({ client: server.client, maxWaitTime: 10, minDelay: 0.05 } as never, {
      StackName: 'demo',
    });
    const stack = await waitForStack(server.client, id);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(stack.Description).toBe('demo app');
    expect(stack.Parameters).toEqual([{ ParameterKey: 'Env', ParameterValue: 'dev' }]);
    const outputs = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey, o.OutputValue]));
    expect(outputs.QueueUrl).toMatch(
      /^https:\/\/sqs\.us-east-1\.amazonaws\.com\/000000000000\/demo-Queue-[A-Za-z0-9]{12}$/,
    );
    expect(outputs.TopicArn).toMatch(/^arn:aws:sns:us-east-1:000000000000:demo-Topic-[A-Za-z0-9]{12}$/);
    expect(outputs.ParamName).toMatch(/^CFN-Param-[A-Za-z0-9]{12}$/);
    // created with CreateStack: no LastUpdatedTime, no ChangeSetId (recorded in LocalStack's cfn/api/test_stacks.py::test_stack_lifecycle snapshot)
    expect(stack.LastUpdatedTime).toBeUndefined();
    expect(stack.ChangeSetId).toBeUndefined();
    expect(stack.DriftInformation).toEqual({ StackDriftStatus: 'NOT_CHECKED' });
    expect(stack.EnableTerminationProtection).toBe(false);
  });

  it('emits the create events newest first: stack, then per resource IN_PROGRESS, Initiated, COMPLETE', async () => {
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: 'demo' }));
    const events = StackEvents!.slice().reverse();
    expect(events[0]).toMatchObject({
      LogicalResourceId: 'demo',
      ResourceStatus: 'CREATE_IN_PROGRESS',
      ResourceStatusReason: 'User Initiated',
      ResourceType: 'AWS::CloudFormation::Stack',
    });
    expect(events.at(-1)).toMatchObject({ LogicalResourceId: 'demo', ResourceStatus: 'CREATE_COMPLETE' });
    const queue = events.filter((e) => e.LogicalResourceId === 'Queue');
    expect(queue.map((e) => [e.ResourceStatus, e.ResourceStatusReason])).toEqual([
      ['CREATE_IN_PROGRESS', undefined],
      ['CREATE_IN_PROGRESS', 'Resource creation Initiated'],
      ['CREATE_COMPLETE', undefined],
    ]);
    expect(queue[0].PhysicalResourceId).toBe('');
    expect(queue[2].EventId).toMatch(/^Queue-CREATE_COMPLETE-\d{4}-\d\d-\d\dT/);
    // Param depends on Queue (GetAtt): it starts only after Queue completes
    const order = events.map((e) => `${e.LogicalResourceId}:${e.ResourceStatus}`);
    expect(order.indexOf('Param:CREATE_IN_PROGRESS')).toBeGreaterThan(order.indexOf('Queue:CREATE_COMPLETE'));
  });

  it('returns AlreadyExistsException for a second create of the same name', async () => {
    expect(await awsErrorOf(create('demo'))).toMatchObject({
      code: 'AlreadyExistsException',
      message: 'Stack [demo] already exists',
      status: 400,
    });
  });

  it('returns ValidationError for a stack name that breaks the pattern', async () => {
    expect(await awsErrorOf(create('*@da591fa3_$'))).toMatchObject({
      code: 'ValidationError',
      message:
        "1 validation error detected: Value '*@da591fa3_$' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*",
    });
  });

  it('returns ValidationError for a TemplateBody over 51,200 bytes and stores nothing', async () => {
    const body = `Resources:\n  Q:\n    Type: AWS::SQS::Queue\n#${'x'.repeat(51_200)}`;
    const e = await awsErrorOf(create('too-big', body));
    expect(e.code).toBe('ValidationError');
    expect(e.message).toMatch(
      /at 'templateBody' failed to satisfy constraint: Member must have length less than or equal to 51200$/,
    );
    expect(await awsErrorOf(server.client.send(new DescribeStacksCommand({ StackName: 'too-big' })))).toMatchObject({
      message: 'Stack with id too-big does not exist',
    });
  });

  // AWS CloudFormation quotas count bytes: a 60,054-byte template of 30,064 characters is over 51,200 bytes.
  // The refusal leaves the value out ("Value at 'templateBody'", public AWS output), so it stays small.
  it('returns ValidationError for a TemplateBody over 51,200 bytes though under 51,200 characters, without echoing it', async () => {
    const body = `Resources:\n  Q:\n    Type: AWS::SQS::Queue\n#${'é'.repeat(30_000)}\n`;
    expect(body.length).toBeLessThan(51_200);
    expect(await awsErrorOf(create('too-many-bytes', body))).toMatchObject({
      code: 'ValidationError',
      message:
        "1 validation error detected: Value at 'templateBody' failed to satisfy constraint: Member must have length less than or equal to 51200",
    });
  });

  it('returns ValidationError without echoing a stack name far over 128 characters', async () => {
    expect(await awsErrorOf(create('a'.repeat(1_000_000)))).toMatchObject({
      code: 'ValidationError',
      message:
        "1 validation error detected: Value at 'stackName' failed to satisfy constraint: Member must have length less than or equal to 128",
    });
  });

  it('returns ValidationError for a parameter value over 4,096 bytes (AWS quota: Parameter value, 4,096 bytes)', async () => {
    const body = 'Parameters:\n  P: { Type: String }\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n';
    const send = (value: string) =>
      server.client.send(
        new CreateStackCommand({
          StackName: 'param-bytes',
          TemplateBody: body,
          Parameters: [{ ParameterKey: 'P', ParameterValue: value }],
        }),
      );
    expect(await awsErrorOf(send('é'.repeat(2_049)))).toMatchObject({
      code: 'ValidationError',
      message: "Parameter 'P' must contain at most 4096 bytes",
    });
    const { StackId } = await send('é'.repeat(2_048));
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
  });

  it.each([
    ['invalid YAML', 'Resources: [\n', /^Template format error: YAML not well-formed\./],
    ['invalid JSON', '{"Resources": {', /^Template format error: JSON not well-formed\. \(line \d+, column \d+\)$/],
    ['no Resources', 'Description: x\n', /^Template format error: At least one Resources member must be defined\.$/],
    ['a URL as body', 'https://example.com/t.yaml', /^Template format error: unsupported structure\.$/],
    [
      'a resource without Type',
      'Resources:\n  A:\n    Properties: {}\n',
      /^Template format error: \[\/Resources\/A\] Every Resources object must contain a Type member\.$/,
    ],
    [
      'an unknown resource type',
      'Resources:\n  A:\n    Type: AWS::Nope::Thing\n',
      /^Template format error: Unrecognized resource types: \[AWS::Nope::Thing\]$/,
    ],
    [
      'an unresolved Ref',
      'Resources:\n  A:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !Ref Missing\n',
      /^Template format error: Unresolved resource dependencies \[Missing\] in the Resources block of the template$/,
    ],
  ])('returns ValidationError for %s', async (_name, body, message) => {
    const e = await awsErrorOf(create('bad-template', body));
    expect(e.code).toBe('ValidationError');
    expect(e.message).toMatch(message);
    expect(e.status).toBe(400);
  });

  it('returns ValidationError when a required parameter has no value', async () => {
    const body = 'Parameters:\n  Input:\n    Type: String\nResources:\n  A:\n    Type: AWS::SQS::Queue\n';
    expect(await awsErrorOf(create('no-param', body))).toMatchObject({
      code: 'ValidationError',
      message: 'Parameters: [Input] must have values',
    });
  });

  it('returns InsufficientCapabilitiesException for IAM resources without CAPABILITY_IAM', async () => {
    const body = 'Resources:\n  Role:\n    Type: AWS::IAM::Role\n    Properties:\n      AssumeRolePolicyDocument: {}\n';
    expect(await awsErrorOf(create('iam', body))).toMatchObject({
      code: 'InsufficientCapabilitiesException',
      message: 'Requires capabilities : [CAPABILITY_IAM]',
    });
  });
});

describe('DescribeStacks', () => {
  it('returns ValidationError "Stack with id X does not exist" for an unknown name', async () => {
    expect(await awsErrorOf(server.client.send(new DescribeStacksCommand({ StackName: 'nope' })))).toMatchObject({
      code: 'ValidationError',
      message: 'Stack with id nope does not exist',
      status: 400,
    });
  });

  it('lists live stacks without a name, with NextToken pagination', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await create(`page-${i}`));
    for (const id of ids) await waitForStack(server.client, id);
    const { Stacks } = await server.client.send(new DescribeStacksCommand({}));
    const names = Stacks!.map((s) => s.StackName);
    expect(names).toEqual(expect.arrayContaining(['demo', 'page-0', 'page-1', 'page-2']));
  });
});

describe('Resources', () => {
  it('ListStackResources, DescribeStackResources and DescribeStackResource show the physical ids', async () => {
    const { StackResourceSummaries } = await server.client.send(new ListStackResourcesCommand({ StackName: 'demo' }));
    expect(StackResourceSummaries!.map((r) => r.LogicalResourceId).sort()).toEqual(['Param', 'Queue', 'Topic']);
    expect(StackResourceSummaries!.every((r) => r.ResourceStatus === 'CREATE_COMPLETE')).toBe(true);
    const { StackResources } = await server.client.send(new DescribeStackResourcesCommand({ StackName: 'demo' }));
    expect(StackResources).toHaveLength(3);
    const { StackResourceDetail } = await server.client.send(
      new DescribeStackResourceCommand({ StackName: 'demo', LogicalResourceId: 'Param' }),
    );
    expect(StackResourceDetail).toMatchObject({
      ResourceType: 'AWS::SSM::Parameter',
      Metadata: '{}',
      ResourceStatus: 'CREATE_COMPLETE',
    });
  });

  it('returns AWS errors for an unknown stack or logical id', async () => {
    expect(
      await awsErrorOf(
        server.client.send(
          new DescribeStackResourceCommand({ StackName: 'not-a-valid-stack', LogicalResourceId: 'X' }),
        ),
      ),
    ).toMatchObject({
      message: "Stack 'not-a-valid-stack' does not exist",
    });
    expect(
      await awsErrorOf(
        server.client.send(
          new DescribeStackResourceCommand({ StackName: 'demo', LogicalResourceId: 'NonExistentResource' }),
        ),
      ),
    ).toMatchObject({
      message: 'Resource NonExistentResource does not exist for stack demo',
    });
    expect(
      await awsErrorOf(server.client.send(new DescribeStackEventsCommand({ StackName: 'does-not-exist' }))),
    ).toMatchObject({
      message: 'Stack [does-not-exist] does not exist',
    });
  });
});

describe('GetTemplate', () => {
  it('returns the body exactly as submitted (YAML stays YAML)', async () => {
    const { TemplateBody, StagesAvailable } = await server.client.send(new GetTemplateCommand({ StackName: 'demo' }));
    expect(TemplateBody).toBe(APP);
    expect(StagesAvailable).toEqual(['Original', 'Processed']);
  });
});

describe('UpdateStack', () => {
  it('updates in place, emits UPDATE_COMPLETE_CLEANUP_IN_PROGRESS, and keeps physical ids', async () => {
    const before = await server.client.send(new ListStackResourcesCommand({ StackName: 'demo' }));
    await server.client.send(
      new UpdateStackCommand({
        StackName: 'demo',
        TemplateBody: APP,
        Parameters: [{ ParameterKey: 'Env', ParameterValue: 'prod' }],
      }),
    );
    const stack = await waitForStack(server.client, 'demo');
    expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
    expect(stack.LastUpdatedTime).toBeInstanceOf(Date);
    const after = await server.client.send(new ListStackResourcesCommand({ StackName: 'demo' }));
    const ids = (r: typeof after) =>
      Object.fromEntries(r.StackResourceSummaries!.map((s) => [s.LogicalResourceId, s.PhysicalResourceId]));
    expect(ids(after)).toEqual(ids(before));
    const statuses = Object.fromEntries(
      after.StackResourceSummaries!.map((s) => [s.LogicalResourceId, s.ResourceStatus]),
    );
    expect(statuses).toEqual({ Queue: 'CREATE_COMPLETE', Topic: 'UPDATE_COMPLETE', Param: 'CREATE_COMPLETE' });
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: 'demo' }));
    const stackEvents = StackEvents!
      .filter((e) => e.LogicalResourceId === 'demo')
      .map((e) => e.ResourceStatus)
      .slice(0, 3);
    expect(stackEvents).toEqual(['UPDATE_COMPLETE', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_IN_PROGRESS']);
  });

  it('returns "No updates are to be performed." for the same template and parameters', async () => {
    const e = await awsErrorOf(
      server.client.send(
        new UpdateStackCommand({
          StackName: 'demo',
          UsePreviousTemplate: true,
          Parameters: [{ ParameterKey: 'Env', UsePreviousValue: true }],
        }),
      ),
    );
    expect(e).toMatchObject({ code: 'ValidationError', message: 'No updates are to be performed.' });
  });

  it('replaces a resource whose create-only property changed, deleting the old copy in cleanup', async () => {
    const body = (name: string) =>
      `Resources:\n  Param:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Name: ${name}\n      Type: String\n      Value: v\n`;
    const id = await create('replace', body('first-name'));
    await waitForStack(server.client, id);
    await server.client.send(new UpdateStackCommand({ StackName: 'replace', TemplateBody: body('second-name') }));
    expect((await waitForStack(server.client, id)).StackStatus).toBe('UPDATE_COMPLETE');
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: 'replace' }));
    const param = StackEvents!
      .filter((e) => e.LogicalResourceId === 'Param')
      .reverse()
      .slice(3);
    expect(param.map((e) => [e.ResourceStatus, e.PhysicalResourceId, e.ResourceStatusReason])).toEqual([
      [
        'UPDATE_IN_PROGRESS',
        'first-name',
        'Requested update requires the creation of a new physical resource; hence creating one.',
      ],
      ['UPDATE_IN_PROGRESS', 'second-name', 'Resource creation Initiated'],
      ['UPDATE_COMPLETE', 'second-name', undefined],
      ['DELETE_IN_PROGRESS', 'first-name', undefined],
      ['DELETE_COMPLETE', 'first-name', undefined],
    ]);
    expect(param[3].EventId).toMatch(/^Param-[0-9a-f-]{36}$/);
    const world = (await (await fetch(`${server.endpoint}/_cfn-local/world?type=AWS::SSM::Parameter`)).json()) as {
      resources: { physicalId: string }[];
    };
    expect(world.resources.map((r) => r.physicalId)).toContain('second-name');
    expect(world.resources.map((r) => r.physicalId)).not.toContain('first-name');
  });

  it('refuses an update of a missing stack', async () => {
    expect(
      await awsErrorOf(server.client.send(new UpdateStackCommand({ StackName: 'ghost', TemplateBody: APP }))),
    ).toMatchObject({
      code: 'ValidationError',
      message: 'Stack [ghost] does not exist',
    });
  });
});

describe('DeleteStack', () => {
  it('deletes in reverse dependency order; the name then resolves to nothing, the ARN to DELETE_COMPLETE', async () => {
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'demo' }));
    const id = Stacks![0].StackId!;
    // the export of demo is not imported anywhere: the delete goes through
    await server.client.send(new DeleteStackCommand({ StackName: 'demo' }));
    const deleted = await waitForStack(server.client, id);
    expect(deleted.StackStatus).toBe('DELETE_COMPLETE');
    expect(deleted.DeletionTime).toBeInstanceOf(Date);
    expect(deleted.EnableTerminationProtection).toBeUndefined();
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: id }));
    const order = StackEvents!
      .slice()
      .reverse()
      .filter((e) => e.ResourceStatus === 'DELETE_COMPLETE')
      .map((e) => e.LogicalResourceId);
    expect(order.indexOf('Param')).toBeLessThan(order.indexOf('Queue'));
    expect(await awsErrorOf(server.client.send(new DescribeStacksCommand({ StackName: 'demo' })))).toMatchObject({
      message: 'Stack with id demo does not exist',
    });
  });

  it('succeeds silently for a stack that does not exist', async () => {
    await expect(server.client.send(new DeleteStackCommand({ StackName: 'never-existed' }))).resolves.toBeDefined();
  });

  it('gives a re-created name a new stack id', async () => {
    const first = await create('reuse');
    await waitForStack(server.client, first);
    await server.client.send(new DeleteStackCommand({ StackName: 'reuse' }));
    await waitForStack(server.client, first);
    const second = await create('reuse');
    expect(second).not.toBe(first);
    await waitForStack(server.client, second);
  });

  it('refuses while termination protection is on, then deletes after it is off', async () => {
    const id = await create('protected', APP, { EnableTerminationProtection: true });
    await waitForStack(server.client, id);
    expect(await awsErrorOf(server.client.send(new DeleteStackCommand({ StackName: 'protected' })))).toMatchObject({
      code: 'ValidationError',
      message: 'Stack [protected] cannot be deleted while TerminationProtection is enabled',
    });
    await server.client.send(
      new UpdateTerminationProtectionCommand({ StackName: 'protected', EnableTerminationProtection: false }),
    );
    await server.client.send(new DeleteStackCommand({ StackName: 'protected' }));
    expect((await waitForStack(server.client, id)).StackStatus).toBe('DELETE_COMPLETE');
  });
});

describe('ListStacks', () => {
  it('includes deleted stacks and honours StackStatusFilter', async () => {
    const { StackSummaries } = await server.client.send(
      new ListStacksCommand({ StackStatusFilter: ['DELETE_COMPLETE'] }),
    );
    expect(StackSummaries!.length).toBeGreaterThan(0);
    expect(StackSummaries!.every((s) => s.StackStatus === 'DELETE_COMPLETE')).toBe(true);
    expect(StackSummaries!.some((s) => s.StackName === 'demo')).toBe(true);
  });
});
