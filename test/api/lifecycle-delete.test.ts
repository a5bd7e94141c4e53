// DeleteStack when resources will not go: DELETE_FAILED listing every failure, independent branches continuing,
// resuming, RetainResources; real refusals from the simulated account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  ListStackResourcesCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { eventLines, resourceLines } from '../helpers/events.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const param = (id: string, extra = '') =>
  `  ${id}:\n    Type: AWS::SSM::Parameter\n${extra}    Properties:\n      Type: String\n      Value: ${id}\n`;
const stuck = '    Metadata:\n      cfn-local:\n        Fail: [Delete]\n        Message: "Delete refused"\n';

async function create(name: string, body: string) {
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: name, TemplateBody: body }));
  const stack = await waitForStack(server.client, StackId!);
  expect(stack.StackStatus).toBe('CREATE_COMPLETE');
  return stack.StackId!;
}

async function remove(name: string, extra: Record<string, unknown> = {}) {
  const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: name }));
  await server.client.send(new DeleteStackCommand({ StackName: name, ...extra }));
  return waitForStack(server.client, Stacks![0].StackId!);
}

async function statuses(name: string) {
  const { StackResourceSummaries } = await server.client.send(new ListStackResourcesCommand({ StackName: name }));
  return Object.fromEntries(StackResourceSummaries!.map((r) => [r.LogicalResourceId, r.ResourceStatus]));
}

async function world(type: string) {
  const res = await fetch(`${server.endpoint}/_cfn-local/world?type=${encodeURIComponent(type)}`);
  return ((await res.json()) as { resources: { physicalId: string; stackId?: string; logicalId?: string }[] })
    .resources;
}

async function patchWorld(physicalId: string, body: unknown) {
  const res = await fetch(`${server.endpoint}/_cfn-local/world/${encodeURIComponent(physicalId)}`, {
    method: 'PATCH',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  expect(res.status).toBe(200);
}

describe('DeleteStack with failures', () => {
  it('keeps deleting independent resources, keeps what a failed one depends on, and lists every failure', async () => {
    // Base ← A (stuck), Base ← B (stuck), Free is independent
    const body = `Resources:\n${param('Base')}${param('A', `    DependsOn: Base\n${stuck}`)}${param('B', `    DependsOn: Base\n${stuck}`)}${param('Free')}`;
    await create('delfail', body);
    const stack = await remove('delfail');
    expect(stack).toMatchObject({
      StackStatus: 'DELETE_FAILED',
      StackStatusReason: 'The following resource(s) failed to delete: [A, B]. ',
    });
    expect(await statuses('delfail')).toEqual({
      Base: 'CREATE_COMPLETE',
      A: 'DELETE_FAILED',
      B: 'DELETE_FAILED',
      Free: 'DELETE_COMPLETE',
    });
    expect(await resourceLines(server.client, 'delfail', 'Base')).not.toContain('Base DELETE_IN_PROGRESS');
  });

  it('RetainResources is refused outside DELETE_FAILED and for resources already deleted', async () => {
    await expect(
      server.client.send(new DeleteStackCommand({ StackName: 'delfail', RetainResources: ['Free'] })),
    ).rejects.toThrow(
      'The specified resources to retain must be in a valid state. Do not specify resources that are in the DELETE_COMPLETE state.',
    );
    await create('notfailed', `Resources:\n${param('X')}`);
    await expect(
      server.client.send(new DeleteStackCommand({ StackName: 'notfailed', RetainResources: ['X'] })),
    ).rejects.toThrow(/RetainResources can only be specified when a stack is in the DELETE_FAILED state/);
  });

  it('DeleteStack with RetainResources skips them (DELETE_SKIPPED) and completes; they stay in the account', async () => {
    const stack = await remove('delfail', { RetainResources: ['A', 'B'] });
    expect(stack.StackStatus).toBe('DELETE_COMPLETE');
    const lines = await eventLines(server.client, stack.StackId!);
    const last = lines.slice(lines.lastIndexOf('delfail DELETE_IN_PROGRESS'));
    expect(last).toEqual([
      'delfail DELETE_IN_PROGRESS',
      expect.stringMatching(/^[AB] DELETE_SKIPPED$/),
      expect.stringMatching(/^[AB] DELETE_SKIPPED$/),
      'Base DELETE_IN_PROGRESS',
      'Base DELETE_COMPLETE',
      'delfail DELETE_COMPLETE',
    ]);
    const kept = (await world('AWS::SSM::Parameter')).filter(
      (r) => r.physicalId.startsWith('CFN-A-') || r.physicalId.startsWith('CFN-B-'),
    );
    expect(kept).toHaveLength(2);
    expect(kept.every((r) => r.stackId === undefined)).toBe(true);
  });
});

describe('refusals from the simulated account', () => {
  it('a bucket holding objects refuses deletion (BucketNotEmpty) until it is emptied; the retry resumes', async () => {
    const id = await create('bucket', `Resources:\n  Data:\n    Type: AWS::S3::Bucket\n${param('Other')}`);
    const [bucket] = (await world('AWS::S3::Bucket')).filter((r) => r.stackId === id);
    await patchWorld(bucket.physicalId, { dataItems: 3 });
    const failed = await remove('bucket');
    expect(failed.StackStatus).toBe('DELETE_FAILED');
    const reason = (await resourceLines(server.client, 'bucket', 'Data', true)).find((l) =>
      l.startsWith('Data DELETE_FAILED'),
    )!;
    expect(reason).toMatch(
      /^Data DELETE_FAILED: Resource handler returned message: "The bucket you tried to delete is not empty \(Service: S3, Status Code: 409, Request ID: [^)]+\)" \(RequestToken: [^,]+, HandlerErrorCode: GeneralServiceException\)$/,
    );
    expect(await statuses('bucket')).toEqual({ Data: 'DELETE_FAILED', Other: 'DELETE_COMPLETE' });
    // still refused on a plain retry
    expect((await remove('bucket')).StackStatus).toBe('DELETE_FAILED');
    await patchWorld(bucket.physicalId, { dataItems: 0 });
    const done = await remove('bucket');
    expect(done.StackStatus).toBe('DELETE_COMPLETE');
    const lastDelete = await eventLines(server.client, id);
    expect(lastDelete.slice(-4)).toEqual([
      'bucket DELETE_IN_PROGRESS',
      'Data DELETE_IN_PROGRESS',
      'Data DELETE_COMPLETE',
      'bucket DELETE_COMPLETE',
    ]);
  });

  it('an IAM role with a policy attached outside the stack refuses with DeleteConflict', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({
        StackName: 'role',
        Capabilities: ['CAPABILITY_IAM'],
        TemplateBody:
          'Resources:\n  Role:\n    Type: AWS::IAM::Role\n    Properties:\n      AssumeRolePolicyDocument: {Version: "2012-10-17", Statement: []}\n',
      }),
    );
    await waitForStack(server.client, StackId!);
    const [role] = (await world('AWS::IAM::Role')).filter((r) => r.stackId === StackId);
    await patchWorld(role.physicalId, { attachedOutside: ['arn:aws:iam::aws:policy/ReadOnlyAccess'] });
    expect((await remove('role')).StackStatus).toBe('DELETE_FAILED');
    expect((await resourceLines(server.client, 'role', 'Role', true)).at(-1)).toContain(
      'Cannot delete entity, must detach all policies first. (Service: Iam, Status Code: 409',
    );
  });

  it('a resource deleted out of band counts as deleted', async () => {
    const id = await create('oob', `Resources:\n${param('Gone')}`);
    const [p] = (await world('AWS::SSM::Parameter')).filter((r) => r.stackId === id);
    expect((await fetch(`${server.endpoint}/_cfn-local/world/${p.physicalId}`, { method: 'DELETE' })).status).toBe(200);
    expect((await remove('oob')).StackStatus).toBe('DELETE_COMPLETE');
  });
});

