// DeleteStack over a tree of nested stacks: children go in dependency order, a child that cannot be deleted
// leaves the parent's resource DELETE_FAILED with AWS's "Embedded stack …" text, a retry resumes, and
// RetainResources keeps a child.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
} from '@aws-sdk/client-cloudformation';
import { awsErrorOf } from '../helpers/errors.js';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { eventLines, resourceLines } from '../helpers/events.js';
import { childOf, nested, param, putTemplate } from './nestedHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function create(name: string, body: string, extra: Record<string, unknown> = {}) {
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: name, TemplateBody: body, ...extra }),
  );
  return waitForStack(server.client, StackId!);
}

async function remove(name: string, extra: Record<string, unknown> = {}) {
  const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: name }));
  await server.client.send(new DeleteStackCommand({ StackName: name, ...extra }));
  return waitForStack(server.client, Stacks![0].StackId!);
}

const failDelete = (times?: number) =>
  `    Metadata:\n      cfn-local:\n        Fail: [Delete]\n        Message: "Cannot delete entity, must detach all policies first."\n${times ? `        Times: ${times}\n` : ''}`;

describe('DeleteStack of a parent', () => {
  it('deletes the children in reverse dependency order, each child emptied before its stack completes', async () => {
    const url = await putTemplate(server, `Resources:\n${param('Item')}`);
    const parent = await create(
      'ordered',
      `Resources:\n${nested('First', url)}${nested('Second', url, '    DependsOn: First\n')}`,
    );
    expect(parent.StackStatus).toBe('CREATE_COMPLETE');
    const first = await childOf(server.client, 'ordered', 'First');
    const second = await childOf(server.client, 'ordered', 'Second');
    expect((await remove('ordered')).StackStatus).toBe('DELETE_COMPLETE');
    expect((await eventLines(server.client, parent.StackId!)).slice(-6)).toEqual([
      'ordered DELETE_IN_PROGRESS',
      'Second DELETE_IN_PROGRESS',
      'Second DELETE_COMPLETE',
      'First DELETE_IN_PROGRESS',
      'First DELETE_COMPLETE',
      'ordered DELETE_COMPLETE',
    ]);
    // the parent's resource completes only once its child stack has: Second's child is gone before First's starts
    expect((await waitForStack(server.client, second.StackId!)).StackStatus).toBe('DELETE_COMPLETE');
    expect(
      (await eventLines(server.client, first.StackId!)).slice(-4).map((l) => l.replace(first.StackName!, 'child')),
    ).toEqual(['child DELETE_IN_PROGRESS', 'Item DELETE_IN_PROGRESS', 'Item DELETE_COMPLETE', 'child DELETE_COMPLETE']);
  });

  it('leaves the parent resource DELETE_FAILED with the Embedded stack text when the child cannot be deleted; a retry resumes', async () => {
    const url = await putTemplate(server, `Resources:\n${param('Stuck', failDelete(1))}${param('Free')}`);
    const parent = await create('stuck', `Resources:\n${nested('Child', url)}`);
    const child = await childOf(server.client, 'stuck', 'Child');
    const failed = await remove('stuck');
    expect(failed).toMatchObject({
      StackStatus: 'DELETE_FAILED',
      StackStatusReason: 'The following resource(s) failed to delete: [Child]. ',
    });
    expect(await resourceLines(server.client, 'stuck', 'Child', true)).toContain(
      `Child DELETE_FAILED: Embedded stack ${child.StackId} was not successfully deleted: The following resource(s) failed to delete: [Stuck].`,
    );
    expect((await childOf(server.client, 'stuck', 'Child')).StackStatus).toBe('DELETE_FAILED');
    expect((await remove(parent.StackId!)).StackStatus).toBe('DELETE_COMPLETE');
    expect((await waitForStack(server.client, child.StackId!)).StackStatus).toBe('DELETE_COMPLETE');
  });

  it('keeps a child named in RetainResources: the resource is DELETE_SKIPPED and the child stack stays', async () => {
    const url = await putTemplate(server, `Resources:\n${param('Stuck', failDelete())}`);
    const parent = await create('retain', `Resources:\n${nested('Child', url)}${param('Other')}`);
    const child = await childOf(server.client, 'retain', 'Child');
    expect((await remove('retain')).StackStatus).toBe('DELETE_FAILED');
    expect((await remove(parent.StackId!, { RetainResources: ['Child'] })).StackStatus).toBe('DELETE_COMPLETE');
    expect((await resourceLines(server.client, parent.StackId!, 'Child')).at(-1)).toBe('Child DELETE_SKIPPED');
    expect((await waitForStack(server.client, child.StackId!)).StackStatus).toBe('DELETE_FAILED');
  });

  it('deletes the child of a parent left in ROLLBACK_COMPLETE by a sibling failure', async () => {
    const url = await putTemplate(server, `Resources:\n${param('Item')}`);
    const parent = await create(
      'sibling',
      `Resources:\n${nested('Child', url)}${param('Bad', '    DependsOn: Child\n    Metadata:\n      cfn-local:\n        Fail: [Create]\n')}`,
    );
    expect(parent.StackStatus).toBe('ROLLBACK_COMPLETE');
    const child = await childOf(server.client, 'sibling', 'Child');
    expect(child.StackStatus).toBe('DELETE_COMPLETE');
  });

  it("passes the root's termination protection to its children: a direct delete of a child is refused, an update may remove it", async () => {
    const url = await putTemplate(server, `Resources:\n${param('Item')}`);
    const parent = await create('guarded', `Resources:\n${nested('Child', url)}${nested('Gone', url)}`, {
      EnableTerminationProtection: true,
    });
    const child = await childOf(server.client, 'guarded', 'Child');
    expect(child.EnableTerminationProtection).toBe(true);
    expect(await awsErrorOf(server.client.send(new DeleteStackCommand({ StackName: child.StackName })))).toMatchObject({
      code: 'ValidationError',
      message: `Stack [${child.StackName}] cannot be deleted while TerminationProtection is enabled`,
    });
    expect(
      await awsErrorOf(
        server.client.send(
          new UpdateTerminationProtectionCommand({ StackName: child.StackName, EnableTerminationProtection: false }),
        ),
      ),
    ).toMatchObject({
      code: 'ValidationError',
      message: `Stack [${child.StackName}] is a nested stack: termination protection can only be changed on its root stack [${parent.StackId}].`,
    });
    const gone = await childOf(server.client, 'guarded', 'Gone');
    await server.client.send(
      new UpdateStackCommand({ StackName: 'guarded', TemplateBody: `Resources:\n${nested('Child', url)}` }),
    );
    expect((await waitForStack(server.client, parent.StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
    expect((await waitForStack(server.client, gone.StackId!)).StackStatus).toBe('DELETE_COMPLETE');
    await server.client.send(
      new UpdateTerminationProtectionCommand({ StackName: 'guarded', EnableTerminationProtection: false }),
    );
    expect((await childOf(server.client, 'guarded', 'Child')).EnableTerminationProtection).toBe(false);
    expect((await remove('guarded')).StackStatus).toBe('DELETE_COMPLETE');
  });
});
