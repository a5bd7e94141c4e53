// UpdateStack over nested stacks: a child is updated only when its template or parameters changed; a failure
// anywhere rolls the tree back; a child's UPDATE_ROLLBACK_FAILED reaches the root, and ContinueUpdateRollback on
// the root resumes the tree, skipping child resources named `NestedStack.LogicalId`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContinueUpdateRollbackCommand,
  CreateStackCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { eventLines, resourceLines } from '../helpers/events.js';
import { awsErrorOf } from '../helpers/errors.js';
import { childOf, failing, nested, param, putTemplate } from './nestedHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function create(name: string, body: string) {
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: name, TemplateBody: body }));
  return waitForStack(server.client, StackId!);
}

async function update(name: string, body: string, extra: Record<string, unknown> = {}) {
  const { StackId } = await server.client.send(
    new UpdateStackCommand({ StackName: name, TemplateBody: body, ...extra }),
  );
  return waitForStack(server.client, StackId!);
}

const CHILD = `Parameters:\n  Value:\n    Type: String\nResources:\n  Item:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: !Ref Value\nOutputs:\n  Value:\n    Value: !GetAtt Item.Value\n`;
const withValue = (url: string, value: string, more = '') =>
  `Resources:\n${nested('Child', url, `      Parameters:\n        Value: ${value}\n`)}${more}Outputs:\n  Value:\n    Value: !GetAtt Child.Outputs.Value\n`;

describe('UpdateStack of a parent', () => {
  it('leaves an unchanged child untouched and updates a child whose parameters changed', async () => {
    const url = await putTemplate(server, CHILD);
    await create('upd', withValue(url, 'one'));
    const child = await childOf(server.client, 'upd', 'Child');
    const before = await eventLines(server.client, child.StackId!);
    expect((await update('upd', withValue(url, 'one', param('Extra')))).StackStatus).toBe('UPDATE_COMPLETE');
    expect(await eventLines(server.client, child.StackId!)).toEqual(before);
    expect(await resourceLines(server.client, 'upd', 'Child')).toHaveLength(3);
    const parent = await update('upd', withValue(url, 'two', param('Extra')));
    expect(parent.StackStatus).toBe('UPDATE_COMPLETE');
    expect(parent.Outputs).toEqual([{ OutputKey: 'Value', OutputValue: 'two' }]);
    expect(
      (await eventLines(server.client, child.StackId!))
        .slice(before.length)
        .map((l) => l.replace(child.StackName!, 'child')),
    ).toEqual([
      'child UPDATE_IN_PROGRESS',
      'Item UPDATE_IN_PROGRESS',
      'Item UPDATE_COMPLETE',
      'child UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
      'child UPDATE_COMPLETE',
    ]);
    expect((await resourceLines(server.client, 'upd', 'Child')).slice(3)).toEqual([
      'Child UPDATE_IN_PROGRESS',
      'Child UPDATE_COMPLETE',
    ]);
  });

  it('updates a child whose template changed behind the same TemplateURL', async () => {
    const url = await putTemplate(server, CHILD);
    await create('same-url', withValue(url, 'one'));
    await putTemplate(server, CHILD.replace('Outputs:', `${param('Added')}Outputs:`), url);
    expect((await update('same-url', withValue(url, 'one', param('Extra')))).StackStatus).toBe('UPDATE_COMPLETE');
    const child = await childOf(server.client, 'same-url', 'Child');
    expect(await resourceLines(server.client, child.StackId!, 'Added')).toEqual([
      'Added CREATE_IN_PROGRESS',
      'Added CREATE_IN_PROGRESS',
      'Added CREATE_COMPLETE',
    ]);
  });

  it('rolls the tree back when a child resource fails, with the Embedded stack update text', async () => {
    const url = await putTemplate(server, CHILD);
    await create('upd-fail', withValue(url, 'one'));
    const child = await childOf(server.client, 'upd-fail', 'Child');
    const broken = await putTemplate(
      server,
      CHILD.replace(
        '      Value: !Ref Value\n',
        `      Value: !Ref Value\n${failing('Update')}`.replace(/^ {4}Metadata/m, '    Metadata'),
      ),
    );
    const parent = await update('upd-fail', withValue(broken, 'two'));
    expect(parent.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(parent.Outputs).toEqual([{ OutputKey: 'Value', OutputValue: 'one' }]);
    expect(await resourceLines(server.client, 'upd-fail', 'Child', true)).toContain(
      `Child UPDATE_FAILED: Embedded stack ${child.StackId} was not successfully updated. Currently in UPDATE_ROLLBACK_IN_PROGRESS with reason: The following resource(s) failed to update: [Item].`,
    );
    expect((await childOf(server.client, 'upd-fail', 'Child')).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
  });

  it('rolls an updated child back when a sibling in the parent fails', async () => {
    const url = await putTemplate(server, CHILD);
    await create('sib-fail', withValue(url, 'one'));
    const parent = await update(
      'sib-fail',
      withValue(url, 'two', param('Bad', '    DependsOn: Child\n' + failing('Create'))),
    );
    expect(parent.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(parent.Outputs).toEqual([{ OutputKey: 'Value', OutputValue: 'one' }]);
    const child = await childOf(server.client, 'sib-fail', 'Child');
    expect(child.Parameters).toEqual([{ ParameterKey: 'Value', ParameterValue: 'one' }]);
    expect(child.Outputs).toEqual([{ OutputKey: 'Value', OutputValue: 'one' }]);
  });
});

describe('UPDATE_ROLLBACK_FAILED in a child', () => {
  it('leaves the root UPDATE_ROLLBACK_FAILED; ContinueUpdateRollback on the root skips Child.Item and completes the tree', async () => {
    const url = await putTemplate(server, CHILD);
    await create('urf', withValue(url, 'one'));
    // the child's Item fails its update and its rollback alike
    const fault = await fetch(`${server.endpoint}/_cfn-local/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ logicalId: 'Item', resourceType: 'AWS::SSM::Parameter', action: 'Update' }),
    });
    expect(fault.status).toBe(201);
    const parent = await update('urf', withValue(url, 'two'));
    expect(parent.StackStatus).toBe('UPDATE_ROLLBACK_FAILED');
    const child = await childOf(server.client, 'urf', 'Child');
    expect(child.StackStatus).toBe('UPDATE_ROLLBACK_FAILED');
    expect(
      await awsErrorOf(
        server.client.send(new ContinueUpdateRollbackCommand({ StackName: 'urf', ResourcesToSkip: ['Child.Missing'] })),
      ),
    ).toMatchObject({
      code: 'ValidationError',
    });
    expect(
      await awsErrorOf(
        server.client.send(new ContinueUpdateRollbackCommand({ StackName: child.StackId, ResourcesToSkip: ['Item'] })),
      ),
    ).toMatchObject({
      code: 'ValidationError',
      message: `Stack [${child.StackName}] is a nested stack: ContinueUpdateRollback can only be called on its root stack [${parent.StackId}].`,
    });
    await server.client.send(new ContinueUpdateRollbackCommand({ StackName: 'urf', ResourcesToSkip: ['Child.Item'] }));
    expect((await waitForStack(server.client, parent.StackId!)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: child.StackId }));
    expect(Stacks![0].StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(await resourceLines(server.client, child.StackId!, 'Item', true)).toContain(
      'Item UPDATE_COMPLETE: Resource skipped during continue update rollback',
    );
  });
});
