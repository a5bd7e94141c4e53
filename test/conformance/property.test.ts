// Property: any generated template — valid, half-valid or nonsense — either deploys or fails with an AWS error
// (a 4xx ValidationError/InsufficientCapabilitiesException at the call, or a failed stack), never a 500, a hang
// or a crash; ValidateTemplate and GetTemplateSummary answer the same body without a 500 too.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import {
  CloudFormationClient,
  CreateStackCommand,
  GetTemplateSummaryCommand,
  ValidateTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';

const NAMES = ['A', 'B', 'P', 'L', 'C', 'AWS::Region', 'AWS::NoValue', 'AWS::StackName', 'Missing'];
const ATTRS = ['Arn', 'TopicName', 'Value', 'Type', 'Nope', 'Endpoint.Address'];
const CLIENT_ERRORS = new Set(['ValidationError', 'InsufficientCapabilitiesException', 'AlreadyExistsException']);

const name = fc.constantFrom(...NAMES);
const scalar = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer({ min: -3, max: 300 }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('10.0.0.0/16', '2001:db8::/56', '', ',', 'a,b', '${P}', '${A.Arn}', '${!x}', '{{resolve:ssm:/none}}'),
);

const { value } = fc.letrec<{ value: unknown }>((tie) => {
  const v = () => tie('value');
  const list = fc.array(v(), { maxLength: 3 });
  return {
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 12, arbitrary: scalar },
      { weight: 3, arbitrary: fc.record({ Ref: name }) },
      {
        weight: 3,
        arbitrary: fc.record({ 'Fn::Sub': fc.constantFrom('${AWS::Region}-x', '${P}', '${A}', '${A.Arn}', 'plain') }),
      },
      {
        weight: 2,
        arbitrary: fc.record({ 'Fn::Join': fc.tuple(fc.constantFrom('', '-'), fc.array(scalar, { maxLength: 3 })) }),
      },
      list,
      fc.dictionary(fc.constantFrom('Key', 'Value', 'Name', 'Fn::Bogus', 'Ref'), v(), { maxKeys: 2 }),
      fc.record({ Ref: fc.oneof(name, v()) }),
      fc.record({
        'Fn::GetAtt': fc.oneof(
          fc.tuple(name, fc.constantFrom(...ATTRS)),
          fc.tuple(name, v()),
          fc.constantFrom('A.Arn', 'B'),
          v(),
        ),
      }),
      fc.record({ 'Fn::Join': fc.oneof(fc.tuple(fc.constantFrom('', ',', '-'), list), v()) }),
      fc.record({
        'Fn::Sub': fc.oneof(scalar, fc.tuple(scalar, fc.dictionary(fc.constantFrom('x', 'y'), v(), { maxKeys: 2 }))),
      }),
      fc.record({
        'Fn::Select': fc.oneof(fc.tuple(fc.oneof(fc.integer({ min: -1, max: 4 }), v()), fc.oneof(list, v())), v()),
      }),
      fc.record({ 'Fn::Split': fc.oneof(fc.tuple(fc.constantFrom(',', '|'), v()), v()) }),
      fc.record({ 'Fn::If': fc.oneof(fc.tuple(fc.constantFrom('C', 'Nope'), v(), v()), v()) }),
      fc.record({ 'Fn::Equals': fc.oneof(fc.tuple(v(), v()), v()) }),
      fc.record({ 'Fn::And': list }),
      fc.record({ 'Fn::Or': list }),
      fc.record({ 'Fn::Not': list }),
      fc.record({
        'Fn::FindInMap': fc.oneof(
          fc.tuple(fc.constantFrom('M', 'X'), fc.constantFrom('K', 'Z'), fc.constantFrom('V', 'W')),
          list,
        ),
      }),
      fc.record({ 'Fn::Base64': v() }),
      fc.record({ 'Fn::GetAZs': v() }),
      fc.record({ 'Fn::Length': v() }),
      fc.record({ 'Fn::ToJsonString': v() }),
      fc.record({ 'Fn::ImportValue': v() }),
      fc.record({ 'Fn::Cidr': fc.oneof(fc.tuple(v(), v(), v()), list) }),
      fc.record({ 'Fn::GetStackOutput': fc.oneof(fc.record({ StackName: v(), OutputName: v() }), v()) }),
      fc.record({ Condition: fc.oneof(fc.constantFrom('C', 'Nope'), v()) }),
      fc.record({
        'Fn::ForEach::Loop': fc.oneof(
          fc.tuple(
            fc.constantFrom('X', 'P'),
            fc.oneof(list, v()),
            fc.dictionary(fc.constantFrom('T${X}', 'Same', '&{X}'), v(), { maxKeys: 2 }),
          ),
          v(),
        ),
      }),
    ),
  };
});

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const maybe = <T>(weight: number, arbitrary: fc.Arbitrary<T>) =>
  fc.oneof(w(weight, fc.constant(undefined)), w(1, arbitrary));

