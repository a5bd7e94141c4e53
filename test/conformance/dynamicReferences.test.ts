// Conformance: dynamic references resolved from the simulated account: SSM parameters and Secrets Manager
// secrets created by other stacks (or put into the world out of band).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { check, deploy, type Case } from './harness.js';

const DOC = 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/dynamic-references.html';

/** A stack whose resource echoes a value through GetAtt, so the resolved value shows in Outputs. */
const echo = (value: unknown) => ({
  Resources: { Echo: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: value } } },
  Outputs: { O: { Value: { 'Fn::GetAtt': ['Echo', 'Value'] } } },
});

const CASES: Case[] = [
  {
    name: '{{resolve:ssm:name}} reads the parameter',
    source: DOC,
    template: echo('{{resolve:ssm:/dyn/plain}}'),
    outputs: { O: 'hello' },
  },
  {
    name: 'a reference inside a longer string, with a version',
    source: DOC,
    template: echo('pre-{{resolve:ssm:/dyn/plain:1}}-post'),
    outputs: { O: 'pre-hello-post' },
  },
  {
    name: 'a reference assembled by Fn::Sub',
    source: DOC,
    template: {
      ...echo({ 'Fn::Sub': '{{resolve:ssm:/dyn/${Leaf}}}' }),
      Parameters: { Leaf: { Type: 'String', Default: 'plain' } },
    },
    outputs: { O: 'hello' },
  },
  {
    name: '{{resolve:ssm-secure:name}}',
    source: DOC,
    template: echo('{{resolve:ssm-secure:/dyn/plain}}'),
    outputs: { O: 'hello' },
  },
  {
    name: '{{resolve:secretsmanager:id}} is the whole SecretString',
    source: DOC,
    template: echo('{{resolve:secretsmanager:dyn-secret}}'),
    outputs: { O: '{"user":"admin","pass":"pw"}' },
  },
  {
    name: '{{resolve:secretsmanager:id:SecretString:key}} reads one JSON key',
    source: DOC,
    template: echo('{{resolve:secretsmanager:dyn-secret:SecretString:user}}'),
    outputs: { O: 'admin' },
  },
  {
    name: 'a generated secret of the same stack, referenced by ARN through Fn::Sub',
    source: DOC,
    template: {
      Resources: {
        Secret: {
          Type: 'AWS::SecretsManager::Secret',
          Properties: {
            GenerateSecretString: {
              SecretStringTemplate: '{"username":"admin"}',
              GenerateStringKey: 'password',
              PasswordLength: 20,
              ExcludePunctuation: true,
            },
          },
        },
        User: {
          Type: 'AWS::SSM::Parameter',
          Properties: {
            Type: 'String',
            Value: { 'Fn::Sub': '{{resolve:secretsmanager:${Secret}:SecretString:username}}' },
          },
        },
        Pass: {
          Type: 'AWS::SSM::Parameter',
          Properties: {
            Type: 'String',
            Value: { 'Fn::Sub': '{{resolve:secretsmanager:${Secret}:SecretString:password}}' },
          },
        },
      },
      Outputs: { U: { Value: { 'Fn::GetAtt': ['User', 'Value'] } }, P: { Value: { 'Fn::GetAtt': ['Pass', 'Value'] } } },
    },
    outputs: { U: 'admin', P: /^[A-Za-z0-9]{20}$/ },
  },
  {
    name: 'a missing SSM parameter refuses the call',
    source: 'aws-samples/data-mesh-datazone-cdk-cloudformation#19 (ValidationError text)',
    template: echo('{{resolve:ssm:/dyn/missing}}'),
    error: 'Parameters: [ssm:/dyn/missing] cannot be found.',
  },
  {
    name: 'a missing secret fails the resource at execution',
    source: DOC,
    template: echo('{{resolve:secretsmanager:no-such-secret}}'),
    failed: "Secrets Manager can't find the specified secret.",
  },
  {
    name: 'a missing JSON key fails the resource',
    source: DOC,
    template: echo('{{resolve:secretsmanager:dyn-secret:SecretString:nokey}}'),
    failed: 'Could not find SecretString JSON key nokey',
  },
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  const world = await deploy(
    server.client,
    {
      Resources: {
        Plain: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/dyn/plain', Type: 'String', Value: 'hello' } },
        Secret: {
          Type: 'AWS::SecretsManager::Secret',
          Properties: { Name: 'dyn-secret', SecretString: '{"user":"admin","pass":"pw"}' },
        },
      },
    },
    {},
    { stackName: 'dynamic-world' },
  );
  expect(world.status, world.reason).toBe('CREATE_COMPLETE');
});
afterAll(async () => {
  await server.close();
});

describe('dynamic references', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => check(server.client, c));
});
