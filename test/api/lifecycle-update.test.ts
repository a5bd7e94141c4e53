// Update and its failure paths: update rollback, UPDATE_ROLLBACK_FAILED and ContinueUpdateRollback, CancelUpdateStack,
// DisableRollback with RollbackStack, replacement rollback, custom-named replacement, cleanup failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CancelUpdateStackCommand,
  ContinueUpdateRollbackCommand,
  CreateStackCommand,
  ListStackResourcesCommand,
  RollbackStackCommand,
  UpdateStackCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { ManualTimers } from '../helpers/timers.js';
import { eventLines } from '../helpers/events.js';

let server: TestServer;
// A DelayMs holds its resource until the test moves these timers (or the operation is cancelled).
const timers = new ManualTimers();
beforeAll(async () => {
  server = await startServer({ timers });
});
afterAll(() => server.close());

interface Param {
  name?: string;
  value: string;
  meta?: string;
  extra?: string;
}
const param = (id: string, p: Param) => `  ${id}:
    Type: AWS::SSM::Parameter
${p.extra ?? ''}${p.meta ? `    Metadata:\n      cfn-local:\n${p.meta}` : ''}    Properties:
      Type: String
      Value: ${p.value}
${p.name ? `      Name: ${p.name}\n` : ''}`;
const template = (...resources: string[]) => `Resources:\n${resources.join('')}`;
const fail = (actions: string, times?: number) =>
  `        Fail: [${actions}]\n        Message: "Update refused"\n${times ? `        Times: ${times}\n` : ''}`;

async function create(name: string, body: string) {
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: name, TemplateBody: body }));
  const stack = await waitForStack(server.client, StackId!);
  expect(stack.StackStatus).toBe('CREATE_COMPLETE');
  return stack.StackId!;
}

async function update(name: string, body: string, extra: Record<string, unknown> = {}) {
  await server.client.send(new UpdateStackCommand({ StackName: name, TemplateBody: body, ...extra }));
  return waitForStack(server.client, name);
}

