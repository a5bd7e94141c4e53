// The cleanup after a successful update tries a failing delete three times before it gives the resource up, as
// AWS does; a delete that goes through on the third try leaves a plain UPDATE_COMPLETE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { resourceLines } from '../helpers/events.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const BOTH = 'Resources:\n  K:\n    Type: AWS::SQS::Queue\n  R:\n    Type: AWS::SNS::Topic\n';
const KEEP = 'Resources:\n  K:\n    Type: AWS::SQS::Queue\n';

async function fault(stackName: string, times: number) {
  const res = await fetch(`${server.endpoint}/_cfn-local/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ stackName, logicalId: 'R', action: 'Delete', times }),
  });
  expect(res.status).toBeLessThan(300);
}

async function topics(stackName: string) {
  const res = await fetch(`${server.endpoint}/_cfn-local/world?type=AWS::SNS::Topic&stackName=${stackName}`);
  return ((await res.json()) as { resources: unknown[] }).resources.length;
}

async function removeR(stackName: string, times: number) {
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: stackName, TemplateBody: BOTH }));
  await waitForStack(server.client, StackId!);
  await fault(stackName, times);
  await server.client.send(new UpdateStackCommand({ StackName: stackName, TemplateBody: KEEP }));
  return waitForStack(server.client, StackId!);
}

describe('cleanup deletes are retried', () => {
  it('a delete that fails twice goes through on the third try: plain UPDATE_COMPLETE, the topic gone', async () => {
    const stack = await removeR('retry-two', 2);
    expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
    expect(stack.StackStatusReason).toBeUndefined();
    expect(await resourceLines(server.client, 'retry-two', 'R')).toEqual([
      'R CREATE_IN_PROGRESS',
      'R CREATE_IN_PROGRESS',
      'R CREATE_COMPLETE',
      'R DELETE_IN_PROGRESS',
      'R DELETE_COMPLETE',
    ]);
    expect(await topics('retry-two')).toBe(0);
  });

  it("a delete that fails three times is given up: DELETE_FAILED, the stack completes with AWS's note", async () => {
    const stack = await removeR('retry-three', 3);
    expect(stack).toMatchObject({
      StackStatus: 'UPDATE_COMPLETE',
      StackStatusReason: 'Update successful. One or more resources could not be deleted.',
    });
    expect((await resourceLines(server.client, 'retry-three', 'R')).slice(-1)).toEqual(['R DELETE_FAILED']);
  });
});
