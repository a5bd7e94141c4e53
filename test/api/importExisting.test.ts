// CreateChangeSet's ImportExistingResources: a resource the template adds under a custom name that the account
// already holds, owned by no stack, is imported (Action: Import, IMPORT_IN_PROGRESS → IMPORT_COMPLETE) instead of
// colliding with it. https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_CreateChangeSet.html
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  ExecuteChangeSetCommand,
  waitUntilChangeSetCreateComplete,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { resourceLines } from '../helpers/events.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const named = `Resources:\n  Setting:\n    Type: AWS::SSM::Parameter\n    DeletionPolicy: Retain\n    Properties:\n      Name: left-behind\n      Type: String\n      Value: v\n`;

async function changeSet(stack: string, importExisting: boolean) {
  const { Id } = await server.client.send(
    new CreateChangeSetCommand({
      StackName: stack,
      ChangeSetName: 'cs',
      ChangeSetType: 'CREATE',
      TemplateBody: named,
      ImportExistingResources: importExisting,
      // without the flag, pre-deployment validation would fail the change set on the taken name
      DisableValidation: !importExisting,
    }),
  );
  await waitUntilChangeSetCreateComplete({ client: server.client, maxWaitTime: 10, minDelay: 0.05 } as never, {
    ChangeSetName: Id!,
  });
  return await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: Id! }));
}

it('imports a retained leftover instead of colliding with it, and only when asked', async () => {
  const first = await server.client.send(new CreateStackCommand({ StackName: 'first', TemplateBody: named }));
  await waitForStack(server.client, first.StackId!);
  await server.client.send(new DeleteStackCommand({ StackName: 'first' }));
  expect((await waitForStack(server.client, first.StackId!)).StackStatus).toBe('DELETE_COMPLETE');

  const plain = await changeSet('without-flag', false);
  expect(plain.Changes![0].ResourceChange).toMatchObject({ Action: 'Add', LogicalResourceId: 'Setting' });

  const adopting = await changeSet('with-flag', true);
  expect(adopting.ImportExistingResources).toBe(true);
  expect(adopting.Changes![0].ResourceChange).toMatchObject({
    Action: 'Import',
    LogicalResourceId: 'Setting',
    PhysicalResourceId: 'left-behind',
  });
  await server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: adopting.ChangeSetId! }));
  expect((await waitForStack(server.client, adopting.StackId!)).StackStatus).toBe('CREATE_COMPLETE');
  expect(await resourceLines(server.client, 'with-flag', 'Setting')).toEqual([
    'Setting IMPORT_IN_PROGRESS',
    'Setting IMPORT_COMPLETE',
  ]);
  const world = (await (await fetch(`${server.endpoint}/_cfn-local/world?type=AWS::SSM::Parameter`)).json()) as {
    resources: { physicalId: string; stackId?: string }[];
  };
  expect(world.resources.find((r) => r.physicalId === 'left-behind')!.stackId).toBe(adopting.StackId);

  // the plain change set, executed now, collides with the resource its sibling stack owns
  await server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: plain.ChangeSetId! }));
  expect((await waitForStack(server.client, plain.StackId!)).StackStatus).toBe('ROLLBACK_COMPLETE');
});

it('ListChangeSets pages its summaries 100 at a time with NextToken', async () => {
  const { ListChangeSetsCommand } = await import('@aws-sdk/client-cloudformation');
  const body = 'Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: v\n';
  for (let i = 0; i < 105; i++) {
    await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'many',
        ChangeSetName: `cs-${i}`,
        ChangeSetType: 'CREATE',
        TemplateBody: body,
      }),
    );
  }
  const first = await server.client.send(new ListChangeSetsCommand({ StackName: 'many' }));
  expect(first.Summaries).toHaveLength(100);
  expect(first.NextToken).toBeDefined();
  const second = await server.client.send(new ListChangeSetsCommand({ StackName: 'many', NextToken: first.NextToken }));
  expect(second.Summaries).toHaveLength(5);
  expect(second.NextToken).toBeUndefined();
  const names = new Set([...first.Summaries!, ...second.Summaries!].map((s) => s.ChangeSetName));
  expect(names.size).toBe(105);
});
