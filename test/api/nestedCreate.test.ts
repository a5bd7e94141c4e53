// Nested stacks created from TemplateURL: real child stacks, their names, ids, outputs, events and options, and
// failures inside a child (or a grandchild) reaching the parent with AWS's "Embedded stack …" text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  ListStacksCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { eventLines, resourceLines } from '../helpers/events.js';
import { childOf, failing, nested, param, putTemplate } from './nestedHelpers.js';

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

const CHILD = `Parameters:
  Greeting:
    Type: String
Resources:
${param('Item')}Outputs:
  Said:
    Value: !Sub "\${Greeting} from \${AWS::StackName}"
  ItemName:
    Value: !Ref Item
`;

describe('CreateStack with a nested stack', () => {
  it('creates the child as a real stack whose ARN is the Ref and whose outputs GetAtt reads', async () => {
    const url = await putTemplate(server, CHILD);
    const parent = await create(
      'tree',
      `Resources:
${nested('Child', url, '      Parameters:\n        Greeting: hello\n      TimeoutInMinutes: 7\n      NotificationARNs: [arn:aws:sns:us-east-1:000000000000:topic]\n      Tags:\n        - Key: own\n          Value: "1"\n')}Outputs:
  ChildId:
    Value: !Ref Child
  Said:
    Value: !GetAtt Child.Outputs.Said
`,
      { Tags: [{ Key: 'team', Value: 'a' }] },
    );
    expect(parent.StackStatus).toBe('CREATE_COMPLETE');
    const child = await childOf(server.client, 'tree', 'Child');
    expect(child.StackName).toMatch(/^tree-Child-[A-Z0-9]{13}$/);
    expect(child.StackStatus).toBe('CREATE_COMPLETE');
    expect(child.ParentId).toBe(parent.StackId);
    expect(child.RootId).toBe(parent.StackId);
    expect(parent.ParentId).toBeUndefined();
    expect(parent.Outputs).toEqual(
      expect.arrayContaining([
        { OutputKey: 'ChildId', OutputValue: child.StackId },
        { OutputKey: 'Said', OutputValue: `hello from ${child.StackName}` },
      ]),
    );
    expect(child.Parameters).toEqual([{ ParameterKey: 'Greeting', ParameterValue: 'hello' }]);
    expect(child.TimeoutInMinutes).toBe(7);
    expect(child.NotificationARNs).toEqual(['arn:aws:sns:us-east-1:000000000000:topic']);
    expect(child.Tags).toEqual([
      { Key: 'team', Value: 'a' },
      { Key: 'own', Value: '1' },
    ]);
    expect(await eventLines(server.client, child.StackId!, true)).toEqual([
      `${child.StackName} CREATE_IN_PROGRESS: User Initiated`,
      'Item CREATE_IN_PROGRESS',
      'Item CREATE_IN_PROGRESS: Resource creation Initiated',
      'Item CREATE_COMPLETE',
      `${child.StackName} CREATE_COMPLETE`,
    ]);
    expect(await resourceLines(server.client, 'tree', 'Child', true)).toEqual([
      'Child CREATE_IN_PROGRESS',
      'Child CREATE_IN_PROGRESS: Resource creation Initiated',
      'Child CREATE_COMPLETE',
    ]);
  });

  it('lists the child in ListStacks and DescribeStacks with its ParentId and RootId', async () => {
    const child = await childOf(server.client, 'tree', 'Child');
    const { StackSummaries } = await server.client.send(new ListStacksCommand({}));
    expect(StackSummaries!.find((s) => s.StackId === child.StackId)).toMatchObject({
      ParentId: child.ParentId,
      RootId: child.RootId,
    });
    const { Stacks } = await server.client.send(new DescribeStacksCommand({}));
    expect(Stacks!.map((s) => s.StackId)).toContain(child.StackId);
  });

  it('gives the child the capabilities of the root call, and fails the resource when they are missing', async () => {
    const url = await putTemplate(
      server,
      `Resources:\n  Role:\n    Type: AWS::IAM::Role\n    Properties:\n      AssumeRolePolicyDocument: {}\n`,
    );
    const ok = await create('caps-ok', `Resources:\n${nested('Child', url)}`, { Capabilities: ['CAPABILITY_IAM'] });
    expect(ok.StackStatus).toBe('CREATE_COMPLETE');
    expect((await childOf(server.client, 'caps-ok', 'Child')).Capabilities).toEqual(['CAPABILITY_IAM']);
    const refused = await create('caps-missing', `Resources:\n${nested('Child', url)}`);
    expect(refused.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(await resourceLines(server.client, 'caps-missing', 'Child', true)).toContain(
      'Child CREATE_FAILED: Requires capabilities : [CAPABILITY_IAM]',
    );
  });
});

describe('a failure inside a nested stack', () => {
  it('fails the parent resource with the Embedded stack text, and the parent rollback deletes the child', async () => {
    const url = await putTemplate(
      server,
      `Resources:\n${param('Good')}${param('Bad', '    DependsOn: Good\n' + failing('Create'))}`,
    );
    const parent = await create('fails', `Resources:\n${nested('Child', url)}`);
    expect(parent.StackStatus).toBe('ROLLBACK_COMPLETE');
    const child = await childOf(server.client, 'fails', 'Child');
    expect(child.StackStatus).toBe('DELETE_COMPLETE');
    const text = `Embedded stack ${child.StackId} was not successfully created: The following resource(s) failed to create: [Bad].`;
    expect(await eventLines(server.client, 'fails', true)).toEqual([
      'fails CREATE_IN_PROGRESS: User Initiated',
      'Child CREATE_IN_PROGRESS',
      'Child CREATE_IN_PROGRESS: Resource creation Initiated',
      `Child CREATE_FAILED: ${text}`,
      'fails ROLLBACK_IN_PROGRESS: The following resource(s) failed to create: [Child]. Rollback requested by user.',
      'Child DELETE_IN_PROGRESS',
      'Child DELETE_COMPLETE',
      'fails ROLLBACK_COMPLETE',
    ]);
    expect((await eventLines(server.client, child.StackId!)).map((l) => l.replace(child.StackName!, 'child'))).toEqual([
      'child CREATE_IN_PROGRESS',
      'Good CREATE_IN_PROGRESS',
      'Good CREATE_IN_PROGRESS',
      'Good CREATE_COMPLETE',
      'Bad CREATE_IN_PROGRESS',
      'Bad CREATE_IN_PROGRESS',
      'Bad CREATE_FAILED',
      'child ROLLBACK_IN_PROGRESS',
      'Bad DELETE_COMPLETE',
      'Good DELETE_IN_PROGRESS',
      'Good DELETE_COMPLETE',
      'child ROLLBACK_COMPLETE',
      'child DELETE_IN_PROGRESS',
      'child DELETE_COMPLETE',
    ]);
  });

  it('keeps the tree in CREATE_FAILED under OnFailure DO_NOTHING, and DeleteStack then deletes the failed child', async () => {
    const url = await putTemplate(server, `Resources:\n${param('Bad', failing('Create'))}`);
    const parent = await create('kept', `Resources:\n${nested('Child', url)}`, { OnFailure: 'DO_NOTHING' });
    expect(parent.StackStatus).toBe('CREATE_FAILED');
    const child = await childOf(server.client, 'kept', 'Child');
    expect(child.StackStatus).toBe('CREATE_FAILED');
    await server.client.send(new DeleteStackCommand({ StackName: 'kept' }));
    expect((await waitForStack(server.client, parent.StackId!)).StackStatus).toBe('DELETE_COMPLETE');
    expect((await waitForStack(server.client, child.StackId!)).StackStatus).toBe('DELETE_COMPLETE');
  });

  it('reaches the root from a grandchild failing three levels down, and the rollback empties the whole tree', async () => {
    const leaf = await putTemplate(server, `Resources:\n${param('Leaf', failing('Create'))}`);
    const middle = await putTemplate(server, `Resources:\n${param('Sibling')}${nested('Grandchild', leaf)}`);
    const root = await create('three', `Resources:\n${nested('Middle', middle)}`);
    expect(root.StackStatus).toBe('ROLLBACK_COMPLETE');
    const mid = await childOf(server.client, 'three', 'Middle');
    expect(mid.StackStatus).toBe('DELETE_COMPLETE');
    expect(await resourceLines(server.client, mid.StackId!, 'Grandchild', true)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^Grandchild CREATE_FAILED: Embedded stack arn:aws:cloudformation:us-east-1:000000000000:stack\/three-Middle-[A-Z0-9]{13}-Grandchild-[A-Z0-9]{13}\/[-0-9a-f]+ was not successfully created: The following resource\(s\) failed to create: \[Leaf\]\.$/,
        ),
      ]),
    );
    expect(await resourceLines(server.client, 'three', 'Middle', true)).toContain(
      `Middle CREATE_FAILED: Embedded stack ${mid.StackId} was not successfully created: The following resource(s) failed to create: [Grandchild].`,
    );
    const { StackSummaries } = await server.client.send(new ListStacksCommand({}));
    const tree = StackSummaries!.filter((s) => s.RootId === root.StackId);
    expect(tree).toHaveLength(2);
    expect(tree.every((s) => s.StackStatus === 'DELETE_COMPLETE')).toBe(true);
  });
});
