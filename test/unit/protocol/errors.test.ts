import { describe, it, expect } from 'vitest';
import {
  ChangeSetNotFoundException,
  type CloudFormationServiceException,
  DescribeChangeSetCommand,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import {
  type AwsError,
  ERROR_CODES,
  awsError,
  internalFailure,
  invalidAction,
  notImplemented,
  validationError,
} from '../../../domain/errors.js';
import { MODEL_ERRORS, encodeError } from '../../../server/protocol/index.js';
import { fakeClient } from './fakeSdk.js';
import { thrownBy } from '../../helpers/errors.js';

function failWith(err: AwsError) {
  const headers = { 'content-type': 'text/xml', 'x-amzn-requestid': 'req-9' };
  return fakeClient(() => ({ statusCode: err.status, headers, body: encodeError(err, 'req-9') }));
}

const caught = (promise: Promise<unknown>) => thrownBy<CloudFormationServiceException>(promise);

describe('encodeError', () => {
  it("writes AWS's query error envelope", () => {
    expect(encodeError(validationError('Stack with id x does not exist'), 'req-9')).toBe(
      '<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Sender</Type>' +
        '<Code>ValidationError</Code><Message>Stack with id x does not exist</Message></Error>' +
        '<RequestId>req-9</RequestId></ErrorResponse>',
    );
  });

  it('ValidationError makes the SDK throw an error named ValidationError with our message and status', async () => {
    const message = "1 validation error detected: Value 'a<b' at 'stackName' failed to satisfy constraint: & more";
    const { client } = failWith(validationError(message));
    const err = await caught(client.send(new DescribeStacksCommand({ StackName: 'a<b' })));
    expect(err.name).toBe('ValidationError');
    expect(err.message).toBe(message);
    expect(err.$fault).toBe('client');
    expect(err.$metadata.httpStatusCode).toBe(400);
    expect(err.$metadata.requestId).toBe('req-9');
  });

  it('ChangeSetNotFound becomes the SDK class ChangeSetNotFoundException', async () => {
    const { client } = failWith(awsError('ChangeSetNotFound', 'ChangeSet [c] does not exist'));
    const err = await caught(client.send(new DescribeChangeSetCommand({ ChangeSetName: 'c', StackName: 's' })));
    expect(err).toBeInstanceOf(ChangeSetNotFoundException);
    expect(err.name).toBe('ChangeSetNotFoundException');
    expect(err.message).toBe('ChangeSet [c] does not exist');
    expect(err.$metadata.httpStatusCode).toBe(404);
  });

  it('InvalidAction, NotImplemented and InternalFailure carry their codes and statuses', async () => {
    expect(invalidAction('Nope')).toMatchObject({ code: 'InvalidAction', status: 400, type: 'Sender' });
    expect(invalidAction('Nope').message).toBe('Could not find operation Nope for version 2010-05-15');
    const ni = notImplemented('GetHookResult');
    expect(ni).toMatchObject({ code: 'NotImplemented', status: 501, type: 'Receiver' });
    expect(ni.message).toBe('cfn-local does not implement the CloudFormation action GetHookResult yet');
    expect(internalFailure()).toMatchObject({ code: 'InternalFailure', status: 500, type: 'Receiver' });

    const { client, requests } = failWith(ni);
    const err = await caught(client.send(new DescribeStacksCommand({})));
    expect(err.name).toBe('NotImplemented');
    expect(err.$fault).toBe('server');
    expect(err.$metadata.httpStatusCode).toBe(501);
    expect(requests).toHaveLength(1);
  });

  it('ERROR_CODES holds every error of the model with its awsQuery code and status', () => {
    for (const [shapeName, e] of Object.entries(MODEL_ERRORS)) {
      expect(ERROR_CODES, shapeName).toHaveProperty(e.code);
      expect(ERROR_CODES[e.code as keyof typeof ERROR_CODES], shapeName).toEqual({ status: e.status, type: e.type });
    }
    expect(MODEL_ERRORS.ChangeSetNotFoundException.code).toBe('ChangeSetNotFound');
  });
});
