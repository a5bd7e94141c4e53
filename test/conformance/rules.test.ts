// Conformance: the Rules section (RuleCondition, Assertions, rule-specific functions), checked after the
// parameters resolve and before anything is created, refusing CreateStack with the AssertDescription.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CreateChangeSetCommand } from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { check, deploy, withOutputs, type Case } from './harness.js';

const DOC = 'https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/rules-section-structure.html';

const RULES = {
  Parameters: {
    Environment: { Type: 'String', Default: 'test', AllowedValues: ['test', 'prod'] },
    InstanceType: { Type: 'String', Default: 't2.micro' },
    Subnets: { Type: 'CommaDelimitedList', Default: 'a,b' },
  },
  Rules: {
    ProdInstanceType: {
      RuleCondition: { 'Fn::Equals': [{ Ref: 'Environment' }, 'prod'] },
      Assertions: [
        {
          Assert: { 'Fn::Equals': ['m5.large', { Ref: 'InstanceType' }] },
          AssertDescription: 'For a production environment, the instance type must be m5.large',
        },
      ],
    },
    KnownSubnets: {
      Assertions: [
        {
          Assert: { 'Fn::EachMemberIn': [{ Ref: 'Subnets' }, ['a', 'b', 'c']] },
          AssertDescription: 'Subnets must be a, b or c',
        },
        {
          Assert: { 'Fn::Not': [{ 'Fn::Contains': [['t1.micro'], { Ref: 'InstanceType' }] }] },
          AssertDescription: 't1.micro is retired',
        },
      ],
    },
  },
};

/** The CDK's synthesized rule, against the bootstrap version read from SSM. */
const CDK_RULE = {
  Parameters: {
    BootstrapVersion: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/cdk-bootstrap/hnb659fds/version' },
  },
  Rules: {
    CheckBootstrapVersion: {
      Assertions: [
        {
          Assert: { 'Fn::Not': [{ 'Fn::Contains': [['1', '2', '3', '4', '5'], { Ref: 'BootstrapVersion' }] }] },
          AssertDescription:
            "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI.",
        },
      ],
    },
  },
};

const CASES: Case[] = [
  {
    name: 'a rule whose RuleCondition is false is skipped',
    source: DOC,
    template: withOutputs({ O: { Ref: 'InstanceType' } }, RULES),
    outputs: { O: 't2.micro' },
  },
  {
    name: 'a false assertion refuses CreateStack with its AssertDescription',
    source: DOC,
    template: withOutputs({}, RULES),
    parameters: { Environment: 'prod' },
    error: 'For a production environment, the instance type must be m5.large',
  },
  {
    name: 'the assertion holds with the right value',
    source: DOC,
    template: withOutputs({ O: { Ref: 'InstanceType' } }, RULES),
    parameters: { Environment: 'prod', InstanceType: 'm5.large' },
    outputs: { O: 'm5.large' },
  },
  {
    name: 'Fn::EachMemberIn over a list parameter',
    source: DOC,
    template: withOutputs({}, RULES),
    parameters: { Subnets: 'a,z' },
    error: 'Subnets must be a, b or c',
  },
  {
    name: 'Fn::Contains under Fn::Not',
    source: DOC,
    template: withOutputs({}, RULES),
    parameters: { InstanceType: 't1.micro' },
    error: 't1.micro is retired',
  },
  {
    name: 'the CDK CheckBootstrapVersion rule passes on a recent bootstrap version',
    source: 'aws-cdk synthesized templates',
    template: withOutputs({ V: { Ref: 'BootstrapVersion' } }, CDK_RULE),
    outputs: { V: '21' },
  },
  {
    name: 'a rule without Assertions is refused',
    source: DOC,
    template: withOutputs({}, { Rules: { R: { RuleCondition: { 'Fn::Equals': ['a', 'a'] } } } }),
    error: 'Template format error: [/Rules/R] Every Rules member must contain an Assertions list.',
  },
  {
    name: 'Fn::If is not a rule function',
    source: 'aws-cloudformation/cloudformation-coverage-roadmap#921',
    template: withOutputs(
      {},
      {
        Conditions: { C: { 'Fn::Equals': ['a', 'a'] } },
        Rules: { R: { Assertions: [{ Assert: { 'Fn::If': ['C', true, false] } }] } },
      },
    ),
    error: 'Template format error: Fn::If is not supported in the Rules block of the template',
  },
  {
    name: 'a rule referencing a resource is refused',
    source: DOC,
    template: withOutputs(
      {},
      { Rules: { R: { Assertions: [{ Assert: { 'Fn::Equals': [{ Ref: 'Topic' }, 'x'] } }] } } },
    ),
    error:
      'Template format error: Unresolved dependencies [Topic]. Cannot reference resources in the Rules block of the template',
  },
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  const r = await deploy(
    server.client,
    {
      Resources: {
        V: {
          Type: 'AWS::SSM::Parameter',
          Properties: { Name: '/cdk-bootstrap/hnb659fds/version', Type: 'String', Value: '21' },
        },
      },
    },
    {},
    { stackName: 'bootstrap-version' },
  );
  expect(r.status).toBe('CREATE_COMPLETE');
});
afterAll(async () => {
  await server.close();
});

