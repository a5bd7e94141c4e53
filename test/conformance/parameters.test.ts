// Conformance: parameter types, constraints with AWS's messages, NoEcho, SSM parameter types with ResolvedValue,
// AWS-specific types checked against the simulated account, UsePreviousValue, the 200-parameter limit.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DescribeStacksCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { check, deploy, withOutputs, type Case } from './harness.js';

const DOC = 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/parameters-section-structure.html';
const SSM =
  'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-supplied-parameter-types.html';

const one = (def: Record<string, unknown>, output: unknown = { Ref: 'P' }) =>
  withOutputs({ O: output }, { Parameters: { P: def } });

const CASES: Case[] = [
  {
    name: 'Number accepts a decimal',
    source: DOC,
    template: one({ Type: 'Number' }),
    parameters: { P: '1.5' },
    outputs: { O: '1.5' },
  },
  {
    name: 'Number refuses text',
    source: DOC,
    template: one({ Type: 'Number' }),
    parameters: { P: 'abc' },
    error: "Parameter 'P' must be a number.",
  },
  {
    name: 'List<Number> refuses a non-number member',
    source: DOC,
    template: one({ Type: 'List<Number>' }, 'x'),
    parameters: { P: '1,b' },
    error: "Parameter 'P' must be a number.",
  },
  {
    name: 'an empty String value is accepted',
    source: 'test_blank_parameter_value',
    template: one({ Type: 'String' }, { 'Fn::Sub': '[${P}]' }),
    parameters: { P: '' },
    outputs: { O: '[]' },
  },
  {
    name: 'AllowedValues',
    source: "public AWS output: Parameter 'InsufficientDataHealthStatus' must be one of AllowedValues",
    template: one({ Type: 'String', AllowedValues: ['a', 'b'] }),
    parameters: { P: 'c' },
    error: "Parameter 'P' must be one of AllowedValues",
  },
  {
    name: 'AllowedPattern',
    source: "public AWS output: Parameter 'P' must match pattern ^[a-z]+$",
    template: one({ Type: 'String', AllowedPattern: '[a-z]+' }),
    parameters: { P: 'A1' },
    error: "Parameter 'P' must match pattern [a-z]+",
  },
  {
    name: 'MinLength',
    source: DOC,
    template: one({ Type: 'String', MinLength: 3 }),
    parameters: { P: 'ab' },
    error: "Parameter 'P' must contain at least 3 characters",
  },
  {
    name: 'MaxLength',
    source: DOC,
    template: one({ Type: 'String', MaxLength: '2' }),
    parameters: { P: 'abc' },
    error: "Parameter 'P' must contain at most 2 characters",
  },
  {
    name: 'MinValue',
    source: "public AWS output: Parameter 'AvailabilityZoneCount' must be a number not less than 1",
    template: one({ Type: 'Number', MinValue: 10 }),
    parameters: { P: '9' },
    error: "Parameter 'P' must be a number not less than 10",
  },
  {
    name: 'MaxValue',
    source: DOC,
    template: one({ Type: 'Number', MaxValue: 10 }),
    parameters: { P: '11' },
    error: "Parameter 'P' must be a number not greater than 10",
  },
  {
    name: 'ConstraintDescription replaces the message, the name unquoted',
    source:
      'public AWS output: Parameter InstanceType failed to satisfy constraint: must be a valid EC2 instance type.',
    template: one({ Type: 'String', AllowedPattern: '\\d+', ConstraintDescription: 'digits only' }),
    parameters: { P: 'x' },
    error: 'Parameter P failed to satisfy constraint: digits only',
  },
  {
    name: 'ConstraintDescription replaces the AllowedValues message too',
    source:
      'public AWS output: Parameter EnvironmentSuffix failed to satisfy constraint: Must be one of: dev, staging, prod',
    template: one({
      Type: 'String',
      AllowedValues: ['dev', 'prod'],
      ConstraintDescription: 'Must be one of: dev, prod',
    }),
    parameters: { P: 'x' },
    error: 'Parameter P failed to satisfy constraint: Must be one of: dev, prod',
  },
  {
    name: 'a missing value',
    source: DOC,
    template: one({ Type: 'String' }),
    error: 'Parameters: [P] must have values',
  },
  {
    name: 'an undeclared parameter',
    source: DOC,
    template: one({ Type: 'String', Default: 'x' }),
    parameters: { Q: 'y' },
    error: 'Parameters: [Q] do not exist in the template',
  },
  {
    name: 'an unknown type',
    source: DOC,
    template: one({ Type: 'Strin' }),
    error: 'Template format error: Unrecognized parameter type: Strin',
  },
  {
    name: 'an unknown parameter property',
    source: DOC,
    template: one({ Type: 'String', Defualt: 'x' }),
    error: "Template format error: Invalid template parameter property 'Defualt'",
  },
  {
    name: 'a parameter named AWS::NoValue',
    source: 'test_using_pseudoparameters_in_places[parameter]',
    template: withOutputs({}, { Parameters: { 'AWS::NoValue': { Type: 'String', Default: 'x' } } }),
    error: 'Template format error: Parameter name AWS::NoValue is non alphanumeric.',
  },
  {
    name: 'AWS::SSM::Parameter::Value<String> resolves from the account',
    source: SSM,
    template: one({ Type: 'AWS::SSM::Parameter::Value<String>', Default: '/params/ami' }),
    outputs: { O: 'ami-12345678' },
  },
  {
    name: 'AWS::SSM::Parameter::Value<List<String>> is a list',
    source: SSM,
    template: one(
      { Type: 'AWS::SSM::Parameter::Value<List<String>>', Default: '/params/list' },
      { 'Fn::Select': [1, { Ref: 'P' }] },
    ),
    outputs: { O: 'y' },
  },
  {
    name: 'a missing SSM parameter refuses the call',
    source: 'awslabs/aws-deployment-framework#339 (ValidationError text)',
    template: one({ Type: 'AWS::SSM::Parameter::Value<String>', Default: '/params/none' }),
    error: 'Unable to fetch parameters [/params/none] from parameter store for this account.',
  },
  {
    name: 'AWS::EC2::AvailabilityZone::Name accepts a zone of the region',
    source: SSM,
    template: one({ Type: 'AWS::EC2::AvailabilityZone::Name' }),
    parameters: { P: 'us-east-1b' },
    outputs: { O: 'us-east-1b' },
  },
  {
    name: 'AWS::EC2::AvailabilityZone::Name refuses another region’s zone',
    source: SSM,
    template: one({ Type: 'AWS::EC2::AvailabilityZone::Name' }),
    parameters: { P: 'eu-west-1a' },
    error: 'Parameter validation failed: parameter value eu-west-1a for parameter name P does not exist.',
  },
  {
    name: 'AWS::EC2::VPC::Id refuses a VPC the account does not have',
    source: SSM,
    template: one({ Type: 'AWS::EC2::VPC::Id' }),
    parameters: { P: 'vpc-0123456789abcdef0' },
    error: 'Parameter validation failed: parameter value vpc-0123456789abcdef0 for parameter name P does not exist.',
  },
  {
    name: 'List<AWS::EC2::AvailabilityZone::Name>',
    source: SSM,
    template: one({ Type: 'List<AWS::EC2::AvailabilityZone::Name>' }, { 'Fn::Join': ['+', { Ref: 'P' }] }),
    parameters: { P: 'us-east-1a,us-east-1c' },
    outputs: { O: 'us-east-1a+us-east-1c' },
  },
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  const r = await deploy(
    server.client,
    {
      Resources: {
        Ami: {
          Type: 'AWS::SSM::Parameter',
          Properties: { Name: '/params/ami', Type: 'String', Value: 'ami-12345678' },
        },
        List: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/params/list', Type: 'StringList', Value: 'x,y,z' } },
      },
    },
    {},
    { stackName: 'params-world' },
  );
  expect(r.status).toBe('CREATE_COMPLETE');
});
afterAll(async () => {
  await server.close();
});

