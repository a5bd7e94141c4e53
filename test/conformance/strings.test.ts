// Conformance: Fn::Join, Fn::Split, Fn::Select, Fn::Base64, Fn::Length, Fn::ToJsonString.
import { describe, it, beforeAll, afterAll } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { check, withOutputs, type Case } from './harness.js';

const DOC = (fn: string) =>
  `https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-${fn}.html`;
const LE = { Transform: 'AWS::LanguageExtensions' };
const list = (Default: string) => ({ Parameters: { L: { Type: 'CommaDelimitedList', Default } } });

const CASES: Case[] = [
  {
    name: 'Fn::Join joins with the delimiter',
    source: DOC('join'),
    template: withOutputs({ O: { 'Fn::Join': [':', ['a', 'b', 'c']] } }),
    outputs: { O: 'a:b:c' },
  },
  {
    name: 'Fn::Join with an empty delimiter',
    source: DOC('join'),
    template: withOutputs({ O: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::b']] } }),
    outputs: { O: 'arn:aws:s3:::b' },
  },
  {
    name: 'Fn::Join skips AWS::NoValue elements',
    source: DOC('join'),
    template: withOutputs({ O: { 'Fn::Join': ['-', ['a', { Ref: 'AWS::NoValue' }, 'b']] } }),
    outputs: { O: 'a-b' },
  },
  {
    name: 'Fn::Join over Fn::GetAZs',
    source: DOC('join'),
    template: withOutputs({ O: { 'Fn::Join': [',', { 'Fn::GetAZs': 'eu-west-1' }] } }),
    outputs: { O: 'eu-west-1a,eu-west-1b,eu-west-1c' },
  },
  {
    name: 'Fn::Join with a non-list is refused at the call',
    source: DOC('join'),
    template: withOutputs({ O: { 'Fn::Join': [',', 'abc'] } }),
    error:
      'Template error: every Fn::Join object requires two parameters, (1) a string delimiter and (2) a list of strings to be joined or a function that returns a list of strings (such as Fn::GetAZs) to be joined.',
  },
  {
    name: 'Fn::Split then Fn::Select',
    source: DOC('split'),
    template: withOutputs({ O: { 'Fn::Select': [2, { 'Fn::Split': ['|', 'a|b|c'] }] } }),
    outputs: { O: 'c' },
  },
  {
    name: 'Fn::Split keeps empty fields',
    source: DOC('split'),
    template: withOutputs({ O: { 'Fn::Join': ['+', { 'Fn::Split': [',', 'a,,b,'] }] } }),
    outputs: { O: 'a++b+' },
  },
  {
    name: 'Fn::Split with one argument is refused',
    source: 'cfn/test_change_set_fn_split.py::test_validate_split_arguments_len',
    template: withOutputs({ O: { 'Fn::Join': [',', { 'Fn::Split': [','] }] } }),
    error:
      'Template error: every Fn::Split object requires two parameters, (1) a string delimiter and (2) a string to be split or a function that returns a string to be split.',
  },
  {
    name: 'Fn::Select of a CommaDelimitedList parameter',
    source: DOC('select'),
    template: withOutputs({ O: { 'Fn::Select': ['1', { Ref: 'L' }] } }, list('x,y,z')),
    outputs: { O: 'y' },
  },
  {
    name: 'Fn::Select out of range on a parameter value is refused at the call',
    source: 'cfn/test_change_set_fn_select.py::test_invalid_select_index_type',
    template: withOutputs({ O: { 'Fn::Select': [100, { Ref: 'L' }] } }, list('x')),
    error: 'Template error: Fn::Select requires a list argument with two elements: an integer index and a list',
  },
  {
    name: 'Fn::Select out of range over Fn::GetAZs fails the resource with the index',
    source:
      'CloudFormation events of subnets over short zone lists (`Template error: Fn::Select cannot select nonexistent value at index 3`)',
    template: {
      Resources: {
        Topic: {
          Type: 'AWS::SNS::Topic',
          Properties: { DisplayName: { 'Fn::Select': [3, { 'Fn::GetAZs': 'eu-west-1' }] } },
        },
      },
    },
    failed: 'Template error: Fn::Select cannot select nonexistent value at index 3',
  },
  {
    name: 'Fn::Select out of range over a resource attribute fails the resource with the index',
    source: 'CloudFormation events (`!Select [0, !GetAtt VPC.Ipv6CidrBlocks]` before the block exists)',
    template: {
      Resources: {
        Topic: { Type: 'AWS::SNS::Topic' },
        Other: {
          Type: 'AWS::SNS::Topic',
          Properties: { DisplayName: { 'Fn::Select': [9, { 'Fn::Split': [':', { Ref: 'Topic' }] }] } },
        },
      },
    },
    failed: 'Template error: Fn::Select cannot select nonexistent value at index 9',
  },
  {
    name: 'Fn::Select with a non-integer index is refused',
    source: 'test_invalid_select_index_type',
    template: withOutputs({ O: { 'Fn::Select': ['one', ['a']] } }),
    error: 'Template error: Fn::Select requires a list argument with two elements: an integer index and a list',
  },
  {
    name: 'Fn::Select over Fn::Split of a resource attribute waits for execution',
    source: 'test_fn_split_with_get_att',
    template: withOutputs({ O: { 'Fn::Select': [5, { 'Fn::Split': [':', { Ref: 'Topic' }] }] } }),
    outputs: { O: /^conf-\d+-Topic-/ },
  },
  {
    name: 'Fn::Base64 encodes UTF-8',
    source: DOC('base64'),
    template: withOutputs({ O: { 'Fn::Base64': 'AWS CloudFormation' } }),
    outputs: { O: 'QVdTIENsb3VkRm9ybWF0aW9u' },
  },
  {
    name: 'Fn::Base64 of Fn::Sub',
    source: DOC('base64'),
    template: withOutputs({ O: { 'Fn::Base64': { 'Fn::Sub': 'r=${AWS::Region}' } } }),
    outputs: { O: Buffer.from('r=us-east-1').toString('base64') },
  },
  {
    name: 'Fn::Length of a list (AWS::LanguageExtensions)',
    source: DOC('length'),
    template: withOutputs({ O: { 'Fn::Length': { Ref: 'L' } } }, { ...LE, ...list('a,b,c') }),
    outputs: { O: '3' },
  },
  {
    name: 'Fn::Length without the transform is an unsupported function',
    source: DOC('length'),
    template: withOutputs({ O: { 'Fn::Length': [1, 2] } }),
    error:
      /^Template format error: Encountered unsupported function: Fn::Length Supported functions are: \[Fn::Base64, /,
  },
  {
    name: 'Fn::ToJsonString of an object (AWS::LanguageExtensions)',
    source: DOC('ToJsonString'),
    template: withOutputs({ O: { 'Fn::ToJsonString': { key: 'v', r: { Ref: 'AWS::Region' } } } }, LE),
    outputs: { O: '{"key":"v","r":"us-east-1"}' },
  },
  {
    name: 'Fn::ToJsonString of a list',
    source: DOC('ToJsonString'),
    template: withOutputs({ O: { 'Fn::ToJsonString': ['a', { 'Fn::Split': [',', 'b,c'] }] } }, LE),
    outputs: { O: '["a",["b","c"]]' },
  },
  {
    name: 'An unknown function is refused with the supported list',
    source: DOC('reference'),
    template: withOutputs({ O: { 'Fn::Upper': 'a' } }),
    error: /^Template format error: Encountered unsupported function: Fn::Upper Supported functions are: \[.*Fn::Cidr/,
  },
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('strings: Fn::Join, Fn::Split, Fn::Select, Fn::Base64, Fn::Length, Fn::ToJsonString', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => check(server.client, c));
});
