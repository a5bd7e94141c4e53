// Conformance: template formats and sections, the structural errors AWS raises at the call, and bad input
// (alias bombs, deep nesting, duplicate and non-scalar keys, oversized templates) refused with bounded work.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { check, deploy, withOutputs, type Case } from './harness.js';

const ANATOMY = 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/template-anatomy.html';
const QUOTAS = 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html';
const TRANSFORM =
  'https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/transform-section-structure.html';
const topic = { Type: 'AWS::SNS::Topic' };

const SHORT_TAGS = `
AWSTemplateFormatVersion: 2010-09-09
Parameters:
  Name: { Type: String, Default: tagged }
Conditions:
  Always: !Equals [!Ref 'AWS::Region', us-east-1]
  Never: !Not [!Condition Always]
Mappings:
  M: { us-east-1: { K: mapped } }
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      TopicName: !Sub '\${Name}-\${AWS::Region}'
Outputs:
  Dotted: { Value: !GetAtt Topic.TopicName }
  Listed: { Value: !GetAtt [Topic, TopicName] }
  SubMap: { Value: !Sub ['\${A}-\${B}', { A: !Ref Name, B: !FindInMap [M, !Ref 'AWS::Region', K] }] }
  Nested: { Value: !Join ['/', [!Select [0, !Split [',', 'x,y']], !If [Never, a, b], !Base64 'hi']] }
  Cidr: { Value: !Select [1, !Cidr ['10.0.0.0/16', 2, 8]] }
  Azs: { Value: !Select [0, !GetAZs ''] }
`;

const aliasBomb = () => {
  let s = 'a: &a ["x","x","x","x","x","x","x","x","x","x"]\n';
  for (let i = 1; i <= 9; i++)
    s += `a${i}: &a${i} [${Array(10)
      .fill(`*a${i === 1 ? '' : i - 1}`)
      .join(',')}]\n`;
  return `${s}Resources:\n  T:\n    Type: AWS::SNS::Topic\n`;
};

