// CreationPolicy with the SignalResource action: the wait for Count SUCCESS signals, its timeout, and the stack event
// AWS publishes for each signal received.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStackCommand, SignalResourceCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { ManualTimers } from '../helpers/timers.js';
import { eventLines, physicalIdOnceCreated, resourceEvents } from './worldHelpers.js';
import { waitForEvent } from '../helpers/events.js';

let server: TestServer;
// Every wait's timeout runs on these: a test moves time past a deadline instead of waiting for it.
const timers = new ManualTimers();
beforeAll(async () => {
  server = await startServer({ timers });
});
afterAll(() => server.close());

const failureReason = async (id: string, logicalId: string) =>
  (await resourceEvents(server.client, id, logicalId)).find((e) => e.ResourceStatus === 'CREATE_FAILED')
    ?.ResourceStatusReason;

const POLICY = (count: number, timeout: string) => `
Resources:
  Topic:
    Type: AWS::SNS::Topic
    CreationPolicy:
      ResourceSignal:
        Count: ${count}
        Timeout: ${timeout}
`;

const POLICY_WAIT = `
Resources:
  Wait:
    Type: AWS::CloudFormation::WaitCondition
    CreationPolicy:
      ResourceSignal:
        Timeout: PT1M
`;

/** A stack whose Topic waits `ms` for its one signal, past its timeout (no real time passes). */
async function timedOut(name: string, ms: number) {
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: name, TemplateBody: POLICY(1, `PT${ms / 60_000}M`) }),
  );
  await timers.armed(ms);
  await timers.advance(ms);
  return { id: StackId!, stack: await waitForStack(server.client, StackId!) };
}

const received = (uniqueId: string) => `Received SUCCESS signal with UniqueId ${uniqueId}`;

const signalResource = (stack: string, uniqueId: string, status: 'SUCCESS' | 'FAILURE') =>
  server.client.send(
    new SignalResourceCommand({ StackName: stack, LogicalResourceId: 'Topic', UniqueId: uniqueId, Status: status }),
  );

