// Create and its failure paths: rollback, ROLLBACK_FAILED, OnFailure, DisableRollback, cancellation, timeouts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  ListStackResourcesCommand,
  RollbackStackCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { ManualTimers } from '../helpers/timers.js';
import { awsErrorOf } from '../helpers/errors.js';
import { eventLines, waitForEvent } from '../helpers/events.js';

let server: TestServer;
// A DelayMs holds its resource until the test moves these timers (none here does: a delayed resource stays in flight).
const timers = new ManualTimers();
beforeAll(async () => {
  server = await startServer({ timers });
});
afterAll(() => server.close());

const param = (name: string, extra = '') => `  ${name}:
    Type: AWS::SSM::Parameter
${extra}    Properties:
      Type: String
      Value: ${name}
`;
const failing = (fail: string, more = '') =>
  `    Metadata:\n      cfn-local:\n        Fail: [${fail}]\n        Message: "Rate exceeded"\n${more}`;

async function create(name: string, body: string, extra: Record<string, unknown> = {}) {
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: name, TemplateBody: body, ...extra }),
  );
  return waitForStack(server.client, StackId!);
}

describe('CreateStack failure', () => {
  it('rolls back: CREATE_FAILED → ROLLBACK_IN_PROGRESS → deletes in reverse order → ROLLBACK_COMPLETE', async () => {
    const body = `Resources:\n${param('Good')}${param('Bad', '    DependsOn: Good\n' + failing('Create'))}`;
    const stack = await create('rollback', body);
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(stack.StackStatusReason).toBeUndefined();
    expect(stack.DeletionTime).toBeInstanceOf(Date);
    expect(await eventLines(server.client, 'rollback', true)).toEqual([
      'rollback CREATE_IN_PROGRESS: User Initiated',
      'Good CREATE_IN_PROGRESS',
      'Good CREATE_IN_PROGRESS: Resource creation Initiated',
      'Good CREATE_COMPLETE',
      'Bad CREATE_IN_PROGRESS',
      'Bad CREATE_IN_PROGRESS: Resource creation Initiated',
      'Bad CREATE_FAILED: Rate exceeded',
      'rollback ROLLBACK_IN_PROGRESS: The following resource(s) failed to create: [Bad]. Rollback requested by user.',
      'Bad DELETE_COMPLETE',
      'Good DELETE_IN_PROGRESS',
      'Good DELETE_COMPLETE',
      'rollback ROLLBACK_COMPLETE',
    ]);
    const world = (await (await fetch(`${server.endpoint}/_cfn-local/world?type=AWS::SSM::Parameter`)).json()) as {
      resources: { stackId?: string }[];
    };
    expect(world.resources.filter((r) => r.stackId === stack.StackId)).toEqual([]);
  });

  it('refuses an update of a ROLLBACK_COMPLETE stack, and a create of its name, until it is deleted', async () => {
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'rollback' }));
    const id = Stacks![0].StackId!;
    expect(
      await awsErrorOf(
        server.client.send(
          new UpdateStackCommand({ StackName: 'rollback', TemplateBody: `Resources:\n${param('Good')}` }),
        ),
      ),
    ).toMatchObject({
      code: 'ValidationError',
      message: `Stack:${id} is in ROLLBACK_COMPLETE state and can not be updated.`,
    });
    expect(
      await awsErrorOf(
        server.client.send(
          new CreateStackCommand({ StackName: 'rollback', TemplateBody: `Resources:\n${param('Good')}` }),
        ),
      ),
    ).toMatchObject({
      code: 'AlreadyExistsException',
      message: 'Stack [rollback] already exists',
    });
    await server.client.send(new DeleteStackCommand({ StackName: 'rollback' }));
    expect((await waitForStack(server.client, id)).StackStatus).toBe('DELETE_COMPLETE');
  });

  it('cancels siblings still in flight with "Resource creation cancelled"', async () => {
    // Slow is held by its delay until the failure of Bad cancels it; the rollback's delete of Slow is delayed too
    const slow = '    Metadata:\n      cfn-local:\n        DelayMs: 300\n';
    const body = `Resources:\n${param('Slow', slow)}${param('Bad', failing('Create'))}`;
    const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'cancel', TemplateBody: body }));
    await waitForEvent(
      server.client,
      StackId!,
      (e) => e.LogicalResourceId === 'Slow' && e.ResourceStatus === 'DELETE_IN_PROGRESS',
    );
    await timers.armed(300);
    await timers.advance(300);
    const stack = await waitForStack(server.client, StackId!);
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const lines = await eventLines(server.client, 'cancel', true);
    expect(lines).toContain('Slow CREATE_FAILED: Resource creation cancelled');
    expect(lines).toContain(
      'cancel ROLLBACK_IN_PROGRESS: The following resource(s) failed to create: [Bad, Slow]. Rollback requested by user.',
    );
  });

  it('reaches ROLLBACK_FAILED when the rollback cannot delete, listing the resource', async () => {
    const body = `Resources:\n${param('Stuck', failing('Delete'))}${param('Bad', '    DependsOn: Stuck\n' + failing('Create'))}`;
    const stack = await create('rbfail', body);
    expect(stack.StackStatus).toBe('ROLLBACK_FAILED');
    expect(stack.StackStatusReason).toBe('The following resource(s) failed to delete: [Stuck]. ');
    const { StackResourceSummaries } = await server.client.send(new ListStackResourcesCommand({ StackName: 'rbfail' }));
    expect(StackResourceSummaries!.find((r) => r.LogicalResourceId === 'Stuck')).toMatchObject({
      ResourceStatus: 'DELETE_FAILED',
      ResourceStatusReason: 'Rate exceeded',
    });
  });

  it('OnFailure DO_NOTHING keeps CREATE_FAILED with the completed resources', async () => {
    const body = `Resources:\n${param('Good')}${param('Bad', '    DependsOn: Good\n' + failing('Create'))}`;
    const stack = await create('keep', body, { OnFailure: 'DO_NOTHING' });
    expect(stack.StackStatus).toBe('CREATE_FAILED');
    expect(stack.DisableRollback).toBe(true);
    expect(stack.StackStatusReason).toBe('The following resource(s) failed to create: [Bad]. ');
    const { StackResourceSummaries } = await server.client.send(new ListStackResourcesCommand({ StackName: 'keep' }));
    expect(Object.fromEntries(StackResourceSummaries!.map((r) => [r.LogicalResourceId, r.ResourceStatus]))).toEqual({
      Good: 'CREATE_COMPLETE',
      Bad: 'CREATE_FAILED',
    });
  });

  it('RollbackStack from CREATE_FAILED deletes what the create made → ROLLBACK_COMPLETE', async () => {
    const { StackId } = await server.client.send(new RollbackStackCommand({ StackName: 'keep' }));
    const stack = await waitForStack(server.client, StackId!);
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const lines = await eventLines(server.client, 'keep');
    expect(lines.slice(-5)).toEqual([
      'keep ROLLBACK_IN_PROGRESS',
      'Bad DELETE_COMPLETE',
      'Good DELETE_IN_PROGRESS',
      'Good DELETE_COMPLETE',
      'keep ROLLBACK_COMPLETE',
    ]);
  });

  it('DisableRollback keeps CREATE_FAILED; OnFailure and DisableRollback together are refused', async () => {
    const body = `Resources:\n${param('Bad', failing('Create'))}`;
    expect((await create('norollback', body, { DisableRollback: true })).StackStatus).toBe('CREATE_FAILED');
    expect(
      await awsErrorOf(
        server.client.send(
          new CreateStackCommand({ StackName: 'both', TemplateBody: body, DisableRollback: true, OnFailure: 'DELETE' }),
        ),
      ),
    ).toMatchObject({
      code: 'ValidationError',
    });
  });

  it('OnFailure DELETE rolls back, then deletes the stack, freeing the name', async () => {
    const body = `Resources:\n${param('Bad', failing('Create'))}`;
    const stack = await create('ondelete', body, { OnFailure: 'DELETE' });
    expect(stack.StackStatus).toBe('DELETE_COMPLETE');
    const lines = await eventLines(server.client, stack.StackId!);
    expect(lines.filter((l) => l.startsWith('ondelete '))).toEqual([
      'ondelete CREATE_IN_PROGRESS',
      'ondelete ROLLBACK_IN_PROGRESS',
      'ondelete ROLLBACK_COMPLETE',
      'ondelete DELETE_IN_PROGRESS',
      'ondelete DELETE_COMPLETE',
    ]);
    await expect(server.client.send(new DescribeStacksCommand({ StackName: 'ondelete' }))).rejects.toThrow(
      'Stack with id ondelete does not exist',
    );
  });

  it('a fault with Times: 1 fails once: DELETE_FAILED, then DeleteStack again resumes to DELETE_COMPLETE', async () => {
    const body = `Resources:\n${param('Flaky', failing('Delete', '        Times: 1\n'))}`;
    const stack = await create('flaky', body);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    await server.client.send(new DeleteStackCommand({ StackName: 'flaky' }));
    const failed = await waitForStack(server.client, stack.StackId!);
    expect(failed).toMatchObject({
      StackStatus: 'DELETE_FAILED',
      StackStatusReason: 'The following resource(s) failed to delete: [Flaky]. ',
    });
    await server.client.send(new DeleteStackCommand({ StackName: 'flaky' }));
    expect((await waitForStack(server.client, stack.StackId!)).StackStatus).toBe('DELETE_COMPLETE');
  });
});