describe('Rules', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => check(server.client, c));

  describe('Fn::ValueOf and Fn::ValueOfAll read the resources parameter values name', () => {
    const NETWORK = {
      Resources: {
        Vpc: {
          Type: 'AWS::EC2::VPC',
          Properties: { CidrBlock: '10.0.0.0/16', Tags: [{ Key: 'Department', Value: 'IT' }] },
        },
        Other: { Type: 'AWS::EC2::VPC', Properties: { CidrBlock: '10.1.0.0/16' } },
        A: {
          Type: 'AWS::EC2::Subnet',
          Properties: { VpcId: { Ref: 'Vpc' }, CidrBlock: '10.0.1.0/24', AvailabilityZone: 'us-east-1a' },
        },
        B: { Type: 'AWS::EC2::Subnet', Properties: { VpcId: { Ref: 'Other' }, CidrBlock: '10.1.1.0/24' } },
      },
      Outputs: {
        Vpc: { Value: { Ref: 'Vpc' } },
        Other: { Value: { Ref: 'Other' } },
        A: { Value: { Ref: 'A' } },
        B: { Value: { Ref: 'B' } },
      },
    };
    // the documentation's examples: every subnet in the chosen VPC; the VPC's Department tag is IT
    const GUARDED = withOutputs(
      { O: { Ref: 'VpcId' } },
      {
        Parameters: { VpcId: { Type: 'AWS::EC2::VPC::Id' }, Subnets: { Type: 'List<AWS::EC2::Subnet::Id>' } },
        Rules: {
          SubnetsInVpc: {
            Assertions: [
              {
                Assert: {
                  'Fn::EachMemberEquals': [{ 'Fn::ValueOfAll': ['AWS::EC2::Subnet::Id', 'VpcId'] }, { Ref: 'VpcId' }],
                },
                AssertDescription: 'All subnets must be in the VPC',
              },
            ],
          },
          ItOnly: {
            Assertions: [
              {
                Assert: { 'Fn::Equals': [{ 'Fn::ValueOf': ['VpcId', 'Tags.Department'] }, 'IT'] },
                AssertDescription: 'The VPC must belong to IT',
              },
            ],
          },
          Zones: {
            Assertions: [
              {
                Assert: { 'Fn::EachMemberIn': [{ 'Fn::ValueOf': ['Subnets', 'AvailabilityZone'] }, ['us-east-1a']] },
                AssertDescription: 'Subnets must be in us-east-1a',
              },
            ],
          },
        },
      },
    );
    let ids: Record<string, string>;
    beforeAll(async () => {
      const r = await deploy(server.client, NETWORK, {}, { stackName: 'valueof-network' });
      expect(r.status).toBe('CREATE_COMPLETE');
      ids = r.outputs;
    });

    it('the assertions hold for subnets of the tagged VPC', async () => {
      await check(server.client, {
        name: 'holds',
        source: DOC,
        template: GUARDED,
        parameters: { VpcId: ids.Vpc, Subnets: ids.A },
        outputs: { O: ids.Vpc },
      });
    });
    it('Fn::ValueOfAll refuses a subnet of another VPC', async () => {
      await check(server.client, {
        name: 'other vpc',
        source: DOC,
        template: GUARDED,
        parameters: { VpcId: ids.Vpc, Subnets: `${ids.A},${ids.B}` },
        error: 'All subnets must be in the VPC',
      });
    });
    it('Fn::ValueOf reads a tag the VPC lacks as empty', async () => {
      await check(server.client, {
        name: 'untagged',
        source: DOC,
        template: GUARDED,
        parameters: { VpcId: ids.Other, Subnets: ids.B },
        error: 'The VPC must belong to IT',
      });
    });
  });

  it('CreateChangeSet is refused by a false assertion too', async () => {
    await expect(
      server.client.send(
        new CreateChangeSetCommand({
          StackName: 'rules-cs',
          ChangeSetName: 'cs',
          ChangeSetType: 'CREATE',
          TemplateBody: JSON.stringify(withOutputs({}, RULES)),
          Parameters: [{ ParameterKey: 'Environment', ParameterValue: 'prod' }],
        }),
      ),
    ).rejects.toThrow('For a production environment, the instance type must be m5.large');
  });
});
