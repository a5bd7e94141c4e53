// DeletionPolicy (Delete / Retain / Snapshot / RetainExceptOnCreate), the RetainExceptOnCreate option and
// UpdateReplacePolicy, in each case AWS applies them (AWS's DeletionPolicy and UpdateReplacePolicy attribute pages).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  ListExportsCommand,
  ListStackResourcesCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { resourceLines } from '../helpers/events.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const named = (id: string, name: string, policy = '', extra = '') =>
  `  ${id}:\n    Type: AWS::SSM::Parameter\n${policy ? `    DeletionPolicy: ${policy}\n` : ''}${extra}    Properties:\n      Name: ${name}\n      Type: String\n      Value: v\n`;
const failing = (id: string, dependsOn?: string) =>
  `  ${id}:\n    Type: AWS::SSM::Parameter\n${dependsOn ? `    DependsOn: ${dependsOn}\n` : ''}    Metadata:\n      cfn-local:\n        Fail: [Create]\n    Properties:\n      Type: String\n      Value: v\n`;

async function run(name: string, body: string, extra: Record<string, unknown> = {}) {
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: name, TemplateBody: body, ...extra }),
  );
  return waitForStack(server.client, StackId!);
}

async function remove(id: string) {
  await server.client.send(new DeleteStackCommand({ StackName: id }));
  return waitForStack(server.client, id);
}

async function inWorld(physicalId: string): Promise<{ stackId?: string } | undefined> {
  const res = await fetch(`${server.endpoint}/_cfn-local/world`);
  return ((await res.json()) as { resources: { physicalId: string; stackId?: string }[] }).resources.find(
    (r) => r.physicalId === physicalId,
  );
}