describe('TimeoutInMinutes', () => {
  it('fails a create that outlasts it with AWS reason and rolls back', async () => {
    const timers = new ManualTimers();
    const timed = await startServer({ timers });
    try {
      // Slow's create takes an hour; the stack allows it 50 minutes
      const body = `Resources:\n${param('Slow', '    Metadata:\n      cfn-local:\n        DelayMs: 3600000\n')}`;
      const { StackId } = await timed.client.send(
        new CreateStackCommand({ StackName: 'slow', TemplateBody: body, TimeoutInMinutes: 50 }),
      );
      await timers.armed(3_600_000);
      await timers.advance(50 * 60_000);
      // the rollback's delete of Slow is delayed as well
      await waitForEvent(
        timed.client,
        StackId!,
        (e) => e.LogicalResourceId === 'Slow' && e.ResourceStatus === 'DELETE_IN_PROGRESS',
      );
      await timers.armed(3_600_000);
      await timers.advance(3_600_000);
      const stack = await waitForStack(timed.client, StackId!);
      expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
      const lines = await eventLines(timed.client, 'slow', true);
      expect(lines).toContain('Slow CREATE_FAILED: Resource creation cancelled');
      expect(lines).toContain(
        'slow ROLLBACK_IN_PROGRESS: Stack creation time exceeded the specified timeout. Rollback requested by user.',
      );
    } finally {
      await timed.close();
    }
  });
});