describe('parameters', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => check(server.client, c));

  it('DescribeStacks masks NoEcho values and shows ResolvedValue for SSM types', async () => {
    const template = withOutputs(
      {},
      {
        Parameters: {
          Secret: { Type: 'String', NoEcho: true },
          Ami: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/params/ami' },
        },
      },
    );
    const r = await deploy(server.client, template, { Secret: 'hunter2' }, { stackName: 'params-noecho' });
    expect(r.status).toBe('CREATE_COMPLETE');
    const stack = (await server.client.send(new DescribeStacksCommand({ StackName: 'params-noecho' }))).Stacks![0];
    expect(stack.Parameters).toEqual(
      expect.arrayContaining([
        { ParameterKey: 'Secret', ParameterValue: '****' },
        { ParameterKey: 'Ami', ParameterValue: '/params/ami', ResolvedValue: 'ami-12345678' },
      ]),
    );
  });

  it('UpdateStack with UsePreviousValue keeps the value; without it, the default returns', async () => {
    const template = (extra: string) =>
      withOutputs({ O: { Ref: 'P' }, E: extra }, { Parameters: { P: { Type: 'String', Default: 'default' } } });
    const r = await deploy(server.client, template('1'), { P: 'given' }, { stackName: 'params-previous' });
    expect(r.outputs.O).toBe('given');
    await server.client.send(
      new UpdateStackCommand({
        StackName: 'params-previous',
        TemplateBody: JSON.stringify(template('2')),
        Parameters: [{ ParameterKey: 'P', UsePreviousValue: true }],
      }),
    );
    expect((await waitForStack(server.client, r.stackId!)).Outputs!.find((o) => o.OutputKey === 'O')!.OutputValue).toBe(
      'given',
    );
    await server.client.send(
      new UpdateStackCommand({ StackName: 'params-previous', TemplateBody: JSON.stringify(template('3')) }),
    );
    expect((await waitForStack(server.client, r.stackId!)).Outputs!.find((o) => o.OutputKey === 'O')!.OutputValue).toBe(
      'default',
    );
  });

  it('refuses a template with more than 200 parameters', async () => {
    const Parameters = Object.fromEntries(
      Array.from({ length: 201 }, (_, i) => [`P${i}`, { Type: 'String', Default: 'x' }]),
    );
    const r = await deploy(server.client, withOutputs({}, { Parameters }));
    expect(r.error?.message).toBe('Template format error: Parameter count 201 is greater than max value 200');
  });
});

