import { describe, it, expect } from 'vitest';
import {
  ContinueUpdateRollbackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  GetTemplateSummaryCommand,
  GetTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import { encodeResult, escapeXml } from '../../../server/protocol/index.js';
import { fakeClient } from './fakeSdk.js';

const CREATED = new Date('2026-11-30T09:25:41.123Z');

const STACK = {
  StackId: 'arn:aws:cloudformation:eu-west-3:000000000000:stack/demo/0b6c7a0e-1f3a-4c53-9d2e-5f0a8c2e9b11',
  StackName: 'demo',
  Description: 'a <demo> & "quoted" \'stack\'',
  Parameters: [
    { ParameterKey: 'Env', ParameterValue: 'prod' },
    { ParameterKey: 'Size', ParameterValue: '3' },
  ],
  CreationTime: CREATED,
  LastUpdatedTime: new Date('2026-11-30T09:30:00.000Z'),
  StackStatus: 'CREATE_COMPLETE',
  DisableRollback: false,
  EnableTerminationProtection: true,
  NotificationARNs: [],
  TimeoutInMinutes: 30,
  Capabilities: ['CAPABILITY_IAM'],
  Outputs: [{ OutputKey: 'Url', OutputValue: 'https://example.com/?a=1&b=2', ExportName: 'demo-url' }],
  Tags: [{ Key: 'team', Value: 'core' }],
  DriftInformation: { StackDriftStatus: 'NOT_CHECKED' },
  NotInTheModel: 'dropped',
};

function serve(action: string, output: Record<string, unknown> | undefined) {
  // The SDK takes $metadata.requestId from the x-amzn-RequestId header, not from the body.
  const headers = { 'content-type': 'text/xml', 'x-amzn-requestid': 'req-1' };
  return fakeClient(() => ({ statusCode: 200, headers, body: encodeResult(action, output, 'req-1') }));
}

describe('encodeResult', () => {
  it('DescribeStacks output is read back by the AWS SDK with types intact', async () => {
    const { client } = serve('DescribeStacks', { Stacks: [STACK] });
    const res = await client.send(new DescribeStacksCommand({}));
    const stack = res.Stacks![0];
    expect(res.$metadata.httpStatusCode).toBe(200);
    expect(stack.CreationTime).toBeInstanceOf(Date);
    expect(stack.CreationTime!.toISOString()).toBe('2026-11-30T09:25:41.123Z');
    expect(stack.DisableRollback).toBe(false);
    expect(stack.EnableTerminationProtection).toBe(true);
    expect(stack.TimeoutInMinutes).toBe(30);
    expect(stack.NotificationARNs).toEqual([]);
    expect(stack.Capabilities).toEqual(['CAPABILITY_IAM']);
    expect(stack.Parameters).toEqual(STACK.Parameters);
    expect(stack.Outputs).toEqual(STACK.Outputs);
    expect(stack.Tags).toEqual(STACK.Tags);
    expect(stack.Description).toBe(STACK.Description);
    expect(stack.DriftInformation).toEqual({ StackDriftStatus: 'NOT_CHECKED' });
    expect(stack).not.toHaveProperty('NotInTheModel');
  });

  it('writes members in model order, timestamps with milliseconds and empty lists as empty elements', () => {
    const xml = encodeResult('DescribeStacks', { Stacks: [STACK], NextToken: 't' }, 'req-1');
    expect(xml.startsWith('<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">')).toBe(
      true,
    );
    expect(xml).toContain('<CreationTime>2026-11-30T09:25:41.123Z</CreationTime>');
    expect(xml).toContain('<NotificationARNs/>');
    expect(xml.indexOf('<StackId>')).toBeLessThan(xml.indexOf('<StackName>'));
    expect(xml.indexOf('</Stacks>')).toBeLessThan(xml.indexOf('<NextToken>'));
    expect(xml).toContain('<ResponseMetadata><RequestId>req-1</RequestId></ResponseMetadata></DescribeStacksResponse>');
  });

  it('maps are read back as objects', async () => {
    const { client } = serve('GetTemplateSummary', {
      Parameters: [],
      ResourceIdentifierSummaries: [
        { ResourceType: 'AWS::S3::Bucket', LogicalResourceIds: ['B'], ResourceIdentifiers: ['BucketName'] },
      ],
      Warnings: { UnrecognizedResourceTypes: [] },
    });
    const res = await client.send(new GetTemplateSummaryCommand({ TemplateBody: '{}' }));
    expect(res.Parameters).toEqual([]);
    expect(res.ResourceIdentifierSummaries![0].LogicalResourceIds).toEqual(['B']);
    expect(res.Warnings).toEqual({ UnrecognizedResourceTypes: [] });
  });

  it('a template body with CRLF, tabs, unicode and control characters survives the round trip', async () => {
    const body = 'Resources:\r\n\tB: {"Type": "AWS::S3::Bucket"} # é 😀 <x> &amp;';
    const { client } = serve('GetTemplate', {
      TemplateBody: body + '\u0001\uFFFF\uD800',
      StagesAvailable: ['Original'],
    });
    const res = await client.send(new GetTemplateCommand({ StackName: 'demo' }));
    expect(res.TemplateBody).toBe(body + '\uFFFD\uFFFD\uFFFD');
    expect(res.StagesAvailable).toEqual(['Original']);
  });

  it('DeleteStack (Unit output) carries only ResponseMetadata', async () => {
    const xml = encodeResult('DeleteStack', undefined, 'req-2');
    expect(xml).toBe(
      '<DeleteStackResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">' +
        '<ResponseMetadata><RequestId>req-2</RequestId></ResponseMetadata></DeleteStackResponse>',
    );
    const { client } = serve('DeleteStack', undefined);
    const res = await client.send(new DeleteStackCommand({ StackName: 'demo' }));
    expect(res.$metadata.requestId).toBe('req-1');
  });

  it('an empty output structure gets an empty Result element', async () => {
    expect(encodeResult('ContinueUpdateRollback', {}, 'r')).toContain(
      '<ContinueUpdateRollbackResult/><ResponseMetadata>',
    );
    const { client } = serve('ContinueUpdateRollback', {});
    const res = await client.send(new ContinueUpdateRollbackCommand({ StackName: 'demo' }));
    expect(res.$metadata.httpStatusCode).toBe(200);
  });

  it('escapes markup and replaces characters XML 1.0 cannot carry', () => {
    expect(escapeXml('plain')).toBe('plain');
    expect(escapeXml(`a&b<c>d"e'f\rg`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f&#xD;g');
    expect(escapeXml('\u0000x\u001Fy\uDC00')).toBe('\uFFFDx\uFFFDy\uFFFD');
    expect(escapeXml('😀\t\n')).toBe('😀\t\n');
  });
});
