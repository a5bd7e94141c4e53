// IncludeNestedStacks: a change set per modified nested stack, linked to its parent and root, executed and
// deleted with the root.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteChangeSetCommand,
  DescribeChangeSetCommand,
  DescribeStackResourceCommand,
  ExecuteChangeSetCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';
import { childOf, nested, putTemplate } from './nestedHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const CHILD = `Parameters:\n  Value:\n    Type: String\nResources:\n  Item:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: !Ref Value\n`;
const tree = (url: string, value: string) => `Resources:
${nested('Changed', url, `      Parameters:\n        Value: ${value}\n`)}${nested('Same', url, '      Parameters:\n        Value: same\n')}`;

async function changeSet(stack: string, name: string, body: string) {
  const { Id } = await server.client.send(
    new CreateChangeSetCommand({
      StackName: stack,
      ChangeSetName: name,
      TemplateBody: body,
      IncludeNestedStacks: true,
    }),
  );
  for (;;) {
    const cs = await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: Id }));
    if (cs.Status !== 'CREATE_PENDING' && cs.Status !== 'CREATE_IN_PROGRESS') return cs;
  }
}

describe('CreateChangeSet with IncludeNestedStacks', () => {
  it('makes a change set for each modified nested stack, linked by ParentChangeSetId and RootChangeSetId', async () => {
    const url = await putTemplate(server, CHILD);
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'cs-tree', TemplateBody: tree(url, 'one') }),
    );
    await waitForStack(server.client, StackId!);
    const root = await changeSet('cs-tree', 'next', tree(url, 'two'));
    expect(root).toMatchObject({ Status: 'CREATE_COMPLETE', IncludeNestedStacks: true });
    expect(root.ParentChangeSetId).toBeUndefined();
    const changed = root.Changes!.find((c) => c.ResourceChange!.LogicalResourceId === 'Changed')!.ResourceChange!;
    const same = root.Changes!.find((c) => c.ResourceChange!.LogicalResourceId === 'Same');
    expect(same?.ResourceChange?.ChangeSetId).toBeUndefined();
    expect(changed.ChangeSetId).toMatch(
      /^arn:aws:cloudformation:us-east-1:000000000000:changeSet\/next-Changed-[A-Z0-9]{12}\//,
    );
    const child = await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: changed.ChangeSetId }));
    expect(child).toMatchObject({
      Status: 'CREATE_COMPLETE',
      ExecutionStatus: 'AVAILABLE',
      StackId: changed.PhysicalResourceId,
      ParentChangeSetId: root.ChangeSetId,
      RootChangeSetId: root.ChangeSetId,
      Parameters: [{ ParameterKey: 'Value', ParameterValue: 'two' }],
    });
    expect(child.Changes!.map((c) => [c.ResourceChange!.LogicalResourceId, c.ResourceChange!.Action])).toEqual([
      ['Item', 'Modify'],
    ]);
  });

  it('executes the nested change sets with the root', async () => {
    const root = await server.client.send(
      new DescribeChangeSetCommand({ StackName: 'cs-tree', ChangeSetName: 'next' }),
    );
    const childId = root.Changes!.find((c) => c.ResourceChange!.LogicalResourceId === 'Changed')!.ResourceChange!
      .ChangeSetId;
    await server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: root.ChangeSetId }));
    expect((await waitForStack(server.client, root.StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
    expect(
      (await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: root.ChangeSetId }))).ExecutionStatus,
    ).toBe('EXECUTE_COMPLETE');
    expect((await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: childId }))).ExecutionStatus).toBe(
      'EXECUTE_COMPLETE',
    );
    expect((await childOf(server.client, 'cs-tree', 'Changed')).Parameters).toEqual([
      { ParameterKey: 'Value', ParameterValue: 'two' },
    ]);
  });

  it('deletes the nested change sets with the root', async () => {
    const url = await putTemplate(server, CHILD);
    const root = await changeSet('cs-tree', 'dropped', tree(url, 'three'));
    const childId = root.Changes!.find((c) => c.ResourceChange!.LogicalResourceId === 'Changed')!.ResourceChange!
      .ChangeSetId;
    expect(childId).toBeDefined();
    for (const [send, action] of [
      [ExecuteChangeSetCommand, 'executed'],
      [DeleteChangeSetCommand, 'deleted'],
    ] as const) {
      expect(await awsErrorOf(server.client.send(new send({ ChangeSetName: childId })))).toMatchObject({
        code: 'ValidationError',
        message: `ChangeSet [${childId}] is a nested change set: it can only be ${action} through its root change set [${root.ChangeSetId}].`,
      });
    }
    await server.client.send(new DeleteChangeSetCommand({ ChangeSetName: root.ChangeSetId }));
    expect(
      await awsErrorOf(server.client.send(new DescribeChangeSetCommand({ ChangeSetName: childId }))),
    ).toMatchObject({ code: 'ChangeSetNotFoundException' });
  });

  it("reports in the data-loss report what a removed nested stack's tree holds", async () => {
    const leaf = await putTemplate(
      server,
      `Resources:\n  Uploads:\n    Type: AWS::S3::Bucket\n  Note:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: x\n`,
    );
    const middle = await putTemplate(server, `Resources:\n${nested('Leaf', leaf)}`);
    const { StackId } = await server.client.send(
      new CreateStackCommand({
        StackName: 'cs-data',
        TemplateBody: `Resources:\n${nested('Middle', middle)}${nested('Kept', leaf)}`,
      }),
    );
    await waitForStack(server.client, StackId!);
    const mid = await childOf(server.client, 'cs-data', 'Middle');
    const leafStack = await childOf(server.client, mid.StackId!, 'Leaf');
    const { StackResourceDetail } = await server.client.send(
      new DescribeStackResourceCommand({ StackName: leafStack.StackId, LogicalResourceId: 'Uploads' }),
    );
    const bucket = StackResourceDetail!.PhysicalResourceId!;
    await fetch(`${server.endpoint}/_cfn-local/world/${bucket}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dataItems: 5 }),
    });
    const cs = await changeSet('cs-data', 'drop-middle', `Resources:\n${nested('Kept', leaf)}`);
    const impact = (await (
      await fetch(`${server.endpoint}/_cfn-local/change-sets/${encodeURIComponent(cs.ChangeSetId!)}/impact`)
    ).json()) as {
      dataLoss: { logicalResourceId: string; data: string; nestedResources?: unknown[] }[];
    };
    expect(impact.dataLoss).toEqual([
      expect.objectContaining({
        logicalResourceId: 'Middle',
        data: 'lost',
        nestedResources: [
          {
            stackName: leafStack.StackName,
            logicalResourceId: 'Uploads',
            physicalResourceId: bucket,
            resourceType: 'AWS::S3::Bucket',
            dataItems: 5,
          },
        ],
      }),
    ]);
  });
});
