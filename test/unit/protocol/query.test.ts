import { describe, it, expect } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  CreateStackInstancesCommand,
  DescribeStacksCommand,
  ListStacksCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { AwsError } from '../../../domain/errors.js';
import { decodeInput, decodeQueryBody, decodeQueryShape, encodeResult } from '../../../server/protocol/index.js';
import { fakeClient, type CapturedRequest } from './fakeSdk.js';

/** Sends one command through the real SDK and returns the request body it produced. */
async function sdkBody(
  send: (client: ReturnType<typeof fakeClient>['client']) => Promise<unknown>,
): Promise<CapturedRequest> {
  const { client, requests } = fakeClient((req) => {
    const action = decodeQueryBody(req.body).Action;
    return { statusCode: 200, body: encodeResult(action, {}, 'r') };
  });
  await send(client);
  return requests[0];
}

function thrown(fn: () => unknown): AwsError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AwsError) return err;
    throw err;
  }
  throw new Error('expected an AwsError');
}

describe('decodeQueryBody', () => {
  it('decodes + as space and percent-escapes, keeps empty values', () => {
    expect({ ...decodeQueryBody('Action=CreateStack&StackName=a+b%2Bc&Tags=&Flag') }).toEqual({
      Action: 'CreateStack',
      StackName: 'a b+c',
      Tags: '',
      Flag: '',
    });
    expect({ ...decodeQueryBody('') }).toEqual({});
    expect({ ...decodeQueryBody('x=%E2%9C%93&&y=1') }).toEqual({ x: '✓', y: '1' });
  });

  it('returns ValidationError for a malformed percent-escape', () => {
    const err = thrown(() => decodeQueryBody('StackName=%E2%ZZ'));
    expect(err.code).toBe('ValidationError');
    expect(err.status).toBe(400);
  });
});