/** Mostly deployable resources (an SNS topic, an SSM parameter holding a generated value), sometimes broken ones. */
const resource = fc.oneof(
  w(
    4,
    fc.record(
      {
        Type: fc.constant('AWS::SSM::Parameter'),
        Properties: fc.record({ Type: fc.constant('String'), Value: value }),
        DependsOn: maybe(4, name),
        Condition: maybe(3, fc.constantFrom('C', 'Nope')),
      },
      { requiredKeys: ['Type', 'Properties'] },
    ),
  ),
  w(
    3,
    fc.record(
      { Type: fc.constant('AWS::SNS::Topic'), Properties: maybe(2, fc.record({ DisplayName: value })) },
      { requiredKeys: ['Type'] },
    ),
  ),
  w(
    1,
    fc.record(
      {
        Type: fc.constantFrom('AWS::SQS::Queue', 'AWS::IAM::Role', 'AWS::Nope::Nope'),
        Properties: fc.option(
          fc.dictionary(fc.constantFrom('QueueName', 'Description', 'Tags', 'Name'), value, { maxKeys: 2 }),
          { nil: undefined },
        ),
      },
      { requiredKeys: ['Type'] },
    ),
  ),
);

const template = fc.record(
  {
    Transform: fc.oneof(
      w(8, fc.constant(undefined)),
      w(2, fc.constant('AWS::LanguageExtensions')),
      w(1, fc.constant('Other')),
    ),
    Parameters: maybe(
      1,
      fc.record({
        P: fc.record({
          Type: fc.constantFrom('String', 'String', 'Number', 'CommaDelimitedList', 'AWS::EC2::VPC::Id', 'Nope'),
          Default: fc.oneof(fc.constant('1'), fc.constant('a,b'), scalar),
        }),
        L: fc.record({ Type: fc.constant('CommaDelimitedList'), Default: fc.constant('x,y') }),
      }),
    ),
    Mappings: maybe(1, fc.constant({ M: { K: { V: 'mapped', L: ['1', '2'] } } })),
    Conditions: maybe(
      1,
      fc.record({ C: fc.oneof(w(3, fc.record({ 'Fn::Equals': fc.tuple(value, value) })), w(1, value)) }),
    ),
    Rules: maybe(
      6,
      fc.record({ R: fc.record({ Assertions: fc.array(fc.record({ Assert: value }), { maxLength: 2 }) }) }),
    ),
    Resources: fc.oneof(
      w(12, fc.dictionary(fc.constantFrom('A', 'B'), resource, { minKeys: 1, maxKeys: 2 })),
      w(1, fc.dictionary(fc.constantFrom('A', 'Fn::ForEach::R', 'bad-id'), resource, { minKeys: 1, maxKeys: 2 })),
      w(1, value),
    ),
    Outputs: maybe(
      1,
      fc.dictionary(fc.constantFrom('O', 'Q'), fc.record({ Value: value, Condition: maybe(3, fc.constant('C')) }), {
        maxKeys: 2,
      }),
    ),
  },
  { requiredKeys: [] },
);

let server: TestServer;
let client: CloudFormationClient;
let counter = 0;
beforeAll(async () => {
  server = await startServer();
  // No retries: a 500 must show as a 500, not be retried away.
  client = new CloudFormationClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    maxAttempts: 1,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});
afterAll(async () => {
  await server.close();
});

/** A call either succeeds or fails with a client error; anything else (500, unknown code) fails the property. */
async function answered(call: Promise<unknown>): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: await call };
  } catch (err) {
    const e = err as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    expect(e.$metadata?.httpStatusCode, `${e.name}: ${e.message}`).toBe(400);
    expect(CLIENT_ERRORS.has(e.name), `${e.name}: ${e.message}`).toBe(true);
    return { ok: false };
  }
}

async function property(body: string) {
  await answered(client.send(new ValidateTemplateCommand({ TemplateBody: body })));
  await answered(client.send(new GetTemplateSummaryCommand({ TemplateBody: body })));
  const created = await answered(
    client.send(
      new CreateStackCommand({
        StackName: `prop-${++counter}`,
        TemplateBody: body,
        Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_AUTO_EXPAND'],
      }),
    ),
  );
  if (!created.ok) return;
  const stack = await waitForStack(client, (created.value as { StackId: string }).StackId, 5000);
  expect(['CREATE_COMPLETE', 'ROLLBACK_COMPLETE', 'ROLLBACK_FAILED', 'CREATE_FAILED']).toContain(stack.StackStatus);
}

describe('property: generated templates get an AWS answer, never a crash', () => {
  it('structured templates (JSON)', async () => {
    await fc.assert(
      fc.asyncProperty(template, async (t) => property(JSON.stringify(t))),
      { numRuns: 200, seed: 20261130 },
    );
  });

  it('the same templates as YAML and arbitrary text', async () => {
    const { stringify } = await import('yaml');
    const body = fc.oneof(
      template.map((t) => stringify(t)),
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        '!Ref',
        'Resources: !GetAtt',
        'a: &x [*x]',
        '{',
        '[]',
        'Resources:\n  A: !Sub [1, 2, 3]',
        '---\n---',
      ),
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => property(b)),
      { numRuns: 150, seed: 7 },
    );
  });
});