describe('DeletionPolicy Retain', () => {
  it('on stack delete: a single DELETE_SKIPPED, the resource survives and is listed DELETE_SKIPPED by stack id', async () => {
    const stack = await run('keep', `Resources:\n${named('Kept', 'kept-param', 'Retain')}`);
    const deleted = await remove(stack.StackId!);
    expect(deleted.StackStatus).toBe('DELETE_COMPLETE');
    expect(await resourceLines(server.client, stack.StackId!, 'Kept')).toEqual([
      'Kept CREATE_IN_PROGRESS',
      'Kept CREATE_IN_PROGRESS',
      'Kept CREATE_COMPLETE',
      'Kept DELETE_SKIPPED',
    ]);
    expect(await inWorld('kept-param')).toBeDefined();
    expect((await inWorld('kept-param'))!.stackId).toBeUndefined();
    const { StackResourceSummaries } = await server.client.send(
      new ListStackResourcesCommand({ StackName: stack.StackId! }),
    );
    expect(StackResourceSummaries).toMatchObject([{ LogicalResourceId: 'Kept', ResourceStatus: 'DELETE_SKIPPED' }]);
  });

  it('the retained leftover keeps its name taken: the next deploy of the same template collides with AlreadyExists', async () => {
    // pre-deployment validation off, so the create itself meets the taken name
    const stack = await run('collide', `Resources:\n${named('Kept', 'kept-param', 'Retain')}`, {
      DisableValidation: true,
    });
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const reason = (await resourceLines(server.client, stack.StackId!, 'Kept', true)).find((l) =>
      l.includes('CREATE_FAILED'),
    );
    expect(reason).toMatch(
      /^Kept CREATE_FAILED: Resource handler returned message: "Resource of type 'AWS::SSM::Parameter' with identifier 'kept-param' already exists\." \(RequestToken: [^,]+, HandlerErrorCode: AlreadyExists\)$/,
    );
  });

  it('in a create rollback with the default RetainExceptOnCreate=false: DELETE_SKIPPED, left standing', async () => {
    const stack = await run('rb-retain', `Resources:\n${named('Kept', 'rb-kept', 'Retain')}${failing('Bad', 'Kept')}`);
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect((await resourceLines(server.client, stack.StackId!, 'Kept')).at(-1)).toBe('Kept DELETE_SKIPPED');
    expect(await inWorld('rb-kept')).toBeDefined();
  });

  it('in a create rollback with RetainExceptOnCreate=true: deleted', async () => {
    const stack = await run(
      'rb-except',
      `Resources:\n${named('Kept', 'rb-except-kept', 'Retain')}${failing('Bad', 'Kept')}`,
      { RetainExceptOnCreate: true },
    );
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect((await resourceLines(server.client, stack.StackId!, 'Kept')).slice(-2)).toEqual([
      'Kept DELETE_IN_PROGRESS',
      'Kept DELETE_COMPLETE',
    ]);
    expect(await inWorld('rb-except-kept')).toBeUndefined();
  });

  it('on removal from the template by an update: DELETE_SKIPPED, and the resource leaves the stack', async () => {
    const stack = await run(
      'removal',
      `Resources:\n${named('Kept', 'removed-kept', 'Retain')}${named('Other', 'removal-other')}`,
    );
    await server.client.send(
      new UpdateStackCommand({ StackName: 'removal', TemplateBody: `Resources:\n${named('Other', 'removal-other')}` }),
    );
    expect((await waitForStack(server.client, stack.StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
    expect((await resourceLines(server.client, 'removal', 'Kept')).at(-1)).toBe('Kept DELETE_SKIPPED');
    const { StackResourceSummaries } = await server.client.send(
      new ListStackResourcesCommand({ StackName: 'removal' }),
    );
    expect(StackResourceSummaries!.map((r) => r.LogicalResourceId)).toEqual(['Other']);
    expect(await inWorld('removed-kept')).toBeDefined();
  });

  it('in an update rollback over a resource that update created: DELETE_SKIPPED and dropped from the stack', async () => {
    const stack = await run('urb-retain', `Resources:\n${named('Base', 'urb-base')}`);
    await server.client.send(
      new UpdateStackCommand({
        StackName: 'urb-retain',
        TemplateBody: `Resources:\n${named('Base', 'urb-base')}${named('Added', 'urb-added', 'Retain')}${failing('Bad', 'Added')}`,
      }),
    );
    expect((await waitForStack(server.client, stack.StackId!)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect((await resourceLines(server.client, 'urb-retain', 'Added')).at(-1)).toBe('Added DELETE_SKIPPED');
    const { StackResourceSummaries } = await server.client.send(
      new ListStackResourcesCommand({ StackName: 'urb-retain' }),
    );
    expect(StackResourceSummaries!.map((r) => r.LogicalResourceId)).toEqual(['Base']);
    expect(await inWorld('urb-added')).toBeDefined();
  });
});

describe('DeletionPolicy RetainExceptOnCreate', () => {
  it('is deleted during its own create rollback and retained on an ordinary delete', async () => {
    const failed = await run(
      'reoc-1',
      `Resources:\n${named('R', 'reoc-1', 'RetainExceptOnCreate')}${failing('Bad', 'R')}`,
    );
    expect(failed.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(await inWorld('reoc-1')).toBeUndefined();
    const ok = await run('reoc-2', `Resources:\n${named('R', 'reoc-2', 'RetainExceptOnCreate')}`);
    await remove(ok.StackId!);
    expect((await resourceLines(server.client, ok.StackId!, 'R')).at(-1)).toBe('R DELETE_SKIPPED');
    expect(await inWorld('reoc-2')).toBeDefined();
  });
});

describe('DeletionPolicy Snapshot', () => {
  const db = (id: string, policy = '') =>
    `  ${id}:\n    Type: AWS::RDS::DBInstance\n${policy ? `    DeletionPolicy: ${policy}\n` : ''}    Properties:\n      DBInstanceClass: db.t3.micro\n      Engine: postgres\n      AllocatedStorage: "20"\n      MasterUsername: admin\n      MasterUserPassword: secret123\n`;

  it('snapshots an RDS instance (its default policy) and then deletes it: DELETE_COMPLETE, never DELETE_SKIPPED', async () => {
    const stack = await run('snap', `Resources:\n${db('Db')}`);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    await remove(stack.StackId!);
    expect((await resourceLines(server.client, stack.StackId!, 'Db')).slice(-2)).toEqual([
      'Db DELETE_IN_PROGRESS',
      'Db DELETE_COMPLETE',
    ]);
    const res = await fetch(`${server.endpoint}/_cfn-local/world?type=cfn-local::Snapshot`);
    const snapshots = ((await res.json()) as { resources: { properties: { SourceType: string } }[] }).resources;
    expect(snapshots.map((s) => s.properties.SourceType)).toEqual(['AWS::RDS::DBInstance']);
  });

  it('simply deletes a type without snapshot support', async () => {
    const stack = await run('snap2', `Resources:\n${named('P', 'snap2-p', 'Snapshot')}`);
    await remove(stack.StackId!);
    expect((await resourceLines(server.client, stack.StackId!, 'P')).at(-1)).toBe('P DELETE_COMPLETE');
    const res = await fetch(`${server.endpoint}/_cfn-local/world?type=cfn-local::Snapshot`);
    expect(((await res.json()) as { resources: unknown[] }).resources).toHaveLength(1);
  });
});

describe('UpdateReplacePolicy', () => {
  it('Retain keeps the old copy of a replaced resource (DELETE_SKIPPED), untracked by the stack', async () => {
    const body = (name: string) =>
      `Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    UpdateReplacePolicy: Retain\n    Properties:\n      Name: ${name}\n      Type: String\n      Value: v\n`;
    const stack = await run('urp', body('urp-old'));
    await server.client.send(new UpdateStackCommand({ StackName: 'urp', TemplateBody: body('urp-new') }));
    expect((await waitForStack(server.client, stack.StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
    expect((await resourceLines(server.client, 'urp', 'P')).at(-1)).toBe('P DELETE_SKIPPED');
    expect(await inWorld('urp-old')).toBeDefined();
    expect((await inWorld('urp-old'))!.stackId).toBeUndefined();
    expect(await inWorld('urp-new')).toMatchObject({ stackId: stack.StackId });
  });
});

describe('rollback of a replacement', () => {
  const body = (name: string, urp: string, failQ = false) => `Resources:
  P:
    Type: AWS::SSM::Parameter
    DeletionPolicy: Retain
${urp ? `    UpdateReplacePolicy: ${urp}\n` : ''}    Properties:
      Name: ${name}
      Type: String
      Value: v
  Q:
    Type: AWS::SSM::Parameter
    DependsOn: P
${failQ ? '    Metadata:\n      cfn-local:\n        Fail: [Update]\n' : ''}    Properties:
      Type: String
      Value: ${failQ ? 'changed' : 'q'}
`;

  it('deletes the new copy in UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS whatever its DeletionPolicy', async () => {
    const stack = await run('rr-delete', body('rr-old', ''));
    await server.client.send(
      new UpdateStackCommand({ StackName: 'rr-delete', TemplateBody: body('rr-new', '', true) }),
    );
    expect((await waitForStack(server.client, stack.StackId!)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(await inWorld('rr-new')).toBeUndefined();
    expect(await inWorld('rr-old')).toMatchObject({ stackId: stack.StackId });
  });

  it('under UpdateReplacePolicy Retain reports the new copy DELETE_SKIPPED and orphans it', async () => {
    const stack = await run('rr-retain', body('rrr-old', 'Retain'));
    await server.client.send(
      new UpdateStackCommand({ StackName: 'rr-retain', TemplateBody: body('rrr-new', 'Retain', true) }),
    );
    expect((await waitForStack(server.client, stack.StackId!)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect((await resourceLines(server.client, 'rr-retain', 'P')).at(-1)).toBe('P DELETE_SKIPPED');
    expect(await inWorld('rrr-new')).toBeDefined();
    expect((await inWorld('rrr-new'))!.stackId).toBeUndefined();
  });
});

describe('exports', () => {
  it("an export in use blocks the exporter's delete (back to its status with AWS's reason) and its removal by update", async () => {
    const exporter = await run(
      'exporter',
      `Resources:\n${named('P', 'exp-p')}Outputs:\n  Name:\n    Value: !Ref P\n    Export:\n      Name: shared-name\n`,
    );
    const importer = await run(
      'importer',
      `Resources:\n  Q:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: !ImportValue shared-name\n`,
    );
    expect(importer.StackStatus).toBe('CREATE_COMPLETE');
    await server.client.send(new DeleteStackCommand({ StackName: 'exporter' }));
    const back = await waitForStack(server.client, exporter.StackId!);
    expect(back).toMatchObject({
      StackStatus: 'CREATE_COMPLETE',
      StackStatusReason: 'Export shared-name cannot be deleted as it is in use by importer',
    });
    await server.client.send(
      new UpdateStackCommand({ StackName: 'exporter', TemplateBody: `Resources:\n${named('P', 'exp-p')}` }),
    );
    const rolledBack = await waitForStack(server.client, exporter.StackId!);
    expect(rolledBack.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'exporter' }));
    expect(Stacks![0].Outputs).toEqual([{ OutputKey: 'Name', OutputValue: 'exp-p', ExportName: 'shared-name' }]);
  });

  // An update that changes an imported export's value fails and rolls back: "Export <name> cannot be updated as it
  // is in use by <stack>" (public console output, linz/geostore#630), so no importer holds a stale value.
  it("an update changing an export's value while it is imported rolls back with AWS's reason", async () => {
    const exporter = await run(
      'val-exporter',
      `Resources:\n${named('P', 'val-p')}Outputs:\n  Name:\n    Value: one\n    Export:\n      Name: val-name\n`,
    );
    expect(exporter.StackStatus).toBe('CREATE_COMPLETE');
    expect(
      (
        await run(
          'val-importer',
          `Resources:\n  Q:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: !ImportValue val-name\n`,
        )
      ).StackStatus,
    ).toBe('CREATE_COMPLETE');
    await server.client.send(
      new UpdateStackCommand({
        StackName: 'val-exporter',
        TemplateBody: `Resources:\n${named('P', 'val-p')}Outputs:\n  Name:\n    Value: two\n    Export:\n      Name: val-name\n`,
      }),
    );
    expect((await waitForStack(server.client, exporter.StackId!)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: 'val-exporter' }));
    const rolling = StackEvents!.find((e) => e.ResourceStatus === 'UPDATE_ROLLBACK_IN_PROGRESS');
    expect(rolling?.ResourceStatusReason).toMatch(/^Export val-name cannot be updated as it is in use by val-importer/);
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'val-exporter' }));
    expect(Stacks![0].Outputs).toEqual([{ OutputKey: 'Name', OutputValue: 'one', ExportName: 'val-name' }]);
    const { Exports } = await server.client.send(new ListExportsCommand({}));
    expect(Exports!.find((e) => e.Name === 'val-name')?.Value).toBe('one');
  });

  it('a second stack exporting the same name fails and rolls back', async () => {
    const dup = await run(
      'dup-export',
      `Resources:\n${named('P', 'dup-p')}Outputs:\n  Name:\n    Value: x\n    Export:\n      Name: shared-name\n`,
    );
    expect(dup.StackStatus).toBe('ROLLBACK_COMPLETE');
  });
});