describe('decodeInput', () => {
  it('CreateStack sent by the AWS SDK decodes to the same nested input', async () => {
    const input = {
      StackName: 'demo',
      TemplateBody: '{"Resources": {"B": {"Type": "AWS::S3::Bucket"}}}\n# ünïcödé & = + %',
      Parameters: [
        { ParameterKey: 'Env', ParameterValue: 'prod' },
        { ParameterKey: 'Old', UsePreviousValue: true },
      ],
      Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_AUTO_EXPAND'] as ('CAPABILITY_IAM' | 'CAPABILITY_AUTO_EXPAND')[],
      Tags: [{ Key: 'team', Value: 'core' }],
      NotificationARNs: [],
      TimeoutInMinutes: 15,
      DisableRollback: false,
      RollbackConfiguration: {
        MonitoringTimeInMinutes: 5,
        RollbackTriggers: [{ Arn: 'arn:x', Type: 'AWS::CloudWatch::Alarm' }],
      },
    };
    const req = await sdkBody((c) => c.send(new CreateStackCommand(input)));
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.headers.authorization).toContain('Credential=AKIDEXAMPLE/');
    const params = decodeQueryBody(req.body);
    expect(params.Action).toBe('CreateStack');
    expect(params.Version).toBe('2010-05-15');
    expect(params.NotificationARNs).toBe('');
    expect(decodeInput('CreateStack', params)).toEqual(input);
  });

  it('a map sent by the AWS SDK decodes to an object, in entry order', async () => {
    const input = {
      StackName: 's',
      ChangeSetName: 'c',
      ChangeSetType: 'IMPORT' as const,
      ResourcesToImport: [
        {
          ResourceType: 'AWS::S3::Bucket',
          LogicalResourceId: 'B',
          ResourceIdentifier: { BucketName: 'my-bucket', Other: 'x' },
        },
      ],
    };
    const req = await sdkBody((c) => c.send(new CreateChangeSetCommand(input)));
    expect(req.body).toContain('ResourcesToImport.member.1.ResourceIdentifier.entry.1.key=BucketName');
    const decoded = decodeInput('CreateChangeSet', decodeQueryBody(req.body));
    expect(decoded).toEqual(input);
    const reordered = decodeInput('CreateChangeSet', {
      StackName: 's',
      ChangeSetName: 'c',
      'ResourcesToImport.member.1.ResourceType': 'AWS::S3::Bucket',
      'ResourcesToImport.member.1.LogicalResourceId': 'B',
      'ResourcesToImport.member.1.ResourceIdentifier.entry.2.key': 'Second',
      'ResourcesToImport.member.1.ResourceIdentifier.entry.2.value': '2',
      'ResourcesToImport.member.1.ResourceIdentifier.entry.1.key': 'First',
      'ResourcesToImport.member.1.ResourceIdentifier.entry.1.value': '1',
    });
    const identifier = (reordered.ResourcesToImport as { ResourceIdentifier: Record<string, string> }[])[0]
      .ResourceIdentifier;
    expect(Object.entries(identifier)).toEqual([
      ['First', '1'],
      ['Second', '2'],
    ]);
  });

  it('an idempotency token the SDK generates arrives as a string', async () => {
    const req = await sdkBody((c) =>
      c.send(
        new CreateStackInstancesCommand({
          StackSetName: 'set',
          Regions: ['eu-west-3'],
          DeploymentTargets: { Accounts: ['111111111111'] },
        }),
      ),
    );
    const { OperationId, ...rest } = decodeInput('CreateStackInstances', decodeQueryBody(req.body));
    expect(OperationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(rest).toEqual({
      StackSetName: 'set',
      Regions: ['eu-west-3'],
      DeploymentTargets: { Accounts: ['111111111111'] },
    });
  });

  it('orders list members by N and ignores gaps and unknown parameters', () => {
    const input = decodeInput('ListStacks', {
      Action: 'ListStacks',
      Version: '2010-05-15',
      'StackStatusFilter.member.10': 'C',
      'StackStatusFilter.member.2': 'B',
      'StackStatusFilter.member.1': 'A',
      'StackStatusFilter.member.x': 'junk',
      Bogus: '1',
    });
    expect(input).toEqual({ StackStatusFilter: ['A', 'B', 'C'] });
  });

  // No CloudFormation input carries a timestamp or a double today; ResourceScanSummary has both.
  it('decodes timestamps in ISO 8601 and epoch seconds, and doubles', () => {
    const scan = decodeQueryShape('ResourceScanSummary', {
      StartTime: '2026-11-30T09:25:41.123Z',
      EndTime: '1795944341.5',
      PercentageCompleted: '42.5',
    });
    expect(scan).toEqual({
      StartTime: new Date('2026-11-30T09:25:41.123Z'),
      EndTime: new Date(1795944341500),
      PercentageCompleted: 42.5,
    });
    const err = thrown(() =>
      decodeQueryShape('ResourceScanSummary', { StartTime: 'yesterday', PercentageCompleted: 'x' }),
    );
    expect(err.message).toMatch(
      /^2 validation errors detected: Value 'yesterday' at 'startTime' failed to satisfy constraint: /,
    );
    expect(decodeInput('ActivateType', { MajorVersion: '3' })).toEqual({ MajorVersion: 3 });
  });

  it('returns ValidationError in AWS style for a non-numeric integer', () => {
    const err = thrown(() => decodeInput('CreateStack', { StackName: 's', TimeoutInMinutes: 'abc' }));
    expect(err.code).toBe('ValidationError');
    expect(err.message).toBe(
      "1 validation error detected: Value 'abc' at 'timeoutInMinutes' failed to satisfy constraint: Member must be a number",
    );
  });

  it('returns ValidationError for a boolean other than true/false and counts every problem', () => {
    const err = thrown(() =>
      decodeInput('CreateStack', {
        DisableRollback: 'yes',
        'Tags.member.1.Key': 'k',
        'RollbackConfiguration.MonitoringTimeInMinutes': '1.5',
      }),
    );
    expect(err.message).toBe(
      '4 validation errors detected: ' +
        "Value null at 'stackName' failed to satisfy constraint: Member must not be null; " +
        "Value 'yes' at 'disableRollback' failed to satisfy constraint: Member must be a boolean; " +
        "Value '1.5' at 'rollbackConfiguration.monitoringTimeInMinutes' failed to satisfy constraint: Member must be a number; " +
        "Value null at 'tags.1.member.value' failed to satisfy constraint: Member must not be null",
    );
  });

  it('returns InvalidAction for an Action the model does not have', () => {
    const err = thrown(() => decodeInput('DescribeStackz', {}));
    expect(err.code).toBe('InvalidAction');
    expect(err.message).toBe('Could not find operation DescribeStackz for version 2010-05-15');
  });

  it('an SDK request without input decodes to {}', async () => {
    const req = await sdkBody((c) => c.send(new DescribeStacksCommand({})));
    expect(req.body).toBe('Action=DescribeStacks&Version=2010-05-15');
    expect(decodeInput('DescribeStacks', decodeQueryBody(req.body))).toEqual({});
    const list = await sdkBody((c) => c.send(new ListStacksCommand({ StackStatusFilter: [] })));
    expect(decodeInput('ListStacks', decodeQueryBody(list.body))).toEqual({ StackStatusFilter: [] });
  });

  it('UpdateStack booleans and empty lists survive the SDK round trip', async () => {
    const input = {
      StackName: 's',
      UsePreviousTemplate: true,
      Capabilities: [],
      Tags: [],
      RetainExceptOnCreate: false,
    };
    const req = await sdkBody((c) => c.send(new UpdateStackCommand(input)));
    expect(decodeInput('UpdateStack', decodeQueryBody(req.body))).toEqual(input);
  });
});