const CASES: Case[] = [
  {
    name: 'YAML with every short tag, both GetAtt forms and a Sub variable map',
    source: ANATOMY,
    template: SHORT_TAGS,
    outputs: {
      Dotted: 'tagged-us-east-1',
      Listed: 'tagged-us-east-1',
      SubMap: 'tagged-mapped',
      Nested: 'x/b/aGk=',
      Cidr: '10.0.1.0/24',
      Azs: 'us-east-1a',
    },
  },
  // The User Guide lists aliases as unsupported; public AWS output gives this text.
  {
    name: 'YAML aliases are refused',
    source: ANATOMY,
    template:
      'Common: &c { Type: String, Default: shared }\nParameters:\n  A: *c\nResources:\n  T: { Type: AWS::SNS::Topic }\nOutputs:\n  O: { Value: !Ref A }\n',
    error: 'Template error: YAML aliases are not allowed in CloudFormation templates',
  },
  {
    name: 'parameters and keys named N and Y stay strings (not YAML 1.1 booleans)',
    source: 'aws/aws-cli test_yamlhelper.py::test_yaml_dump_quotes_boolean_strings',
    template:
      "Parameters:\n  N: { Type: String, Default: n }\n  Y: { Type: String, Default: Y }\nResources:\n  T: { Type: AWS::SNS::Topic }\nOutputs:\n  O: { Value: !Join ['-', [!Ref N, !Ref Y]] }\n",
    outputs: { O: 'n-Y' },
  },
  {
    name: 'no Resources',
    source: 'test_missing_resources_block',
    template: { Outputs: {} },
    error: 'Template format error: At least one Resources member must be defined.',
  },
  {
    name: 'Resources: ""',
    source: 'test_linting_error_during_creation',
    template: { Resources: '' },
    error: 'Template format error: Any Resources member must be an object.',
  },
  {
    name: 'a resource without Type',
    source: 'test_resources_blocks[missing-type]',
    template: { Resources: { A: { Properties: {} } } },
    error: 'Template format error: [/Resources/A] Every Resources object must contain a Type member.',
  },
  {
    name: 'an unknown resource key',
    source: 'test_resources_blocks[invalid-key]',
    template: { Resources: { A: { ...topic, Invalid: 1 } } },
    error: "Invalid template resource property 'Invalid'",
  },
  {
    name: 'a non-alphanumeric logical id',
    source: 'test_invalid_logical_resource_id',
    template: { Resources: { 'my-bad-resource-id': topic } },
    error: 'Template format error: Resource name my-bad-resource-id is non alphanumeric.',
  },
  {
    name: 'an output with a null Value',
    source: 'test_invalid_output_structure',
    template: { Resources: { T: topic }, Outputs: { MyOutput: { Value: null } } },
    error: "[/Outputs/MyOutput/Value] 'null' values are not allowed in templates",
  },
  {
    name: 'an output without Value',
    source: 'test_invalid_output_structure',
    template: { Resources: { T: topic }, Outputs: { MyOutput: {} } },
    error: 'Template format error: Every Outputs member must contain a Value object',
  },
  {
    name: 'DependsOn an undefined resource',
    source: 'test_depends_on_with_missing_reference',
    template: { Resources: { T: { ...topic, DependsOn: 'NonExistingResource' } } },
    error:
      'Template format error: Unresolved resource dependencies [NonExistingResource] in the Resources block of the template',
  },
  {
    name: 'a circular dependency',
    source: '(third-party reports)',
    template: { Resources: { A: { ...topic, DependsOn: 'B' }, B: { ...topic, DependsOn: 'A' } } },
    error: 'Circular dependency between resources: [A, B]',
  },
  {
    name: 'an unknown resource type',
    source: ANATOMY,
    template: { Resources: { T: { Type: 'AWS::Nope::Thing' } } },
    error: 'Template format error: Unrecognized resource types: [AWS::Nope::Thing]',
  },
  {
    name: 'an unknown top-level section',
    source: ANATOMY,
    template: { Resources: { T: topic }, Extra: {} },
    error: 'Template format error: Invalid template property or properties [Extra]',
  },
  {
    name: 'an unsupported template version',
    source: ANATOMY,
    template: { AWSTemplateFormatVersion: '2011-01-01', Resources: { T: topic } },
    error: 'Template format error: Unsupported template version 2011-01-01',
  },
  {
    name: 'a Description over 1024 bytes',
    source: QUOTAS,
    template: { Description: 'é'.repeat(513), Resources: { T: topic } },
    error: "Template format error: 'Description' length is greater than 1024.",
  },
  {
    name: 'more than 500 resources',
    source: QUOTAS,
    template: { Resources: Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`T${i}`, topic])) },
    error:
      /^Template format error: Number of resources, 501, is greater than maximum allowed, 500$|^1 validation error detected/,
  },
  {
    name: 'more than 200 outputs',
    source: QUOTAS,
    template: withOutputs(Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`O${i}`, 'v']))),
    error: 'Template format error: Number of outputs, 201, is greater than maximum allowed, 200',
  },
  {
    name: 'invalid JSON',
    source: 'test_validate_invalid_json_template_should_fail',
    template: '{"Resources": {"T": {"Type": }}}',
    error: /^Template format error: JSON not well-formed\. \(line 1, column \d+\)$/,
  },
  {
    name: 'invalid YAML',
    source: 'test_create_stack_invalid_yaml_template_should_fail',
    template: 'Resources:\n  T: [unclosed\n',
    error: /^Template format error: YAML not well-formed\./,
  },
  {
    name: 'duplicate keys in YAML',
    source: ANATOMY,
    template: 'Resources:\n  T: { Type: AWS::SNS::Topic }\n  T: { Type: AWS::SNS::Topic }\n',
    error: /^Template format error: YAML not well-formed\. \(line 3, column 3\)$/,
  },
  {
    name: 'duplicate keys in JSON',
    source: ANATOMY,
    template: '{"Resources": {"T": {"Type": "AWS::SNS::Topic"}, "T": {"Type": "AWS::SNS::Topic"}}}',
    error: /^Template format error: JSON not well-formed\. \(line 1, column \d+\)$/,
  },
  {
    name: 'a YAML map key that is a list',
    source: ANATOMY,
    template: 'Resources:\n  ? [a, b]\n  : { Type: AWS::SNS::Topic }\n',
    error: 'Template format error: YAML not well-formed. (a map key must be a scalar)',
  },
  {
    name: 'a YAML alias bomb',
    source: 'billion laughs',
    template: aliasBomb(),
    error: 'Template error: YAML aliases are not allowed in CloudFormation templates',
  },
  {
    name: 'a deeply nested template',
    source: ANATOMY,
    template: withOutputs({ O: JSON.parse('['.repeat(300) + ']'.repeat(300)) }),
    error: 'Template format error: Template is nested too deeply (more than 128 levels).',
  },
  {
    name: 'a body that is not a map',
    source: ANATOMY,
    template: '[1, 2]',
    error: 'Template format error: unsupported structure.',
  },
  {
    name: 'Fn::Transform with a Ref as Name',
    source: 'TestMacros::test_error_pass_macro_as_reference',
    template: { Resources: { T: { ...topic, Properties: { 'Fn::Transform': { Name: { Ref: 'AWS::Region' } } } } } },
    error: 'Key Name of transform definition must be a string.',
  },
  {
    name: 'AWS::Include whose snippet cannot be read (a create that rolls back)',
    source: TRANSFORM,
    template: {
      Resources: { 'Fn::Transform': { Name: 'AWS::Include', Parameters: { Location: 's3://bucket/snippet.yaml' } } },
    },
    failed: /^Transform AWS::Include failed with: /,
  },
  {
    name: 'a macro that does not exist',
    source: TRANSFORM,
    template: { Transform: 'MyMacro', Resources: { T: topic } },
    error: 'No transform named 000000000000::MyMacro found.',
  },
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('structure and bad input', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => check(server.client, c));

  it('an IAM role needs CAPABILITY_IAM; a named one CAPABILITY_NAMED_IAM; a transform CAPABILITY_AUTO_EXPAND', async () => {
    const role = (named: boolean) => ({
      Resources: {
        R: {
          Type: 'AWS::IAM::Role',
          Properties: { AssumeRolePolicyDocument: {}, ...(named ? { RoleName: 'n' } : {}) },
        },
      },
    });
    expect((await deploy(server.client, role(false), {}, { capabilities: [] })).error).toEqual({
      name: 'InsufficientCapabilitiesException',
      message: 'Requires capabilities : [CAPABILITY_IAM]',
    });
    expect((await deploy(server.client, role(true), {}, { capabilities: ['CAPABILITY_IAM'] })).error).toEqual({
      name: 'InsufficientCapabilitiesException',
      message: 'Requires capabilities : [CAPABILITY_NAMED_IAM]',
    });
    const le = { Transform: 'AWS::LanguageExtensions', Resources: { T: topic } };
    expect((await deploy(server.client, le, {}, { capabilities: [] })).error).toEqual({
      name: 'InsufficientCapabilitiesException',
      message: 'Requires capabilities : [CAPABILITY_AUTO_EXPAND]',
    });
  });

  it('the server still answers quickly after the bad input', async () => {
    const started = Date.now();
    const r = await deploy(server.client, withOutputs({ O: 'fine' }));
    expect(r.outputs).toEqual({ O: 'fine' });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
