// LastOperations names each stack operation by AWS's OperationType (API_OperationEntry's valid values), whichever
// call started it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ContinueUpdateRollbackCommand,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  RollbackStackCommand,
  UpdateStackCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const AWS_OPERATION_TYPES = [
  'CREATE_STACK',
  'UPDATE_STACK',
  'DELETE_STACK',
  'CONTINUE_ROLLBACK',
  'ROLLBACK',
  'CREATE_CHANGESET',
];
const param = (value: string, fault = '') =>
  `Resources:\n  P:\n    Type: AWS::SSM::Parameter\n${fault}    Properties:\n      Type: String\n      Value: ${value}\n`;
const failing = (action: string) => `    Metadata:\n      cfn-local:\n        Fail: [${action}]\n`;

async function lastOperation(client: CloudFormationClient, name: string) {
  const stack = await waitForStack(client, name);
  const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stack.StackId }));
  const last = Stacks![0].LastOperations!;
  expect(last).toHaveLength(1);
  expect(AWS_OPERATION_TYPES).toContain(last[0].OperationType);
  expect(last[0].OperationId).toMatch(/^[0-9a-f-]{36}$/);
  return last[0].OperationType;
}

it('CreateStack, UpdateStack and DeleteStack show CREATE_STACK, UPDATE_STACK and DELETE_STACK', async () => {
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'ops', TemplateBody: param('a') }));
  expect(await lastOperation(server.client, 'ops')).toBe('CREATE_STACK');
  await server.client.send(new UpdateStackCommand({ StackName: 'ops', TemplateBody: param('b') }));
  expect(await lastOperation(server.client, 'ops')).toBe('UPDATE_STACK');
  await server.client.send(new DeleteStackCommand({ StackName: 'ops' }));
  expect(await lastOperation(server.client, StackId!)).toBe('DELETE_STACK');
});

it('RollbackStack shows ROLLBACK', async () => {
  await server.client.send(
    new CreateStackCommand({
      StackName: 'ops-rollback',
      TemplateBody: param('a', failing('Create')),
      DisableRollback: true,
    }),
  );
  expect((await waitForStack(server.client, 'ops-rollback')).StackStatus).toBe('CREATE_FAILED');
  await server.client.send(new RollbackStackCommand({ StackName: 'ops-rollback' }));
  expect(await lastOperation(server.client, 'ops-rollback')).toBe('ROLLBACK');
});

it('ContinueUpdateRollback shows CONTINUE_ROLLBACK', async () => {
  await server.client.send(new CreateStackCommand({ StackName: 'ops-continue', TemplateBody: param('a') }));
  await waitForStack(server.client, 'ops-continue');
  await fetch(`${server.endpoint}/_cfn-local/faults`, {
    method: 'POST',
    body: JSON.stringify({ stackName: 'ops-continue', action: 'Update' }),
  });
  await server.client.send(new UpdateStackCommand({ StackName: 'ops-continue', TemplateBody: param('b') }));
  expect((await waitForStack(server.client, 'ops-continue')).StackStatus).toBe('UPDATE_ROLLBACK_FAILED');
  await server.client.send(new ContinueUpdateRollbackCommand({ StackName: 'ops-continue' }));
  expect(await lastOperation(server.client, 'ops-continue')).toBe('CONTINUE_ROLLBACK');
});
