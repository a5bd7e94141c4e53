// How many accounts of a region a stack set operation runs at once (MaxConcurrentCount, MaxConcurrentPercentage,
// the STRICT_FAILURE_TOLERANCE cap and SOFT_FAILURE_TOLERANCE), and managed execution queueing an operation behind
// a running one. Each instance's stack waits on a wait condition, so the accounts in flight stay RUNNING until the
// test signals them: what is RUNNING and what is PENDING is read at a point nothing can move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateStackInstancesCommand,
  CreateStackSetCommand,
  DescribeStackSetOperationCommand,
  UpdateStackSetCommand,
  type CloudFormationClient,
  type StackSetOperationPreferences,
} from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  A,
  ADMIN,
  B,
  C,
  WAITING_TEMPLATE,
  clientFor,
  resultsOf,
  runningHandles,
  signalHandle,
  untilRunning,
  waitForOperation,
} from './stackSetsHelpers.js';

const D = '555555555555';
const ACCOUNTS = [A, B, C, D];

let server: TestServer;
let cfn: CloudFormationClient;
beforeAll(async () => {
  server = await startServer();
  cfn = clientFor(server, ADMIN);
});
afterAll(() => server.close());

/** Starts a create of instances in `accounts` (one region) with the preferences, on a new set of waiting stacks. */
async function startCreate(name: string, prefs: StackSetOperationPreferences, accounts = ACCOUNTS) {
  await cfn.send(new CreateStackSetCommand({ StackSetName: name, TemplateBody: WAITING_TEMPLATE }));
  const { OperationId } = await cfn.send(
    new CreateStackInstancesCommand({
      StackSetName: name,
      Accounts: accounts,
      Regions: ['us-east-1'],
      OperationPreferences: prefs,
    }),
  );
  return OperationId!;
}

const statusesOf = async (name: string, id: string) => (await resultsOf(cfn, name, id)).map((r) => r.Status).sort();

/** Signals every account once as it comes to run, until the operation ends. */
async function drain(name: string, id: string) {
  const signalled = new Set<string>();
  for (;;) {
    const { StackSetOperation: op } = await cfn.send(
      new DescribeStackSetOperationCommand({ StackSetName: name, OperationId: id }),
    );
    if (op!.Status !== 'RUNNING' && op!.Status !== 'QUEUED') return op!;
    for (const [target, url] of await runningHandles(server, cfn, name, id)) {
      if (signalled.has(target)) continue;
      signalled.add(target);
      await signalHandle(url);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('concurrent accounts of a region', () => {
  it.each([
    [
      'MaxConcurrentCount 2 with FailureToleranceCount 1',
      'count',
      { MaxConcurrentCount: 2, FailureToleranceCount: 1 },
      2,
    ],
    [
      'MaxConcurrentPercentage 50 of 4 accounts with FailureTolerancePercentage 50',
      'percentage',
      { MaxConcurrentPercentage: 50, FailureTolerancePercentage: 50 },
      2,
    ],
    [
      'MaxConcurrentCount 3 capped at the tolerance + 1 (STRICT_FAILURE_TOLERANCE, tolerance 0)',
      'strict',
      { MaxConcurrentCount: 3 },
      1,
    ],
    [
      'MaxConcurrentCount 3 with SOFT_FAILURE_TOLERANCE (no cap)',
      'soft',
      { MaxConcurrentCount: 3, ConcurrencyMode: 'SOFT_FAILURE_TOLERANCE' as const },
      3,
    ],
  ])('%s: that many accounts RUNNING, the others PENDING', async (_title, name, prefs, running) => {
    const id = await startCreate(name, prefs);
    const handles = await untilRunning(server, cfn, name, id, running);
    expect(handles.size).toBe(running);
    // nothing else can start before a running account ends, and none ends before it is signalled
    expect(await statusesOf(name, id)).toEqual([
      ...Array<string>(ACCOUNTS.length - running).fill('PENDING'),
      ...Array<string>(running).fill('RUNNING'),
    ]);
    expect((await drain(name, id)).Status).toBe('SUCCEEDED');
    expect(await statusesOf(name, id)).toEqual(ACCOUNTS.map(() => 'SUCCEEDED'));
  });
});

describe('ManagedExecution', () => {
  it('Active: an operation started while another runs waits QUEUED, then runs once it ends', async () => {
    const name = 'managed';
    await cfn.send(
      new CreateStackSetCommand({
        StackSetName: name,
        TemplateBody: WAITING_TEMPLATE,
        ManagedExecution: { Active: true },
      }),
    );
    const first = await cfn.send(
      new CreateStackInstancesCommand({ StackSetName: name, Accounts: [A], Regions: ['us-east-1'] }),
    );
    await untilRunning(server, cfn, name, first.OperationId!, 1);
    const second = await cfn.send(
      new UpdateStackSetCommand({ StackSetName: name, UsePreviousTemplate: true, Description: 'queued' }),
    );
    const { StackSetOperation: queued } = await cfn.send(
      new DescribeStackSetOperationCommand({ StackSetName: name, OperationId: second.OperationId }),
    );
    expect(queued).toMatchObject({ Action: 'UPDATE', Status: 'QUEUED' });
    expect((await drain(name, first.OperationId!)).Status).toBe('SUCCEEDED');
    // the update finds the stack complete: nothing to wait on, it ends by itself
    expect((await waitForOperation(cfn, name, second.OperationId!)).Status).toBe('SUCCEEDED');
  });
});
