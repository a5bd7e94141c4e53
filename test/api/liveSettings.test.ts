// Stack settings changed while an operation runs (UpdateTerminationProtection, SetStackPolicy) outlast the operation:
// its end must not write back the settings it started with.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CreateStackCommand,
  DescribeStacksCommand,
  GetStackPolicyCommand,
  SetStackPolicyCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { ManualTimers } from '../helpers/timers.js';

let server: TestServer;
// P's DelayMs holds each action until the test moves these timers: the calls land while the update runs.
const timers = new ManualTimers();
beforeAll(async () => {
  server = await startServer({ timers });
});
afterAll(() => server.close());

/** One parameter whose every action is held by a DelayMs, so calls land while the update runs. */
const slow = (value: string) =>
  `Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Metadata:\n      cfn-local:\n        DelayMs: 300\n    Properties:\n      Type: String\n      Value: ${value}\n`;
const POLICY = JSON.stringify({ Statement: [{ Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*' }] });

/** Lets P's held action go on: its delay is armed, then passed. */
async function release() {
  await timers.armed(300);
  await timers.advance(300);
}

async function updating(name: string) {
  await server.client.send(new CreateStackCommand({ StackName: name, TemplateBody: slow('a') }));
  await release();
  await waitForStack(server.client, name);
  await server.client.send(new UpdateStackCommand({ StackName: name, TemplateBody: slow('b') }));
  const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: name }));
  expect(Stacks![0].StackStatus).toBe('UPDATE_IN_PROGRESS');
}

it('UpdateTerminationProtection during an update still holds after UPDATE_COMPLETE', async () => {
  await updating('live-protection');
  await server.client.send(
    new UpdateTerminationProtectionCommand({ StackName: 'live-protection', EnableTerminationProtection: true }),
  );
  await release();
  const stack = await waitForStack(server.client, 'live-protection');
  expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
  expect(stack.EnableTerminationProtection).toBe(true);
});

it('SetStackPolicy during an update still holds after UPDATE_COMPLETE', async () => {
  await updating('live-policy');
  await server.client.send(new SetStackPolicyCommand({ StackName: 'live-policy', StackPolicyBody: POLICY }));
  await release();
  expect((await waitForStack(server.client, 'live-policy')).StackStatus).toBe('UPDATE_COMPLETE');
  const { StackPolicyBody } = await server.client.send(new GetStackPolicyCommand({ StackName: 'live-policy' }));
  expect(StackPolicyBody).toBe(POLICY);
});
