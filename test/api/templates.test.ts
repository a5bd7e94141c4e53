// GetTemplate, ValidateTemplate and GetTemplateSummary through the SDK against a live server.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  GetTemplateCommand,
  GetTemplateSummaryCommand,
  ValidateTemplateCommand,
  CreateChangeSetCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { deploy } from '../conformance/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const send = <T>(command: T) => server.client.send(command as never) as unknown as Promise<Record<string, unknown>>;

describe('ValidateTemplate', () => {
  it('returns just Parameters for a template with one described parameter (test_validate_template)', async () => {
    const body = JSON.stringify({
      Parameters: { KeyExample: { Type: 'String', Description: 'The EC2 Key Pair' } },
      Resources: { T: { Type: 'AWS::SNS::Topic' } },
    });
    const out = await send(new ValidateTemplateCommand({ TemplateBody: body }));
    expect(out.Parameters).toEqual([{ ParameterKey: 'KeyExample', NoEcho: false, Description: 'The EC2 Key Pair' }]);
    expect(out.Description).toBeUndefined();
    expect(out.Capabilities).toBeUndefined();
    expect(out.DeclaredTransforms).toBeUndefined();
  });

  it('returns Description, DefaultValue, NoEcho, Capabilities and CapabilitiesReason', async () => {
    const body = `Description: with IAM
Parameters:
  Pass: { Type: String, NoEcho: true, Default: x }
Resources:
  Role:
    Type: AWS::IAM::Role
    Properties: { RoleName: fixed, AssumeRolePolicyDocument: {} }
`;
    const out = await send(new ValidateTemplateCommand({ TemplateBody: body }));
    expect(out).toMatchObject({
      Description: 'with IAM',
      Parameters: [{ ParameterKey: 'Pass', DefaultValue: 'x', NoEcho: true }],
      Capabilities: ['CAPABILITY_NAMED_IAM'],
      CapabilitiesReason: 'The following resource(s) require capabilities: [AWS::IAM::Role]',
    });
  });

  it('returns DeclaredTransforms and CAPABILITY_AUTO_EXPAND for AWS::LanguageExtensions, expanding loops with defaults', async () => {
    const body = JSON.stringify({
      Transform: 'AWS::LanguageExtensions',
      Parameters: { Names: { Type: 'CommaDelimitedList', Default: 'a,b' } },
      Resources: { 'Fn::ForEach::T': ['N', { Ref: 'Names' }, { 'T${N}': { Type: 'AWS::SNS::Topic' } }] },
    });
    const out = await send(new ValidateTemplateCommand({ TemplateBody: body }));
    expect(out.DeclaredTransforms).toEqual(['AWS::LanguageExtensions']);
    expect(out.Capabilities).toEqual(['CAPABILITY_AUTO_EXPAND']);
  });

  it.each([
    ['{}', 'Template format error: At least one Resources member must be defined.'],
    [
      '{"Resources": {"T": {"Type": "AWS::SNS::Topic", "Properties": {"TopicName": {"Ref": "Nope"}}}}}',
      'Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template',
    ],
    [
      '{"Resources": {"T": {"Type": "AWS::SNS::Topic", "Properties": {"TopicName": {"Fn::Nope": 1}}}}}',
      /^Template format error: Encountered unsupported function: Fn::Nope/,
    ],
    [
      '{"Resources": {"T": {"Type": "AWS::Nope::Nope"}}}',
      'Template format error: Unrecognized resource types: [AWS::Nope::Nope]',
    ],
  ])('returns ValidationError for %s', async (body, message) => {
    const err = await send(new ValidateTemplateCommand({ TemplateBody: body })).catch((e: Error) => e);
    expect((err as Error).name).toBe('ValidationError');
    if (typeof message === 'string') expect((err as Error).message).toBe(message);
    else expect((err as Error).message).toMatch(message);
  });
});

describe('GetTemplateSummary', () => {
  const body = JSON.stringify({
    Description: 'summary',
    Metadata: { TopicName: 'sns-topic-simple' },
    Parameters: { Env: { Type: 'String', Default: 'dev', AllowedValues: ['dev', 'prod'], Description: 'the env' } },
    Resources: {
      P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'v' } },
      Q: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'w' } },
    },
  });

  it('describes a template body with ResourceIdentifierSummaries, Version and Metadata', async () => {
    const out = await send(new GetTemplateSummaryCommand({ TemplateBody: body }));
    expect(out).toMatchObject({
      Description: 'summary',
      Parameters: [
        {
          ParameterKey: 'Env',
          DefaultValue: 'dev',
          NoEcho: false,
          ParameterType: 'String',
          ParameterConstraints: { AllowedValues: ['dev', 'prod'] },
          Description: 'the env',
        },
      ],
      ResourceTypes: ['AWS::SSM::Parameter'],
      ResourceIdentifierSummaries: [
        { ResourceType: 'AWS::SSM::Parameter', LogicalResourceIds: ['P', 'Q'], ResourceIdentifiers: ['Name'] },
      ],
      Version: '2010-09-09',
    });
    expect(JSON.parse(out.Metadata as string)).toEqual({ TopicName: 'sns-topic-simple' });
  });

  it('describes an existing stack by name', async () => {
    const r = await deploy(server.client, body, {}, { stackName: 'summary-stack' });
    expect(r.status).toBe('CREATE_COMPLETE');
    const out = await send(new GetTemplateSummaryCommand({ StackName: 'summary-stack' }));
    expect(out.ResourceTypes).toEqual(['AWS::SSM::Parameter']);
  });

  it('returns ValidationError for a REVIEW_IN_PROGRESS stack', async () => {
    await send(
      new CreateChangeSetCommand({
        StackName: 'summary-review',
        ChangeSetName: 'cs',
        ChangeSetType: 'CREATE',
        TemplateBody: body,
      }),
    );
    await expect(send(new GetTemplateSummaryCommand({ StackName: 'summary-review' }))).rejects.toThrow(
      'GetTemplateSummary cannot be called on REVIEW_IN_PROGRESS stacks.',
    );
  });

  it('returns ValidationError "At least one Resources member" for "{}"', async () => {
    await expect(send(new GetTemplateSummaryCommand({ TemplateBody: '{}' }))).rejects.toThrow(
      'Template format error: At least one Resources member must be defined.',
    );
  });
});

describe('GetTemplate', () => {
  it('returns the body as submitted (YAML stays YAML) and the same body as Processed without a transform', async () => {
    const yaml = 'Resources:\n  T:    # spacing kept\n    Type: AWS::SNS::Topic\n';
    const r = await deploy(server.client, yaml, {}, { stackName: 'get-template' });
    expect(r.status).toBe('CREATE_COMPLETE');
    const original = await send(new GetTemplateCommand({ StackName: 'get-template' }));
    expect(original).toMatchObject({ TemplateBody: yaml, StagesAvailable: ['Original', 'Processed'] });
    const processed = await send(new GetTemplateCommand({ StackName: 'get-template', TemplateStage: 'Processed' }));
    expect(processed.TemplateBody).toBe(yaml);
  });
});
