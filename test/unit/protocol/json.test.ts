// The awsJson 1.0 door: CloudFormation's model is awsQuery only, but SDK v3 clients accept a
// `protocol` option, and AwsJson1_0Protocol then sends `X-Amz-Target: CloudFormation.<Action>`.
import { describe, it, expect } from 'vitest';
import {
  ChangeSetNotFoundException,
  type CloudFormationServiceException,
  CreateStackCommand,
  DescribeChangeSetCommand,
  DescribeStacksCommand,
  errorTypeRegistries,
} from '@aws-sdk/client-cloudformation';
import { AwsJson1_0Protocol } from '@aws-sdk/core/protocols';
import { awsError, validationError, type AwsError } from '../../../domain/errors.js';
import {
  actionFromTarget,
  decodeJsonInput,
  encodeJsonError,
  encodeJsonResult,
} from '../../../server/protocol/index.js';
import { fakeClient, type CannedResponse, type CapturedRequest } from './fakeSdk.js';
import { thrownBy } from '../../helpers/errors.js';

function jsonClient(reply: (req: CapturedRequest) => CannedResponse, awsQueryCompatible: boolean) {
  const protocolSettings = {
    defaultNamespace: 'com.amazonaws.cloudformation',
    serviceTarget: 'CloudFormation',
    errorTypeRegistries,
    awsQueryCompatible,
  };
  // protocolSettings is not in the client's public config type; the Client constructor reads it.
  return fakeClient(reply, { protocol: AwsJson1_0Protocol, protocolSettings } as never);
}

const ok = (action: string, output: Record<string, unknown>): CannedResponse => ({
  statusCode: 200,
  headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'r' },
  body: encodeJsonResult(action, output),
});

function failing(err: AwsError): CannedResponse {
  const { status, headers, body } = encodeJsonError(err);
  return { statusCode: status, headers, body };
}

const caught = (promise: Promise<unknown>) => thrownBy<CloudFormationServiceException>(promise);

describe('awsJson 1.0', () => {
  it('reads the Action from X-Amz-Target', () => {
    expect(actionFromTarget('CloudFormation.CreateStack')).toBe('CreateStack');
    expect(actionFromTarget('DynamoDB_20120810.PutItem')).toBeUndefined();
    expect(actionFromTarget(undefined)).toBeUndefined();
  });

  it.each([false, true])(
    'CreateStack sent as JSON decodes to the same input (query-compatible: %s)',
    async (compat) => {
      const input = {
        StackName: 'demo',
        TemplateBody: '{}',
        Parameters: [{ ParameterKey: 'Env', ParameterValue: 'prod' }],
        Capabilities: ['CAPABILITY_IAM' as const],
        Tags: [{ Key: 'team', Value: 'core' }],
        TimeoutInMinutes: 5,
        DisableRollback: true,
      };
      const { client, requests } = jsonClient(() => ok('CreateStack', { StackId: 'arn:stack' }), compat);
      const out = await client.send(new CreateStackCommand(input));
      expect(out.StackId).toBe('arn:stack');
      const req = requests[0];
      expect(req.headers['x-amz-target']).toBe('CloudFormation.CreateStack');
      expect(req.headers['content-type']).toBe('application/x-amz-json-1.0');
      expect(actionFromTarget(req.headers['x-amz-target'])).toBe('CreateStack');
      expect(decodeJsonInput('CreateStack', req.body)).toEqual(input);
    },
  );

  it('DescribeStacks JSON output is read back with Dates, booleans and empty lists', async () => {
    const created = new Date('2026-11-30T09:25:41.123Z');
    const stack = {
      StackName: 's',
      CreationTime: created,
      StackStatus: 'CREATE_COMPLETE',
      DisableRollback: false,
      Outputs: [],
    };
    const { client } = jsonClient(() => ok('DescribeStacks', { Stacks: [stack] }), true);
    const res = await client.send(new DescribeStacksCommand({}));
    expect(res.Stacks![0]).toEqual(stack);
    expect(res.Stacks![0].CreationTime).toBeInstanceOf(Date);
  });

  it.each([false, true])('errors map to the SDK classes (query-compatible: %s)', async (compat) => {
    const notFound = jsonClient(() => failing(awsError('ChangeSetNotFound', 'ChangeSet [c] does not exist')), compat);
    const err = await caught(
      notFound.client.send(new DescribeChangeSetCommand({ ChangeSetName: 'c', StackName: 's' })),
    );
    expect(err).toBeInstanceOf(ChangeSetNotFoundException);
    expect(err.message).toBe('ChangeSet [c] does not exist');
    expect(err.$metadata.httpStatusCode).toBe(404);

    const invalid = jsonClient(() => failing(validationError('Stack with id s does not exist')), compat);
    const verr = await caught(invalid.client.send(new DescribeStacksCommand({ StackName: 's' })));
    expect(verr.name).toBe('ValidationError');
    expect(verr.message).toBe('Stack with id s does not exist');
  });

  it('encodeJsonError names the model shape and sets x-amzn-query-error', () => {
    expect(encodeJsonError(awsError('ChangeSetNotFound', 'm'))).toEqual({
      status: 404,
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-query-error': 'ChangeSetNotFound;Sender' },
      body: '{"__type":"com.amazonaws.cloudformation#ChangeSetNotFoundException","message":"m"}',
    });
  });

  it('returns ValidationError for wrongly typed JSON members and malformed JSON', () => {
    expect(() => decodeJsonInput('CreateStack', '{"StackName":"s","TimeoutInMinutes":"x"}')).toThrow(
      "1 validation error detected: Value '\"x\"' at 'timeoutInMinutes' failed to satisfy constraint: Member must be a number",
    );
    expect(() => decodeJsonInput('CreateStack', '{')).toThrow('The request body is not valid JSON');
  });
});
