// Faults on demand: a resource's `Metadata: cfn-local:` block, and faults registered over the control API
// (by stack, logical id or type; a number of times; with a delay). Throttling codes are retried like a handler does.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CreateStackCommand, DescribeStacksCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { ManualTimers } from '../helpers/timers.js';
import { control, createStack, deleteStack, eventLines, resourceEvents } from './worldHelpers.js';

let server: TestServer;
/** A server whose DelayMs runs on timers the test moves: a delay takes no real time, and ends exactly when told. */
const timed = { timers: new ManualTimers(), server: undefined as unknown as TestServer };
beforeAll(async () => {
  server = await startServer();
  timed.server = await startServer({ timers: timed.timers });
});
afterAll(() => Promise.all([server.close(), timed.server.close()]));
afterEach(async () => {
  await control(server, 'DELETE', '/faults');
  await control(timed.server, 'DELETE', '/faults');
});

/**
 * Waits until the resource's action is held by a delay of `ms`, moves time to 1 ms short of it, and checks the
 * resource is still in its action (and the stack in progress): the delay, not anything else, holds it.
 */
async function heldFor(stackId: string, logicalId: string, ms: number) {
  await timed.timers.armed(ms);
  await timed.timers.advance(ms - 1);
  const lines = await eventLines(timed.server.client, stackId, logicalId);
  expect(lines.at(-1)).toMatch(/^CREATE_IN_PROGRESS/);
  const { Stacks } = await timed.server.client.send(new DescribeStacksCommand({ StackName: stackId }));
  expect(Stacks![0].StackStatus).toBe('CREATE_IN_PROGRESS');
}

const reasonOf = async (id: string, logicalId: string, status: string) =>
  (await resourceEvents(server.client, id, logicalId)).find((e) => e.ResourceStatus === status)?.ResourceStatusReason;

const QUEUE = (metadata = '') => `
Resources:
  Queue:
    Type: AWS::SQS::Queue
${metadata}`;