describe('CreationPolicy and SignalResource', () => {
  it('holds CREATE_IN_PROGRESS until Count SUCCESS signals arrive through SignalResource', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'cp-ok', TemplateBody: POLICY(2, 'PT1M') }),
    );
    await physicalIdOnceCreated(server.client, StackId!, 'Topic');
    await signalResource('cp-ok', 'i-1', 'SUCCESS');
    await waitForEvent(server.client, StackId!, (e) => e.ResourceStatusReason === received('i-1'));
    // the wait counted the signal in the turn that published it: one of two leaves the resource waiting
    expect(await eventLines(server.client, StackId!, 'Topic')).toEqual([
      'CREATE_IN_PROGRESS',
      'CREATE_IN_PROGRESS Resource creation Initiated',
      `CREATE_IN_PROGRESS ${received('i-1')}`,
    ]);
    await signalResource('cp-ok', 'i-2', 'SUCCESS');
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
    expect(await eventLines(server.client, StackId!, 'Topic')).toEqual([
      'CREATE_IN_PROGRESS',
      'CREATE_IN_PROGRESS Resource creation Initiated',
      `CREATE_IN_PROGRESS ${received('i-1')}`,
      `CREATE_IN_PROGRESS ${received('i-2')}`,
      'CREATE_COMPLETE',
    ]);
  });

  it('publishes each new signal as an event of the resource, with its physical id, properties and event id', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'cp-events', TemplateBody: POLICY(2, 'PT1M') }),
    );
    const physicalId = await physicalIdOnceCreated(server.client, StackId!, 'Topic');
    await signalResource('cp-events', 'i-1', 'SUCCESS');
    await signalResource('cp-events', 'i-1', 'SUCCESS');
    const event = await waitForEvent(server.client, StackId!, (e) => e.ResourceStatusReason === received('i-1'));
    expect(event).toMatchObject({
      LogicalResourceId: 'Topic',
      PhysicalResourceId: physicalId,
      ResourceType: 'AWS::SNS::Topic',
      ResourceStatus: 'CREATE_IN_PROGRESS',
      ResourceProperties: '{}',
      EventId: `Topic-CREATE_IN_PROGRESS-${event.Timestamp!.toISOString()}`,
    });
    // the same UniqueId again is the same signal: counted once, published once
    expect((await eventLines(server.client, StackId!, 'Topic')).filter((l) => l.includes('signal'))).toEqual([
      `CREATE_IN_PROGRESS ${received('i-1')}`,
    ]);
    await signalResource('cp-events', 'i-0abc', 'FAILURE');
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('ROLLBACK_COMPLETE');
    // a FAILURE signal has no event of its own: it is the reason of the CREATE_FAILED
    expect((await eventLines(server.client, StackId!, 'Topic')).slice(2, 4)).toEqual([
      `CREATE_IN_PROGRESS ${received('i-1')}`,
      'CREATE_FAILED Received FAILURE signal with UniqueId i-0abc',
    ]);
  });

  it('publishes a signal to a replacement under UPDATE_IN_PROGRESS', async () => {
    const named = (name: string) => `${POLICY(1, 'PT1M')}    Properties:\n      TopicName: ${name}\n`;
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'cp-replace', TemplateBody: named('first') }),
    );
    await waitForEvent(server.client, StackId!, (e) => e.ResourceStatusReason === 'Resource creation Initiated');
    await signalResource('cp-replace', 'i-1', 'SUCCESS');
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
    await server.client.send(new UpdateStackCommand({ StackName: 'cp-replace', TemplateBody: named('second') }));
    await waitForEvent(
      server.client,
      StackId!,
      (e) => e.ResourceStatus === 'UPDATE_IN_PROGRESS' && e.LogicalResourceId === 'Topic',
    );
    await signalResource('cp-replace', 'i-2', 'SUCCESS');
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
    const lines = await eventLines(server.client, StackId!, 'Topic');
    expect(lines).toContain(`UPDATE_IN_PROGRESS ${received('i-2')}`);
    expect(lines.indexOf(`UPDATE_IN_PROGRESS ${received('i-2')}`)).toBe(lines.indexOf('UPDATE_COMPLETE') - 1);
  });

  it('publishes the signals of a WaitCondition under a CreationPolicy as its events', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'cp-wait', TemplateBody: POLICY_WAIT }),
    );
    await physicalIdOnceCreated(server.client, StackId!, 'Wait');
    await server.client.send(
      new SignalResourceCommand({ StackName: 'cp-wait', LogicalResourceId: 'Wait', UniqueId: 'x', Status: 'SUCCESS' }),
    );
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
    expect(await eventLines(server.client, StackId!, 'Wait')).toEqual([
      'CREATE_IN_PROGRESS',
      'CREATE_IN_PROGRESS Resource creation Initiated',
      `CREATE_IN_PROGRESS ${received('x')}`,
      'CREATE_COMPLETE',
    ]);
  });

  it('fails with "Received FAILURE signal with UniqueId" on a FAILURE signal', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'cp-fail', TemplateBody: POLICY(1, 'PT1M') }),
    );
    await physicalIdOnceCreated(server.client, StackId!, 'Topic');
    await signalResource('cp-fail', 'i-0abc', 'FAILURE');
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(await failureReason(StackId!, 'Topic')).toBe('Received FAILURE signal with UniqueId i-0abc');
  });

  it('fails with "Failed to receive 1 resource signal(s) within the specified duration" at the timeout', async () => {
    const { id } = await timedOut('cp-timeout', 15 * 60_000);
    expect(await failureReason(id, 'Topic')).toBe(
      'Failed to receive 1 resource signal(s) within the specified duration',
    );
  });

  it('refuses a signal to a resource that is no longer being created with ValidationError', async () => {
    const { id } = await timedOut('cp-late', 5 * 60_000);
    await expect(signalResource(id, 'i-9', 'SUCCESS')).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'Resource Topic is in DELETE_COMPLETE state and cannot be signaled',
    });
    await expect(signalResource('nope', 'i-9', 'SUCCESS')).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'Stack [nope] does not exist',
    });
  });
});
