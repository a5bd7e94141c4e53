// Conformance: every parameter type AWS accepts, each with its evidence (AWS's documentation, or a run recorded
// against AWS), is accepted; the types AWS does not know are refused. Values are validated as AWS validates them
// (parameters.test.ts has the constraint and existence cases).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { check, deploy, withOutputs } from './harness.js';

const DOC =
  'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/parameters-section-structure.html#parameters-section-structure-properties-type';
const AWS_SPECIFIC =
  'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-supplied-parameter-types.html#aws-specific-parameter-types-supported';
const SSM =
  'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-supplied-parameter-types.html#cloudformation-supplied-parameter-types-ssm';
const RECORDED = 'LocalStack AWS-validated test_parameters (List<String>: `foo,bar` read back as `foo|bar`)';

const SPECIFIC = [
  'AWS::EC2::AvailabilityZone::Name',
  'AWS::EC2::Image::Id',
  'AWS::EC2::Instance::Id',
  'AWS::EC2::KeyPair::KeyName',
  'AWS::EC2::SecurityGroup::GroupName',
  'AWS::EC2::SecurityGroup::Id',
  'AWS::EC2::Subnet::Id',
  'AWS::EC2::Volume::Id',
  'AWS::EC2::VPC::Id',
  'AWS::Route53::HostedZone::Id',
];
const LISTED = SPECIFIC.filter((t) => t !== 'AWS::EC2::KeyPair::KeyName');

/** Every type AWS accepts, with where that is known from. */
const ACCEPTED: [type: string, evidence: string][] = [
  ...['String', 'Number', 'List<Number>', 'CommaDelimitedList'].map((t): [string, string] => [t, DOC]),
  ['List<String>', RECORDED],
  ...SPECIFIC.map((t): [string, string] => [t, AWS_SPECIFIC]),
  ...LISTED.map((t): [string, string] => [`List<${t}>`, AWS_SPECIFIC]),
  ['AWS::SSM::Parameter::Name', SSM],
  ...['String', 'List<String>', 'CommaDelimitedList', ...SPECIFIC, ...LISTED.map((t) => `List<${t}>`)].map(
    (t): [string, string] => [`AWS::SSM::Parameter::Value<${t}>`, SSM],
  ),
];
const REFUSED = [
  'Strin',
  'List<Foo>',
  'AWS::EC2::Bucket::Name',
  'AWS::SSM::Parameter::Value<Number>',
  'List<List<String>>',
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  const r = await deploy(
    server.client,
    {
      Resources: {
        Zones: {
          Type: 'AWS::SSM::Parameter',
          Properties: { Name: '/types/zones', Type: 'StringList', Value: 'us-east-1a,us-east-1b' },
        },
      },
    },
    {},
    { stackName: 'types-world' },
  );
  expect(r.status).toBe('CREATE_COMPLETE');
});
afterAll(async () => {
  await server.close();
});

const declaring = (type: string) => withOutputs({}, { Parameters: { P: { Type: type } } });

describe('parameter types', () => {
  it.each(ACCEPTED)('%s is accepted (%s)', async (type, source) => {
    // a value each type takes without naming anything the account lacks ('' names nothing for AWS-specific types)
    const value = type.startsWith('AWS::SSM::Parameter::Value<') ? '/types/zones' : /Number/.test(type) ? '1' : '';
    await check(server.client, {
      name: type,
      source,
      template: declaring(type),
      parameters: { P: value },
      outputs: {},
    });
  });

  it.each(REFUSED)('%s is refused', async (type) => {
    await check(server.client, {
      name: type,
      source: DOC,
      template: declaring(type),
      parameters: { P: 'x' },
      error: `Template format error: Unrecognized parameter type: ${type}`,
    });
  });

  it("List<String> splits on commas, as AWS's recorded run reads it back", async () => {
    await check(server.client, {
      name: 'List<String>',
      source: RECORDED,
      template: withOutputs(
        { O: { 'Fn::Join': ['|', { Ref: 'P' }] } },
        { Parameters: { P: { Type: 'List<String>' } } },
      ),
      parameters: { P: 'foo,bar' },
      outputs: { O: 'foo|bar' },
    });
  });

  it('AWS::SSM::Parameter::Value<AWS::EC2::Image::Id> resolves a public AMI parameter', async () => {
    await check(server.client, {
      name: 'public AMI',
      source: SSM,
      template: withOutputs(
        { O: { Ref: 'P' } },
        {
          Parameters: {
            P: {
              Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>',
              Default: '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64',
            },
          },
        },
      ),
      outputs: { O: /^ami-[0-9a-f]{17}$/ },
    });
  });

  it('AWS::SSM::Parameter::Value<List<AWS::EC2::AvailabilityZone::Name>> is a list', async () => {
    await check(server.client, {
      name: 'zones',
      source: SSM,
      template: withOutputs(
        { O: { 'Fn::Select': [1, { Ref: 'P' }] } },
        {
          Parameters: {
            P: { Type: 'AWS::SSM::Parameter::Value<List<AWS::EC2::AvailabilityZone::Name>>', Default: '/types/zones' },
          },
        },
      ),
      outputs: { O: 'us-east-1b' },
    });
  });
});