/** A fault registered over the control API: it outlives template changes (a revert sees it too). */
async function apiFault(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${server.endpoint}/_cfn-local/faults`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function resources(name: string) {
  const { StackResourceSummaries } = await server.client.send(new ListStackResourcesCommand({ StackName: name }));
  return Object.fromEntries(
    StackResourceSummaries!.map((r) => [r.LogicalResourceId, [r.ResourceStatus, r.PhysicalResourceId]]),
  );
}

async function sinceLast(name: string, status: string) {
  const lines = await eventLines(server.client, name, true);
  return lines.slice(lines.lastIndexOf(`${name} ${status}: User Initiated`));
}

describe('UpdateStack failure', () => {
  it('rolls back: UPDATE_ROLLBACK_IN_PROGRESS reverts, UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS deletes what it added', async () => {
    await create('upd', template(param('A', { value: 'a1' }), param('B', { value: 'b1' })));
    const before = await resources('upd');
    const stack = await update(
      'upd',
      template(
        param('A', { value: 'a2' }),
        param('B', { value: 'b2', extra: '    DependsOn: A\n', meta: fail('Update') }),
        param('C', { value: 'c1' }),
      ),
    );
    expect(stack.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const lines = await sinceLast('upd', 'UPDATE_IN_PROGRESS');
    expect(lines[0]).toBe('upd UPDATE_IN_PROGRESS: User Initiated');
    expect(lines).toContain('B UPDATE_FAILED: Update refused');
    expect(lines).toContain('upd UPDATE_ROLLBACK_IN_PROGRESS: The following resource(s) failed to update: [B]. ');
    const rollback = lines.slice(
      lines.indexOf('upd UPDATE_ROLLBACK_IN_PROGRESS: The following resource(s) failed to update: [B]. '),
    );
    expect(rollback.filter((l) => !l.startsWith('B '))).toEqual([
      'upd UPDATE_ROLLBACK_IN_PROGRESS: The following resource(s) failed to update: [B]. ',
      'A UPDATE_IN_PROGRESS',
      'A UPDATE_COMPLETE',
      'upd UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
      'C DELETE_IN_PROGRESS',
      'C DELETE_COMPLETE',
      'upd UPDATE_ROLLBACK_COMPLETE',
    ]);
    const after = await resources('upd');
    expect(Object.keys(after).sort()).toEqual(['A', 'B']);
    expect(after.A[1]).toBe(before.A[1]);
    // the stack is the pre-update one: its template and the world's value are back
    const { TemplateBody } = await server.client.send(new GetTemplateCommand({ StackName: 'upd' }));
    expect(TemplateBody).toContain('a1');
    const world = (await (await fetch(`${server.endpoint}/_cfn-local/world?type=AWS::SSM::Parameter`)).json()) as {
      resources: { physicalId: string; properties: { Value: string } }[];
    };
    expect(world.resources.find((r) => r.physicalId === after.A[1])!.properties.Value).toBe('a1');
  });

  it('an UPDATE_ROLLBACK_COMPLETE stack can be updated again', async () => {
    const stack = await update('upd', template(param('A', { value: 'a3' }), param('B', { value: 'b1' })));
    expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
  });

  it('reaches UPDATE_ROLLBACK_FAILED when a revert fails; ContinueUpdateRollback with ResourcesToSkip completes it', async () => {
    await create('urf', template(param('A', { value: 'a1' })));
    const fault = await apiFault({ stackName: 'urf', logicalId: 'A', action: 'Update', message: 'Update refused' });
    const stack = await update('urf', template(param('A', { value: 'a2' })));
    expect(stack.StackStatus).toBe('UPDATE_ROLLBACK_FAILED');
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'urf' }));
    await expect(
      server.client.send(
        new UpdateStackCommand({ StackName: 'urf', TemplateBody: template(param('A', { value: 'a9' })) }),
      ),
    ).rejects.toThrow(`Stack:${Stacks![0].StackId} is in UPDATE_ROLLBACK_FAILED state and can not be updated.`);
    // retrying without skipping fails the same way (the refusal is lasting)
    await server.client.send(new ContinueUpdateRollbackCommand({ StackName: 'urf' }));
    expect((await waitForStack(server.client, 'urf')).StackStatus).toBe('UPDATE_ROLLBACK_FAILED');
    await server.client.send(new ContinueUpdateRollbackCommand({ StackName: 'urf', ResourcesToSkip: ['A'] }));
    expect((await waitForStack(server.client, 'urf')).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect((await resources('urf')).A[0]).toBe('UPDATE_COMPLETE');
    await fetch(`${server.endpoint}/_cfn-local/faults/${fault}`, { method: 'DELETE' });
  });

  it('ContinueUpdateRollback is refused from other statuses and for resources that are not skippable', async () => {
    await expect(server.client.send(new ContinueUpdateRollbackCommand({ StackName: 'upd' }))).rejects.toThrow(
      /is in UPDATE_COMPLETE state and can not continue update rollback/,
    );
    await create('urf2', template(param('A', { value: 'a1' }), param('B', { value: 'b1' })));
    await apiFault({ stackName: 'urf2', logicalId: 'A', action: 'Update' });
    expect((await update('urf2', template(param('A', { value: 'a2' }), param('B', { value: 'b1' })))).StackStatus).toBe(
      'UPDATE_ROLLBACK_FAILED',
    );
    await expect(
      server.client.send(new ContinueUpdateRollbackCommand({ StackName: 'urf2', ResourcesToSkip: ['B'] })),
    ).rejects.toThrow(/Resource B is in CREATE_COMPLETE state and can not be skipped/);
    await expect(
      server.client.send(new ContinueUpdateRollbackCommand({ StackName: 'urf2', ResourcesToSkip: ['Child.X'] })),
    ).rejects.toThrow(/Nested stack resource Child does not exist/);
  });

  it('a fault that clears (Times) lets ContinueUpdateRollback finish the revert itself', async () => {
    await create('urf3', template(param('A', { value: 'a1' })));
    // attempt 1 (update) and 2 (revert) fail; attempt 3 (the continued revert) succeeds
    await apiFault({ stackName: 'urf3', logicalId: 'A', action: 'Update', times: 2 });
    expect((await update('urf3', template(param('A', { value: 'a2' })))).StackStatus).toBe('UPDATE_ROLLBACK_FAILED');
    await server.client.send(new ContinueUpdateRollbackCommand({ StackName: 'urf3' }));
    expect((await waitForStack(server.client, 'urf3')).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
  });

  it('DisableRollback keeps UPDATE_FAILED; RollbackStack then rolls the update back', async () => {
    await create('keepupd', template(param('A', { value: 'a1' }), param('B', { value: 'b1' })));
    const stack = await update(
      'keepupd',
      template(
        param('A', { value: 'a2' }),
        param('B', { value: 'b2', extra: '    DependsOn: A\n', meta: fail('Update', 1) }),
      ),
      { DisableRollback: true },
    );
    expect(stack).toMatchObject({
      StackStatus: 'UPDATE_FAILED',
      DisableRollback: true,
      StackStatusReason: 'The following resource(s) failed to update: [B]. ',
    });
    expect((await resources('keepupd')).A[0]).toBe('UPDATE_COMPLETE');
    await server.client.send(new RollbackStackCommand({ StackName: 'keepupd' }));
    expect((await waitForStack(server.client, 'keepupd')).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
  });

  it('CancelUpdateStack during UPDATE_IN_PROGRESS cancels in-flight resources and rolls back', async () => {
    await create('cancelme', template(param('A', { value: 'a1' })));
    await server.client.send(
      new UpdateStackCommand({
        StackName: 'cancelme',
        // A's update is held by its delay (the timers never move) until CancelUpdateStack cancels it
        TemplateBody: template(param('A', { value: 'a2', meta: '        DelayMs: 400\n' })),
      }),
    );
    await server.client.send(new CancelUpdateStackCommand({ StackName: 'cancelme' }));
    const stack = await waitForStack(server.client, 'cancelme');
    expect(stack.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const lines = await eventLines(server.client, 'cancelme', true);
    expect(lines).toContain('A UPDATE_FAILED: Resource update cancelled');
    expect(lines).toContain('cancelme UPDATE_ROLLBACK_IN_PROGRESS: Stack update cancelled');
    await expect(server.client.send(new CancelUpdateStackCommand({ StackName: 'cancelme' }))).rejects.toThrow(
      'CancelUpdateStack cannot be called from current stack status',
    );
  });
});

describe('Replacement', () => {
  it('a failed update that replaced a resource repoints to the old copy and deletes the new one in cleanup', async () => {
    await create('repl', template(param('P', { value: 'v', name: 'old-name' }), param('Q', { value: 'q1' })));
    const stack = await update(
      'repl',
      template(
        param('P', { value: 'v', name: 'new-name' }),
        param('Q', { value: 'q2', extra: '    DependsOn: P\n', meta: fail('Update') }),
      ),
    );
    expect(stack.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const lines = await sinceLast('repl', 'UPDATE_IN_PROGRESS');
    const cleanup = lines.slice(lines.indexOf('repl UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS'));
    expect(cleanup).toEqual([
      'repl UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
      'P DELETE_IN_PROGRESS',
      'P DELETE_COMPLETE',
      'repl UPDATE_ROLLBACK_COMPLETE',
    ]);
    expect((await resources('repl')).P[1]).toBe('old-name');
    const world = (await (await fetch(`${server.endpoint}/_cfn-local/world?type=AWS::SSM::Parameter`)).json()) as {
      resources: { physicalId: string }[];
    };
    const ids = world.resources.map((r) => r.physicalId);
    expect(ids).toContain('old-name');
    expect(ids).not.toContain('new-name');
  });

  it('refuses to replace a resource whose custom name stays the same', async () => {
    // FifoQueue is create-only: changing it replaces the queue, which keeps its fixed QueueName
    await create(
      'named',
      `Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: fixed-name\n`,
    );
    const stack = await update(
      'named',
      `Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: fixed-name\n      FifoQueue: true\n`,
    );
    expect(stack.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const lines = await eventLines(server.client, 'named', true);
    expect(lines).toContain(
      'Q UPDATE_FAILED: CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename Q and update the stack again.',
    );
  });
});

describe('Cleanup after a successful update', () => {
  it('a delete that fails in UPDATE_COMPLETE_CLEANUP_IN_PROGRESS is reported, and the update still succeeds', async () => {
    await create(
      'cleanup',
      template(param('Keep', { value: 'k' }), param('Gone', { value: 'g', meta: fail('Delete') })),
    );
    const stack = await update('cleanup', template(param('Keep', { value: 'k' })));
    expect(stack).toMatchObject({
      StackStatus: 'UPDATE_COMPLETE',
      StackStatusReason: 'Update successful. One or more resources could not be deleted.',
    });
    const lines = await eventLines(server.client, 'cleanup', true);
    expect(lines.slice(-4)).toEqual([
      'cleanup UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
      'Gone DELETE_IN_PROGRESS',
      'Gone DELETE_FAILED: Update refused',
      'cleanup UPDATE_COMPLETE: Update successful. One or more resources could not be deleted.',
    ]);
    expect(Object.keys(await resources('cleanup'))).toEqual(['Keep']);
  });
});