// AWS accepts DeleteStack while the stack is still being created (the console's Delete is enabled in
// CREATE_IN_PROGRESS): the create stops, the resource in flight is cancelled ("Resource creation cancelled"), and
// what the create made is deleted, with no rollback in between.
describe('DeleteStack during CREATE_IN_PROGRESS', () => {
  it('stops the create and deletes what it made: DELETE_IN_PROGRESS (User Initiated), then DELETE_COMPLETE', async () => {
    const slow = '    DependsOn: Made\n';
    // Only the create of Slow is slow (a Metadata DelayMs would slow its delete too).
    await fetch(`${server.endpoint}/_cfn-local/faults`, {
      method: 'POST',
      body: JSON.stringify({ stackName: 'mid-create', logicalId: 'Slow', action: 'Create', times: 0, delayMs: 60000 }),
    });
    const { StackId } = await server.client.send(
      new CreateStackCommand({
        StackName: 'mid-create',
        TemplateBody: `Resources:\n${param('Made')}${param('Slow', slow)}`,
      }),
    );
    while ((await statuses(StackId!)).Slow !== 'CREATE_IN_PROGRESS') await new Promise((r) => setTimeout(r, 5));
    await server.client.send(new DeleteStackCommand({ StackName: 'mid-create' }));
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('DELETE_COMPLETE');
    const lines = await eventLines(server.client, StackId!, true);
    expect(lines.filter((l) => l.startsWith('mid-create '))).toEqual([
      'mid-create CREATE_IN_PROGRESS: User Initiated',
      'mid-create DELETE_IN_PROGRESS: User Initiated',
      'mid-create DELETE_COMPLETE',
    ]);
    expect(lines).toContain('Slow CREATE_FAILED: Resource creation cancelled');
    expect(lines.filter((l) => l.startsWith('Made ')).slice(-2)).toEqual([
      'Made DELETE_IN_PROGRESS',
      'Made DELETE_COMPLETE',
    ]);
    expect((await world('AWS::SSM::Parameter')).filter((r) => r.stackId === StackId)).toEqual([]);
  });
});
