// An operation that breaks unexpectedly leaves no stack *_IN_PROGRESS: it takes the operation's failed status.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../../helpers/server.js';
import { prepareStored } from '../../../state-machine/prepare.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

it('an update whose run throws ends UPDATE_FAILED with "Internal Failure"', async () => {
  const { StackId } = await server.client.send(
    new CreateStackCommand({
      StackName: 'broken',
      TemplateBody:
        'Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: a\n',
    }),
  );
  await waitForStack(server.client, StackId!);
  const { engine, store } = server.app;
  const stack = store.stacks.byId(StackId!)!;
  engine.startOperation('UPDATE_STACK', {
    operation: engine.operationContext(),
    stack,
    template: prepareStored(store, stack, stack.templateId, stack.doc.parameters),
    resources: new Map(),
    first: 'UPDATE_IN_PROGRESS',
    run: async () => {
      throw new Error('a bug');
    },
  });
  await engine.idle();
  const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'broken' }));
  expect(Stacks![0]).toMatchObject({ StackStatus: 'UPDATE_FAILED', StackStatusReason: 'Internal Failure' });
});
