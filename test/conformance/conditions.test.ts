// Conformance: Conditions and the condition functions Fn::If, Fn::Equals, Fn::And, Fn::Or, Fn::Not, Condition.
import { describe, it, beforeAll, afterAll } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { check, withOutputs, type Case } from './harness.js';

const DOC =
  'https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-conditions.html';
const SECTION = 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/conditions-section-structure.html';
const env = (Default: string) => ({ Env: { Type: 'String', Default, AllowedValues: ['prod', 'dev', 'test'] } });

const withConditions = (
  conditions: Record<string, unknown>,
  outputs: Record<string, unknown>,
  parameters: Record<string, unknown> = env('prod'),
) => withOutputs(outputs, { Parameters: parameters, Conditions: conditions });

const CASES: Case[] = [
  {
    name: 'Fn::Equals on a parameter selects the Fn::If branch',
    source: DOC,
    template: withConditions(
      { IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] } },
      { O: { 'Fn::If': ['IsProd', 'big', 'small'] } },
    ),
    outputs: { O: 'big' },
  },
  {
    name: 'Fn::Not, Fn::And, Fn::Or and Condition compose',
    source: 'test_nested_conditions',
    template: withConditions(
      {
        IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] },
        IsDev: { 'Fn::Equals': ['dev', { Ref: 'Env' }] },
        NotDev: { 'Fn::Not': [{ Condition: 'IsDev' }] },
        Both: { 'Fn::And': [{ Condition: 'IsProd' }, { Condition: 'NotDev' }] },
        Either: { 'Fn::Or': [{ Condition: 'IsDev' }, { 'Fn::Equals': ['a', 'b'] }] },
      },
      { B: { 'Fn::If': ['Both', 'yes', 'no'] }, E: { 'Fn::If': ['Either', 'yes', 'no'] } },
    ),
    outputs: { B: 'yes', E: 'no' },
  },
  {
    name: 'Fn::Equals compares a number and a string as strings',
    source: DOC,
    template: withConditions(
      { C: { 'Fn::Equals': [{ Ref: 'N' }, '3'] } },
      { O: { 'Fn::If': ['C', 't', 'f'] } },
      { N: { Type: 'Number', Default: '3' } },
    ),
    outputs: { O: 't' },
  },
  {
    name: 'A false-conditioned resource and output are absent',
    source: 'test_references_to_disabled_resources',
    template: {
      Parameters: env('dev'),
      Conditions: { IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] } },
      Resources: { T: { Type: 'AWS::SNS::Topic' }, Extra: { Type: 'AWS::SNS::Topic', Condition: 'IsProd' } },
      Outputs: { Always: { Value: 'a' }, Only: { Value: { Ref: 'Extra' }, Condition: 'IsProd' } },
    },
    outputs: { Always: 'a' },
  },
  {
    name: 'Fn::If in a property with AWS::NoValue',
    source: DOC,
    template: withConditions(
      { IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] } },
      { O: { 'Fn::Join': [',', ['a', { 'Fn::If': ['IsProd', { Ref: 'AWS::NoValue' }, 'b'] }]] } },
    ),
    outputs: { O: 'a' },
  },
  {
    name: 'Fn::Equals with one argument is refused',
    source: 'test_validate_equals_args_len',
    template: withConditions({ C: { 'Fn::Equals': ['a'] } }, {}),
    error: 'Template error: every Fn::Equals object requires a list of 2 string parameters.',
  },
  {
    name: 'Fn::If naming an undefined condition is refused',
    source: 'cfn/test_change_set_conditions.py::test_missing_condition',
    template: withConditions({}, { O: { 'Fn::If': ['MissingCondition', 'a', 'b'] } }),
    error: 'Template error: unresolved condition dependency MissingCondition in Fn::If',
  },
  {
    name: 'A condition referencing a resource is refused',
    source: SECTION,
    template: withConditions({ C: { 'Fn::Equals': [{ Ref: 'Topic' }, 'x'] } }, {}),
    error:
      'Template format error: Unresolved dependencies [Topic]. Cannot reference resources in the Conditions block of the template',
  },
  {
    name: 'Fn::GetAtt in Conditions is refused',
    source: SECTION,
    template: withConditions({ C: { 'Fn::Equals': [{ 'Fn::GetAtt': ['Topic', 'TopicName'] }, 'x'] } }, {}),
    error:
      'Template format error: Unresolved dependencies [Topic]. Cannot reference resources in the Conditions block of the template',
  },
  {
    name: 'Ref of an unconditional resource to a false-conditioned one is refused at the call',
    source: 'cfn/engine/test_conditions.py::test_dependent_ref',
    template: {
      Parameters: env('dev'),
      Conditions: { IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] } },
      Resources: {
        MyTopic: { Type: 'AWS::SNS::Topic', Condition: 'IsProd' },
        P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: { Ref: 'MyTopic' } } },
      },
    },
    error: 'Template format error: Unresolved resource dependencies [MyTopic] in the Resources block of the template',
  },
  {
    name: 'An unconditional output referencing a skipped resource is refused without the prefix',
    source: 'test_output_reference_to_skipped_resource',
    template: {
      Parameters: env('dev'),
      Conditions: { IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] } },
      Resources: { T: { Type: 'AWS::SNS::Topic' }, MyTopic: { Type: 'AWS::SNS::Topic', Condition: 'IsProd' } },
      Outputs: { O: { Value: { Ref: 'MyTopic' } } },
    },
    error: 'Unresolved resource dependencies [MyTopic] in the Outputs block of the template',
  },
  {
    name: 'A conditional resource may reference another with the same false condition',
    source: 'test_conditional_resource_referencing_conditional',
    template: {
      Parameters: env('dev'),
      Conditions: { IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] } },
      Resources: {
        T: { Type: 'AWS::SNS::Topic' },
        A: { Type: 'AWS::SNS::Topic', Condition: 'IsProd' },
        B: {
          Type: 'AWS::SSM::Parameter',
          Condition: 'IsProd',
          Properties: { Type: 'String', Value: { 'Fn::GetAtt': ['A', 'TopicName'] } },
        },
      },
    },
    outputs: {},
  },
  // The CDK bootstrap template (KMSMasterKeyID and the BucketKey output under FileAssetsBucketKmsKeyId=AWS_MANAGED_KEY)
  // names the skipped key in the untaken branch; `cdk bootstrap` with default options deploys it. Condition
  // functions section: "AWS CloudFormation evaluates the condition ... and selects the value" of one branch only.
  {
    name: 'Ref, Fn::GetAtt and Fn::Sub in the untaken Fn::If branch may name a skipped resource',
    source: DOC,
    template: {
      Parameters: env('dev'),
      Conditions: { IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] } },
      Resources: {
        Key: { Type: 'AWS::SNS::Topic', Condition: 'IsProd' },
        P: {
          Type: 'AWS::SSM::Parameter',
          Properties: {
            Type: 'String',
            Value: {
              'Fn::If': [
                'IsProd',
                { 'Fn::Join': [',', [{ Ref: 'Key' }, { 'Fn::GetAtt': ['Key', 'TopicName'] }]] },
                'none',
              ],
            },
          },
        },
      },
      Outputs: {
        Sub: { Value: { 'Fn::If': ['IsProd', { 'Fn::Sub': '${Key.TopicName}' }, 'managed'] } },
        Att: {
          Value: { 'Fn::If': ['IsProd', { 'Fn::GetAtt': ['Key', 'TopicName'] }, { 'Fn::GetAtt': ['P', 'Value'] }] },
        },
      },
    },
    outputs: { Sub: 'managed', Att: 'none' },
  },
  {
    name: 'A reference in the taken Fn::If branch to a skipped resource is refused',
    source: 'cfn/engine/test_conditions.py::test_dependent_ref',
    template: {
      Parameters: env('dev'),
      Conditions: {
        IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] },
        IsDev: { 'Fn::Equals': [{ Ref: 'Env' }, 'dev'] },
      },
      Resources: {
        Key: { Type: 'AWS::SNS::Topic', Condition: 'IsProd' },
        P: {
          Type: 'AWS::SSM::Parameter',
          Properties: { Type: 'String', Value: { 'Fn::If': ['IsDev', { Ref: 'Key' }, 'x'] } },
        },
      },
    },
    error: 'Template format error: Unresolved resource dependencies [Key] in the Resources block of the template',
  },
  {
    name: "An output's taken Fn::If branch naming a skipped resource is refused",
    source: 'test_output_reference_to_skipped_resource',
    template: {
      Parameters: env('dev'),
      Conditions: { IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] } },
      Resources: { T: { Type: 'AWS::SNS::Topic' }, Key: { Type: 'AWS::SNS::Topic', Condition: 'IsProd' } },
      Outputs: { O: { Value: { 'Fn::If': ['IsProd', 'x', { 'Fn::Sub': '${Key}' }] } } },
    },
    error: 'Unresolved resource dependencies [Key] in the Outputs block of the template',
  },
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('conditions: Fn::If, Fn::Equals, Fn::And, Fn::Or, Fn::Not, Condition', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => check(server.client, c));
});
