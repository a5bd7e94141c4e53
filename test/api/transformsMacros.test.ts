// Macros: an AWS::CloudFormation::Macro registers a macro whose Lambda function is called over the --lambda-endpoint
// protocol (a small Lambda-compatible HTTP handler in this file), as a Transform section entry and as Fn::Transform,
// with AWS's event, response rules and failure texts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateStackCommand,
  DescribeStackEventsCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { changeSet, deploy } from './changeSetsHelpers.js';

const FUNCTION = (name: string) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`;
type Event = Record<string, any>;
const events: { fn: string; event: Event }[] = [];

/** What each test function answers: AWS's macro response, built from the event. */
const FUNCTIONS: Record<string, (e: Event) => { body: unknown; functionError?: boolean }> = {
  // adds a topic to the template it is given
  'add-topic': (e) => ({
    body: {
      requestId: e.requestId,
      status: 'success',
      fragment: { ...e.fragment, Resources: { ...e.fragment.Resources, Added: { Type: 'AWS::SNS::Topic' } } },
    },
  }),
  // upper-cases a property value: used as Fn::Transform, its fragment is the object holding the call
  upper: (e) => ({
    body: {
      requestId: e.requestId,
      status: 'success',
      fragment: { ...e.fragment, TopicName: String(e.params.Value).toUpperCase() },
    },
  }),
  refuse: (e) => ({
    body: {
      requestId: e.requestId,
      status: 'failure',
      errorMessage: 'failed because it is a test',
      fragment: e.fragment,
    },
  }),
  'refuse-silently': (e) => ({ body: { requestId: e.requestId, status: 'failed', fragment: e.fragment } }),
  malformed: () => ({ body: 'not a macro response' }),
  throws: () => ({ body: { errorMessage: 'boom', errorType: 'Error' }, functionError: true }),
};

let lambda: Server;
let lambdaEndpoint = '';
let server: TestServer;
let plain: TestServer;

beforeAll(async () => {
  lambda = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const fn = decodeURIComponent(/\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(req.url ?? '')![1])
        .split(':')
        .at(-1)!;
      const event = JSON.parse(body) as Event;
      events.push({ fn, event });
      const answer = FUNCTIONS[fn](event);
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(answer.functionError ? { 'x-amz-function-error': 'Unhandled' } : {}),
      });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => lambda.listen(0, '127.0.0.1', r));
  lambdaEndpoint = `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`;
  server = await startServer({ lambdaEndpoint });
  plain = await startServer({ lambda: false });
  const macros = Object.fromEntries(
    Object.keys(FUNCTIONS).map((fn, i) => [
      `Macro${i}`,
      {
        Type: 'AWS::CloudFormation::Macro',
        Properties: { Name: macroName(fn), FunctionName: FUNCTION(fn) },
      },
    ]),
  );
  for (const s of [server, plain]) await deploy(s.client, 'macros', { Resources: macros });
});
afterAll(async () => {
  await Promise.all([server.close(), plain.close()]);
  await new Promise((r) => lambda.close(r));
});

const macroName = (fn: string) =>
  fn
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
const topic = { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'plain' } };

describe('a macro in the Transform section', () => {
  it("is called with AWS's event and its fragment is deployed", async () => {
    const template = {
      Parameters: { Env: { Type: 'String', Default: 'dev' } },
      Transform: 'AddTopic',
      Resources: { Own: topic },
    };
    const { described, stack } = await deploy(server.client, 'uses-macro', template, {
      Parameters: [{ ParameterKey: 'Env', ParameterValue: 'prod' }],
    });
    expect(described.Changes!.map((c) => c.ResourceChange!.LogicalResourceId).sort()).toEqual(['Added', 'Own']);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const { event } = events.filter((e) => e.fn === 'add-topic').at(-1)!;
    expect(event).toEqual({
      region: 'us-east-1',
      accountId: '000000000000',
      transformId: '000000000000::AddTopic',
      params: {},
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      templateParameterValues: { Env: 'prod' },
      fragment: { Parameters: template.Parameters, Resources: template.Resources },
    });
    const { StackResourceSummaries } = await server.client.send(
      new ListStackResourcesCommand({ StackName: 'uses-macro' }),
    );
    expect(StackResourceSummaries!.map((r) => r.LogicalResourceId).sort()).toEqual(['Added', 'Own']);
    const processed = await server.client.send(
      new GetTemplateCommand({ StackName: 'uses-macro', TemplateStage: 'Processed' }),
    );
    expect(Object.keys(JSON.parse(processed.TemplateBody!).Resources).sort()).toEqual(['Added', 'Own']);
  });

  it('CreateStack requires CAPABILITY_AUTO_EXPAND', async () => {
    const body = JSON.stringify({ Transform: 'AddTopic', Resources: { Own: topic } });
    await expect(
      server.client.send(new CreateStackCommand({ StackName: 'no-expand', TemplateBody: body })),
    ).rejects.toThrow('Requires capabilities : [CAPABILITY_AUTO_EXPAND]');
  });
});

describe('Fn::Transform', () => {
  it('passes the sibling content and Parameters, and replaces the object holding the call', async () => {
    const template = {
      Resources: {
        Own: {
          Type: 'AWS::SNS::Topic',
          Properties: { 'Fn::Transform': { Name: 'Upper', Parameters: { Value: 'shout' } }, DisplayName: 'x' },
        },
      },
    };
    const { stack } = await deploy(server.client, 'fn-transform', template);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const { event } = events.filter((e) => e.fn === 'upper').at(-1)!;
    expect(event.fragment).toEqual({ DisplayName: 'x' });
    expect(event.params).toEqual({ Value: 'shout' });
    const processed = JSON.parse(
      (await server.client.send(new GetTemplateCommand({ StackName: 'fn-transform', TemplateStage: 'Processed' })))
        .TemplateBody!,
    );
    expect(processed.Resources.Own.Properties).toEqual({ DisplayName: 'x', TopicName: 'SHOUT' });
  });
});

describe('failures', () => {
  const failed = async (name: string, template: unknown, target = server) =>
    (await changeSet(target.client, name, template, { ChangeSetType: 'CREATE' })).described;

  it.each([
    ['Refuse', 'Transform 000000000000::Refuse failed with: failed because it is a test'],
    ['RefuseSilently', 'Transform 000000000000::RefuseSilently failed without an error message.'],
    ['Malformed', 'Received malformed response from transform 000000000000::Malformed'],
    ['Throws', 'Transform 000000000000::Throws failed with: boom'],
  ])('a %s macro makes a FAILED change set: %s', async (macro, reason) => {
    const described = await failed(`fails-${macro.toLowerCase()}`, { Transform: macro, Resources: { Own: topic } });
    expect(described.Status).toBe('FAILED');
    expect(described.StatusReason).toBe(reason);
  });

  it("CreateStack is accepted and rolls back with the macro's reason", async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({
        StackName: 'refused',
        TemplateBody: JSON.stringify({ Transform: 'Refuse', Resources: { Own: topic } }),
        Capabilities: ['CAPABILITY_AUTO_EXPAND'],
      }),
    );
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('ROLLBACK_COMPLETE');
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: StackId }));
    expect(StackEvents!.find((e) => e.ResourceStatus === 'ROLLBACK_IN_PROGRESS')!.ResourceStatusReason).toBe(
      'Transform 000000000000::Refuse failed with: failed because it is a test. Rollback requested by user.',
    );
  });

  it("an unknown macro is refused with AWS's text", async () => {
    await expect(
      changeSet(
        server.client,
        'unknown',
        { Transform: 'NoSuchMacro', Resources: { Own: topic } },
        { ChangeSetType: 'CREATE' },
      ),
    ).rejects.toThrow('No transform named 000000000000::NoSuchMacro found.');
  });

  it('with --no-lambda the change set fails saying so', async () => {
    const described = await failed('no-endpoint', { Transform: 'AddTopic', Resources: { Own: topic } }, plain);
    expect(described.Status).toBe('FAILED');
    expect(described.StatusReason).toBe(
      `Transform 000000000000::AddTopic failed with: cfn-local runs no function code (--no-lambda), so the macro's function ${FUNCTION('add-topic')} was not invoked; start it without --no-lambda, or with --lambda-endpoint (CFN_LOCAL_LAMBDA_ENDPOINT).`,
    );
  });
});
