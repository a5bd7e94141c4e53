// Property validation surfaces as AWS surfaces it: CreateStack/UpdateStack succeed, then the resource goes
// CREATE_FAILED / UPDATE_FAILED with the registry's (or the legacy engine's) text, and the stack rolls back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { createStack, eventLines, resourceEvents } from './worldHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const failure = async (id: string, logicalId: string, status: string) =>
  (await resourceEvents(server.client, id, logicalId)).find((e) => e.ResourceStatus === status);

describe('Property validation at execution time', () => {
  it.each([
    [
      'Lambda function without Code and Role',
      'AWS::Lambda::Function',
      'Runtime: nodejs20.x',
      'Properties validation failed for resource Target with message: [#: required key [Code] not found, #: required key [Role] not found]',
    ],
    [
      'SSM parameter without Type (legacy wording)',
      'AWS::SSM::Parameter',
      'Value: v',
      'Property validation failure: [The property {/Type} is required]',
    ],
    [
      'S3 bucket with an unknown property',
      'AWS::S3::Bucket',
      'Colour: red',
      'Properties validation failed for resource Target with message: [#: extraneous key [Colour] is not permitted]',
    ],
    [
      'SNS subscription without its required keys',
      'AWS::SNS::Subscription',
      'Endpoint: a@b.c',
      'Properties validation failed for resource Target with message: [#: required key [Protocol] not found, #: required key [TopicArn] not found]',
    ],
    [
      'ECS cluster with a wrongly typed setting',
      'AWS::ECS::Cluster',
      'ClusterSettings: enabled',
      'Properties validation failed for resource Target with message: [#/ClusterSettings: expected type: JSONArray, found: String]',
    ],
  ])('%s → CREATE_FAILED with no physical id, then ROLLBACK_COMPLETE', async (_, type, props, reason) => {
    const { id, stack } = await createStack(
      server,
      `invalid-${type.split('::')[1]}-${Math.abs(reason.length)}`,
      `Resources:\n  Target:\n    Type: ${type}\n    Properties:\n      ${props}\n`,
    );
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const failed = await failure(id, 'Target', 'CREATE_FAILED');
    expect(failed?.ResourceStatusReason).toBe(reason);
    expect(failed?.PhysicalResourceId ?? '').toBe('');
    expect((await eventLines(server.client, id, 'Target')).slice(0, 2)).toEqual([
      'CREATE_IN_PROGRESS',
      `CREATE_FAILED ${reason}`,
    ]);
  });

  it('an update to an invalid property set goes UPDATE_FAILED, then UPDATE_ROLLBACK_COMPLETE', async () => {
    const { id } = await createStack(
      server,
      'invalid-update',
      'Resources:\n  Target:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 30\n',
    );
    await server.client.send(
      new UpdateStackCommand({
        StackName: id,
        TemplateBody:
          'Resources:\n  Target:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: [1]\n',
      }),
    );
    expect((await waitForStack(server.client, id)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect((await failure(id, 'Target', 'UPDATE_FAILED'))?.ResourceStatusReason).toBe(
      'Properties validation failed for resource Target with message: [#/VisibilityTimeout: expected type: Integer, found: JSONArray]',
    );
  });
});