describe('a stored template is not re-checked against a changed account', () => {
  it('UPDATE_ROLLBACK_COMPLETE with the stored ResolvedValue after the SSM parameter changed under a Rule', async () => {
    const worldTemplate = (value: string) => ({
      Resources: {
        Param: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/params/ephemeral', Type: 'String', Value: value } },
      },
    });
    const world = await deploy(server.client, worldTemplate('first'), {}, { stackName: 'params-ephemeral-world' });
    expect(world.status).toBe('CREATE_COMPLETE');
    const app = (rule: boolean, failing: boolean) => ({
      Parameters: { Value: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/params/ephemeral' } },
      ...(rule
        ? {
            Rules: {
              OnlyFirst: {
                Assertions: [
                  { Assert: { 'Fn::Equals': [{ Ref: 'Value' }, 'first'] }, AssertDescription: 'only first' },
                ],
              },
            },
          }
        : {}),
      Resources: {
        P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: { Ref: 'Value' } } },
        ...(failing ? { Broken: { Type: 'AWS::SNS::Topic', Metadata: { 'cfn-local': { Fail: 'Create' } } } } : {}),
      },
      Outputs: { O: { Value: { 'Fn::GetAtt': ['P', 'Value'] } } },
    });
    const r = await deploy(server.client, app(true, false), {}, { stackName: 'params-ephemeral' });
    expect(r.outputs.O).toBe('first');
    await server.client.send(
      new UpdateStackCommand({
        StackName: 'params-ephemeral-world',
        TemplateBody: JSON.stringify(worldTemplate('second')),
      }),
    );
    await waitForStack(server.client, world.stackId!);
    // The update no longer has the rule; it fails, and the rollback re-reads the stored template (rule and all).
    await server.client.send(
      new UpdateStackCommand({ StackName: 'params-ephemeral', TemplateBody: JSON.stringify(app(false, true)) }),
    );
    const stack = await waitForStack(server.client, r.stackId!);
    expect(stack.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(stack.Outputs?.[0].OutputValue).toBe('first');
    expect(stack.Parameters).toEqual([
      { ParameterKey: 'Value', ParameterValue: '/params/ephemeral', ResolvedValue: 'first' },
    ]);
  });
});
