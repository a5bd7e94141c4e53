// Conformance: Ref, Fn::GetAtt, Fn::Sub and the pseudo parameters, each case with the value AWS resolves.
import { describe, it, beforeAll, afterAll } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { check, withOutputs, type Case } from './harness.js';

const REF =
  'https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-ref.html';
const GETATT =
  'https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-getatt.html';
const SUB =
  'https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-sub.html';
const PSEUDO = 'https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/pseudo-parameter-reference.html';

const param = (Type: string, Default?: string) => ({ Type, ...(Default !== undefined ? { Default } : {}) });

const CASES: Case[] = [
  {
    name: 'Ref of a String parameter is its value',
    source: REF,
    template: withOutputs({ O: { Ref: 'P' } }, { Parameters: { P: param('String', 'abc') } }),
    outputs: { O: 'abc' },
  },
  {
    name: 'Ref of a parameter given at the call',
    source: REF,
    template: withOutputs({ O: { Ref: 'P' } }, { Parameters: { P: param('String') } }),
    parameters: { P: 'given' },
    outputs: { O: 'given' },
  },
  {
    name: 'Ref of a CommaDelimitedList joins back with commas in an output',
    source: REF,
    template: withOutputs(
      { O: { 'Fn::Join': ['|', { Ref: 'P' }] } },
      { Parameters: { P: param('CommaDelimitedList', 'foo,bar') } },
    ),
    outputs: { O: 'foo|bar' },
  },
  {
    name: 'Ref of an SNS topic is its ARN',
    source: 'cfn/api/test_reference_resolving.py',
    template: withOutputs({ O: { 'Fn::Select': [5, { 'Fn::Split': [':', { Ref: 'Topic' }] }] } }),
    outputs: { O: /^conf-\d+-Topic-[A-Za-z0-9]{12}$/ },
  },
  {
    name: 'Ref of an SSM parameter is its name',
    source: 'cfn/api/test_reference_resolving.py',
    template: {
      Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/conf/ref', Type: 'String', Value: 'v' } } },
      Outputs: { O: { Value: { Ref: 'P' } } },
    },
    outputs: { O: '/conf/ref' },
  },
  {
    name: 'Ref to an undefined name is refused at the call',
    source: 'cfn/engine/test_references.py::test_useful_error_when_invalid_ref',
    template: { Resources: { T: { Type: 'AWS::SNS::Topic', Properties: { TopicName: { Ref: 'InvalidRef' } } } } },
    error:
      'Template format error: Unresolved resource dependencies [InvalidRef] in the Resources block of the template',
  },
  {
    name: 'Ref with a non-string argument is refused',
    source: REF,
    template: { Resources: { T: { Type: 'AWS::SNS::Topic', Properties: { TopicName: { Ref: ['a'] } } } } },
    error: 'Template format error: Every Ref object must have a single String value.',
  },
  {
    name: 'Fn::GetAtt long form reads an attribute',
    source: GETATT,
    template: withOutputs({ O: { 'Fn::GetAtt': ['Topic', 'TopicName'] } }),
    outputs: { O: /^conf-\d+-Topic-[A-Za-z0-9]{12}$/ },
  },
  {
    name: 'Fn::GetAtt with the attribute name from a Ref (dynamic form)',
    source: GETATT,
    template: withOutputs(
      { O: { 'Fn::GetAtt': ['Topic', { Ref: 'Attr' }] } },
      { Parameters: { Attr: param('String', 'TopicArn') } },
    ),
    outputs: { O: /^arn:aws:sns:us-east-1:000000000000:conf-\d+-Topic-/ },
  },
  {
    name: 'Fn::GetAtt of a nested attribute (Endpoint.Address)',
    source: GETATT,
    template: {
      Resources: {
        Db: {
          Type: 'AWS::RDS::DBInstance',
          Properties: {
            Engine: 'postgres',
            DBInstanceClass: 'db.t3.micro',
            AllocatedStorage: '20',
            MasterUsername: 'u',
            MasterUserPassword: 'password1',
          },
        },
      },
      Outputs: {
        O: { Value: { 'Fn::GetAtt': ['Db', 'Endpoint.Address'] } },
        P: { Value: { 'Fn::GetAtt': 'Db.Endpoint.Port' } },
      },
    },
    outputs: { O: /\.rds\.amazonaws\.com$/, P: '5432' },
  },
  {
    name: 'Fn::GetAtt to an undefined resource is refused',
    source: GETATT,
    template: withOutputs({ O: { 'Fn::GetAtt': ['Nope', 'Arn'] } }),
    error: 'Template error: instance of Fn::GetAtt references undefined resource Nope',
  },
  {
    name: 'Fn::GetAtt with one element is refused',
    source: 'cfn/test_change_set_fn_get_attr.py::test_invalid_structure',
    template: withOutputs({ O: { 'Fn::GetAtt': ['Topic'] } }),
    error:
      'Template error: every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute',
  },
  {
    name: 'Fn::GetAtt of an attribute the type lacks fails the stack with no resource events',
    source: 'cfn/engine/test_attributes.py::test_invalid_getatt_fails',
    template: {
      Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'v' } } },
      Outputs: { InvalidOutput: { Value: { 'Fn::GetAtt': ['P', 'Invalid'] } } },
    },
    failed:
      '[Error] /Outputs/InvalidOutput/Value/Fn::GetAtt: Resource type AWS::SSM::Parameter does not support attribute {Invalid}',
  },
  {
    name: 'Fn::Sub replaces parameters and pseudo parameters',
    source: SUB,
    template: withOutputs(
      { O: { 'Fn::Sub': '${P}-${AWS::Region}-${AWS::URLSuffix}' } },
      { Parameters: { P: param('String', 'x') } },
    ),
    outputs: { O: 'x-us-east-1-amazonaws.com' },
  },
  {
    name: 'Fn::Sub with a variable map',
    source: SUB,
    template: withOutputs({ O: { 'Fn::Sub': ['${A}/${B}', { A: 'one', B: { Ref: 'AWS::AccountId' } }] } }),
    outputs: { O: 'one/000000000000' },
  },
  {
    name: 'Fn::Sub ${!Literal} writes ${Literal}',
    source: SUB,
    template: withOutputs({ O: { 'Fn::Sub': '${!Literal}-${AWS::Region}' } }),
    outputs: { O: '${Literal}-us-east-1' },
  },
  {
    name: 'Fn::Sub of a Number parameter',
    source: 'cfn/engine/test_references.py::TestFnSub',
    template: withOutputs({ O: { 'Fn::Sub': 'n=${N}' } }, { Parameters: { N: param('Number', '42') } }),
    outputs: { O: 'n=42' },
  },
  {
    name: 'Fn::Sub ${Resource.Attribute}',
    source: SUB,
    template: {
      Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/conf/sub', Type: 'String', Value: 'v' } } },
      Outputs: { O: { Value: { 'Fn::Sub': '${P.Value}@${P}' } } },
    },
    outputs: { O: 'v@/conf/sub' },
  },
  {
    name: 'Fn::Sub to an undefined variable is refused',
    source: SUB,
    template: withOutputs(
      {},
      { Resources: { T: { Type: 'AWS::SNS::Topic', Properties: { TopicName: { 'Fn::Sub': '${Missing}' } } } } },
    ),
    error: 'Template format error: Unresolved resource dependencies [Missing] in the Resources block of the template',
  },
  {
    name: 'AWS::Partition, AWS::AccountId, AWS::NotificationARNs',
    source: PSEUDO,
    template: withOutputs({
      P: { Ref: 'AWS::Partition' },
      A: { Ref: 'AWS::AccountId' },
      N: { 'Fn::Join': [',', { Ref: 'AWS::NotificationARNs' }] },
    }),
    outputs: { P: 'aws', A: '000000000000', N: '' },
  },
  {
    name: 'AWS::StackName and AWS::StackId',
    source: 'TestPseudoParameters::test_stack_id',
    template: withOutputs({
      N: { Ref: 'AWS::StackName' },
      I: { 'Fn::Select': [0, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] },
    }),
    outputs: { N: /^conf-\d+$/, I: 'arn:aws:cloudformation:us-east-1:000000000000:stack' },
  },
  {
    name: 'AWS::NoValue in Fn::If removes the property',
    source: 'test_aws_novalue',
    template: {
      Conditions: { No: { 'Fn::Equals': ['a', 'b'] } },
      Resources: {
        P: {
          Type: 'AWS::SSM::Parameter',
          Properties: { Type: 'String', Value: 'v', Description: { 'Fn::If': ['No', 'x', { Ref: 'AWS::NoValue' }] } },
        },
      },
      Outputs: { O: { Value: { 'Fn::GetAtt': ['P', 'Value'] } } },
    },
    outputs: { O: 'v' },
  },
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('references: Ref, Fn::GetAtt, Fn::Sub, pseudo parameters', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => check(server.client, c));
});