describe('Template faults (Metadata: cfn-local)', () => {
  it('fails the create with the given Message and rolls back', async () => {
    const { id, stack } = await createStack(
      server,
      'meta-create',
      QUEUE('    Metadata:\n      cfn-local:\n        Fail: [Create]\n        Message: Simulated outage\n'),
    );
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(await reasonOf(id, 'Queue', 'CREATE_FAILED')).toBe('Simulated outage');
  });

  it('fails Times attempts, then succeeds: an update fails once, the next update goes through', async () => {
    const { id } = await createStack(
      server,
      'meta-times',
      QUEUE('    Metadata:\n      cfn-local:\n        Fail: Update\n        Times: 1\n'),
    );
    const changed = QUEUE(
      '    Properties:\n      VisibilityTimeout: 60\n    Metadata:\n      cfn-local:\n        Fail: Update\n        Times: 1\n',
    );
    await server.client.send(new UpdateStackCommand({ StackName: id, TemplateBody: changed }));
    expect((await waitForStack(server.client, id)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(await reasonOf(id, 'Queue', 'UPDATE_FAILED')).toMatch(
      /^Resource handler returned message: "We encountered an internal error\. Please try again\." \(RequestToken: .*, HandlerErrorCode: InternalFailure\)$/,
    );
    await server.client.send(new UpdateStackCommand({ StackName: id, TemplateBody: changed }));
    expect((await waitForStack(server.client, id)).StackStatus).toBe('UPDATE_COMPLETE');
  });

  it('delays each action by DelayMs', async () => {
    const { StackId } = await timed.server.client.send(
      new CreateStackCommand({
        StackName: 'meta-delay',
        TemplateBody: QUEUE('    Metadata:\n      cfn-local:\n        DelayMs: 300000\n'),
      }),
    );
    await heldFor(StackId!, 'Queue', 300_000);
    await timed.timers.advance(1);
    expect((await waitForStack(timed.server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
  });
});

describe('Metadata DelayMs range and many delayed resources', () => {
  it('fails the resource with a clear reason for a DelayMs a timer cannot hold (1e308)', async () => {
    const { id, stack } = await createStack(
      server,
      'meta-delay-range',
      QUEUE('    Metadata:\n      cfn-local:\n        DelayMs: 1e308\n'),
    );
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(await reasonOf(id, 'Queue', 'CREATE_FAILED')).toBe(
      'cfn-local Metadata: DelayMs must be a whole number of milliseconds from 0 to 2147483647 (got 1e+308)',
    );
  });

  it('runs more than ten delayed resources without a MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const resources = Array.from(
        { length: 12 },
        (_, i) => `  Q${i}:\n    Type: AWS::SQS::Queue\n    Metadata:\n      cfn-local:\n        DelayMs: 1\n`,
      ).join('');
      const { stack } = await createStack(server, 'many-delayed', `Resources:\n${resources}`);
      expect(stack.StackStatus).toBe('CREATE_COMPLETE');
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('Control API faults', () => {
  it('a Delete fault on one logical id fails DeleteStack once; the retry resumes and completes', async () => {
    const { id } = await createStack(server, 'api-delete', `${QUEUE()}  Topic:\n    Type: AWS::SNS::Topic\n`);
    const fault = await control(server, 'POST', '/faults', {
      stackName: 'api-delete',
      logicalId: 'Queue',
      action: 'Delete',
      message: 'Access denied',
      times: 1,
    });
    expect(fault.status).toBe(201);
    expect(fault.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await deleteStack(server, id);
    expect(failed.StackStatus).toBe('DELETE_FAILED');
    expect(failed.StackStatusReason).toBe('The following resource(s) failed to delete: [Queue]. ');
    expect(await reasonOf(id, 'Queue', 'DELETE_FAILED')).toBe('Access denied');
    expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
    expect((await eventLines(server.client, id, 'Topic')).filter((l) => l === 'DELETE_COMPLETE')).toHaveLength(1);
  });

  it('a fault by resource type applies to every stack until removed', async () => {
    const { body } = await control(server, 'POST', '/faults', {
      resourceType: 'AWS::SNS::Topic',
      action: 'Create',
      code: 'AccessDenied',
    });
    const one = await createStack(server, 'typed-1', 'Resources:\n  T:\n    Type: AWS::SNS::Topic\n');
    expect(one.stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(await reasonOf(one.id, 'T', 'CREATE_FAILED')).toMatch(/HandlerErrorCode: AccessDenied\)$/);
    expect((await control(server, 'GET', '/faults')).body.faults).toEqual([
      { id: body.id, resourceType: 'AWS::SNS::Topic', action: 'Create', code: 'AccessDenied' },
    ]);
    expect((await control(server, 'DELETE', `/faults/${body.id}`)).body).toEqual({ removed: 1 });
    expect(
      (await createStack(server, 'typed-2', 'Resources:\n  T:\n    Type: AWS::SNS::Topic\n')).stack.StackStatus,
    ).toBe('CREATE_COMPLETE');
  });

  it('throttling is transient: a few throttled attempts are retried and the create completes', async () => {
    await control(server, 'POST', '/faults', {
      resourceType: 'AWS::SQS::Queue',
      action: 'Create',
      code: 'Throttling',
      times: 3,
    });
    const { id, stack } = await createStack(server, 'throttled', QUEUE());
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(await eventLines(server.client, id, 'Queue')).toEqual([
      'CREATE_IN_PROGRESS',
      'CREATE_IN_PROGRESS Resource creation Initiated',
      'CREATE_COMPLETE',
    ]);
  });

  it('throttling that outlasts the retries fails with "Rate exceeded" (HandlerErrorCode: Throttling); a later attempt clears', async () => {
    await control(server, 'POST', '/faults', { stackName: 'rate', action: 'Create', code: 'Throttling', times: 5 });
    const first = await createStack(server, 'rate', QUEUE());
    expect(await reasonOf(first.id, 'Queue', 'CREATE_FAILED')).toMatch(
      /^Resource handler returned message: "Rate exceeded \(Service: \w+, Status Code: 400, Request ID: [0-9a-f-]{36}\)" \(RequestToken: .+, HandlerErrorCode: Throttling\)$/,
    );
    await deleteStack(server, first.id);
    expect((await createStack(server, 'rate', QUEUE())).stack.StackStatus).toBe('CREATE_COMPLETE');
  });

  it('a fault with times: 2 is listed until its second failure, then no longer', async () => {
    const { body } = await control(server, 'POST', '/faults', { stackName: 'used-up', action: 'Create', times: 2 });
    const listed = async () => (await control(server, 'GET', '/faults')).body.faults.map((f: { id: string }) => f.id);
    const first = await createStack(server, 'used-up', QUEUE());
    expect(first.stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(await listed()).toContain(body.id);
    await deleteStack(server, first.id);
    const second = await createStack(server, 'used-up', QUEUE());
    expect(second.stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(await listed()).not.toContain(body.id);
    expect((await control(server, 'DELETE', `/faults/${body.id}`)).status).toBe(404);
    await deleteStack(server, second.id);
    expect((await createStack(server, 'used-up', QUEUE())).stack.StackStatus).toBe('CREATE_COMPLETE');
  });

  it('delayMs slows the action without failing it', async () => {
    await control(timed.server, 'POST', '/faults', { logicalId: 'Slow', action: 'Create', delayMs: 250_000, times: 0 });
    const { StackId } = await timed.server.client.send(
      new CreateStackCommand({ StackName: 'slow', TemplateBody: 'Resources:\n  Slow:\n    Type: AWS::SNS::Topic\n' }),
    );
    await heldFor(StackId!, 'Slow', 250_000);
    await timed.timers.advance(1);
    expect((await waitForStack(timed.server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
  });
});
