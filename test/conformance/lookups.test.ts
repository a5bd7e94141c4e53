// Conformance: Fn::FindInMap (with the LanguageExtensions DefaultValue), Fn::GetAZs, Fn::Cidr.
import { describe, it, beforeAll, afterAll } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { check, withOutputs, type Case } from './harness.js';

const DOC = (fn: string) =>
  `https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-${fn}.html`;
const MAPPINGS = {
  Mappings: {
    RegionMap: {
      'us-east-1': { HVM64: 'ami-0ff8a91507f77f867', Zones: ['a', 'b'] },
      'us-west-1': { HVM64: 'ami-0bdb828fd58c52235' },
    },
    TopicSuffixMap: { A: { Suffix: 'a' }, B: { Suffix: 'b' } },
  },
};

const CASES: Case[] = [
  {
    name: 'Fn::FindInMap by AWS::Region',
    source: DOC('findinmap'),
    template: withOutputs({ O: { 'Fn::FindInMap': ['RegionMap', { Ref: 'AWS::Region' }, 'HVM64'] } }, MAPPINGS),
    outputs: { O: 'ami-0ff8a91507f77f867' },
  },
  {
    name: 'Fn::FindInMap of a list value',
    source: DOC('findinmap'),
    template: withOutputs(
      { O: { 'Fn::Join': ['+', { 'Fn::FindInMap': ['RegionMap', 'us-east-1', 'Zones'] }] } },
      MAPPINGS,
    ),
    outputs: { O: 'a+b' },
  },
  {
    name: 'Fn::FindInMap with a missing top-level key is refused at the call',
    source: 'cfn/engine/test_mappings.py::test_mapping_with_nonexisting_key',
    template: withOutputs({ O: { 'Fn::FindInMap': ['TopicSuffixMap', 'C', 'Suffix'] } }, MAPPINGS),
    error: 'Template error: Unable to get mapping for TopicSuffixMap::C::Suffix',
  },
  {
    name: 'Fn::FindInMap with a missing second-level key is refused at the call',
    source: 'test_async_mapping_error_second_level_v2',
    template: withOutputs({ O: { 'Fn::FindInMap': ['TopicSuffixMap', 'A', 'NotValid'] } }, MAPPINGS),
    error: 'Template error: Unable to get mapping for TopicSuffixMap::A::NotValid',
  },
  {
    name: 'Fn::FindInMap DefaultValue (AWS::LanguageExtensions)',
    source: DOC('findinmap'),
    template: withOutputs(
      { O: { 'Fn::FindInMap': ['TopicSuffixMap', 'C', 'Suffix', { DefaultValue: 'fallback' }] } },
      { ...MAPPINGS, Transform: 'AWS::LanguageExtensions' },
    ),
    outputs: { O: 'fallback' },
  },
  {
    name: 'Fn::FindInMap DefaultValue without the transform is refused',
    source: DOC('findinmap'),
    template: withOutputs(
      { O: { 'Fn::FindInMap': ['TopicSuffixMap', 'C', 'Suffix', { DefaultValue: 'x' }] } },
      MAPPINGS,
    ),
    error:
      'Template error: every Fn::FindInMap object requires three parameters, the map name, map key and the attribute for return value',
  },
  {
    name: 'A mapping value that is an object is refused',
    source: 'test_mapping_maximum_nesting_depth',
    template: withOutputs({}, { Mappings: { M: { A: { B: { C: 'd' } } } } }),
    error: 'Template format error: Every Mappings attribute must be a String or a List.',
  },
  {
    name: 'A mapping member that is not a map is refused',
    source: 'test_mapping_minimum_nesting_depth',
    template: withOutputs({}, { Mappings: { A: 'x' } }),
    error: 'Template format error: Every Mappings member A must be a map',
  },
  {
    name: "Fn::GetAZs '' lists the stack region's zones",
    source: DOC('getavailabilityzones'),
    template: withOutputs({ O: { 'Fn::Join': [',', { 'Fn::GetAZs': '' }] } }),
    outputs: { O: 'us-east-1a,us-east-1b,us-east-1c,us-east-1d,us-east-1e,us-east-1f' },
  },
  {
    name: 'Fn::GetAZs of Ref AWS::Region',
    source: DOC('getavailabilityzones'),
    template: withOutputs({ O: { 'Fn::Select': [0, { 'Fn::GetAZs': { Ref: 'AWS::Region' } }] } }),
    outputs: { O: 'us-east-1a' },
  },
  {
    name: 'Fn::Cidr splits an IPv4 block (documentation example)',
    source: DOC('cidr'),
    template: withOutputs({ O: { 'Fn::Join': [',', { 'Fn::Cidr': ['192.168.0.0/24', 6, 5] }] } }),
    outputs: { O: '192.168.0.0/27,192.168.0.32/27,192.168.0.64/27,192.168.0.96/27,192.168.0.128/27,192.168.0.160/27' },
  },
  {
    name: 'Fn::Cidr with string count and bits',
    source: DOC('cidr'),
    template: withOutputs({ O: { 'Fn::Select': [3, { 'Fn::Cidr': ['10.0.0.0/16', '4', '8'] }] } }),
    outputs: { O: '10.0.3.0/24' },
  },
  {
    name: 'Fn::Cidr splits an IPv6 block into /64s',
    source: DOC('cidr'),
    template: withOutputs({ O: { 'Fn::Join': [',', { 'Fn::Cidr': ['2001:db8:1234:1a00::/56', 2, 64] }] } }),
    outputs: { O: '2001:db8:1234:1a00::/64,2001:db8:1234:1a01::/64' },
  },
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('lookups: Fn::FindInMap, Fn::GetAZs, Fn::Cidr', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => check(server.client, c));
});
