// Walks the status machine's table: for every stack status a test can reach and every operation a caller can start,
// the API allows exactly what state-machine/statuses.ts allows and refuses the rest with AWS's text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CancelUpdateStackCommand,
  ContinueUpdateRollbackCommand,
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteStackCommand,
  RollbackStackCommand,
  UpdateStackCommand,
  DescribeStacksCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { ManualTimers } from '../helpers/timers.js';
import {
  canStart,
  OPERATION_STARTS,
  STACK_STATUSES,
  STACK_TRANSITIONS,
  type StackOperation,
  type StackStatus,
} from '../../state-machine/statuses.js';

let server: TestServer;
let counter = 0;
// A DelayMs holds an update in UPDATE_IN_PROGRESS until the test moves these timers: no race with real time.
const timers = new ManualTimers();
beforeAll(async () => {
  server = await startServer({ timers });
});
afterAll(async () => {
  await timers.advance(HOLD_MS);
  await server.close();
});

/** How long an update is held in progress (until afterAll moves time past it). */
const HOLD_MS = 60_000;
const ok = 'Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: a\n';
const changed = ok.replace('Value: a', 'Value: b');
const withFault = (fault: string, value = 'a') =>
  `Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Metadata:\n      cfn-local:\n${fault}    Properties:\n      Type: String\n      Value: ${value}\n`;

async function created(client: CloudFormationClient, name: string, body: string, extra: Record<string, unknown> = {}) {
  const { StackId } = await client.send(new CreateStackCommand({ StackName: name, TemplateBody: body, ...extra }));
  return waitForStack(client, StackId!);
}

async function updated(client: CloudFormationClient, name: string, body: string, extra: Record<string, unknown> = {}) {
  await client.send(new UpdateStackCommand({ StackName: name, TemplateBody: body, ...extra }));
  return waitForStack(client, name);
}

/** How to bring a fresh stack into each settled status through the API alone. */
const REACH: Partial<Record<StackStatus, (c: CloudFormationClient, name: string) => Promise<unknown>>> = {
  CREATE_COMPLETE: (c, n) => created(c, n, ok),
  UPDATE_COMPLETE: async (c, n) => (await created(c, n, ok), updated(c, n, changed)),
  ROLLBACK_COMPLETE: (c, n) => created(c, n, withFault('        Fail: [Create]\n')),
  ROLLBACK_FAILED: (c, n) =>
    created(
      c,
      n,
      `${withFault('        Fail: [Delete]\n')}  Q:\n    Type: AWS::SSM::Parameter\n    DependsOn: P\n    Metadata:\n      cfn-local:\n        Fail: [Create]\n    Properties:\n      Type: String\n      Value: q\n`,
    ),
  CREATE_FAILED: (c, n) => created(c, n, withFault('        Fail: [Create]\n'), { DisableRollback: true }),
  UPDATE_FAILED: async (c, n) => (
    await created(c, n, ok),
    updated(c, n, withFault('        Fail: [Update]\n', 'b'), { DisableRollback: true })
  ),
  UPDATE_ROLLBACK_COMPLETE: async (c, n) => (
    await created(c, n, ok),
    updated(c, n, withFault('        Fail: [Update]\n        Times: 1\n', 'b'))
  ),
  UPDATE_ROLLBACK_FAILED: async (c, n) => {
    await created(c, n, ok);
    await fetch(`${server.endpoint}/_cfn-local/faults`, {
      method: 'POST',
      body: JSON.stringify({ stackName: n, action: 'Update' }),
    });
    return updated(c, n, changed);
  },
  DELETE_FAILED: async (c, n) => {
    await created(c, n, withFault('        Fail: [Delete]\n'));
    await c.send(new DeleteStackCommand({ StackName: n }));
    return waitForStack(c, n);
  },
  REVIEW_IN_PROGRESS: (c, n) =>
    c.send(
      new CreateChangeSetCommand({ StackName: n, ChangeSetName: 'cs', ChangeSetType: 'CREATE', TemplateBody: ok }),
    ),
  UPDATE_IN_PROGRESS: async (c, n) => {
    await created(c, n, ok);
    await c.send(
      new UpdateStackCommand({ StackName: n, TemplateBody: withFault(`        DelayMs: ${HOLD_MS}\n`, 'b') }),
    );
  },
};

const START: Record<StackOperation, (c: CloudFormationClient, name: string) => Promise<unknown>> = {
  UpdateStack: (c, n) =>
    c.send(new UpdateStackCommand({ StackName: n, TemplateBody: ok.replace('Value: a', 'Value: z') })),
  DeleteStack: (c, n) => c.send(new DeleteStackCommand({ StackName: n })),
  CreateChangeSet: (c, n) =>
    c.send(
      new CreateChangeSetCommand({
        StackName: n,
        ChangeSetName: 'other',
        ChangeSetType: 'UPDATE',
        TemplateBody: ok.replace('Value: a', 'Value: z'),
      }),
    ),
  ExecuteChangeSet: async () => undefined,
  RollbackStack: (c, n) => c.send(new RollbackStackCommand({ StackName: n })),
  ContinueUpdateRollback: (c, n) => c.send(new ContinueUpdateRollbackCommand({ StackName: n })),
  CancelUpdateStack: (c, n) => c.send(new CancelUpdateStackCommand({ StackName: n })),
};

/** The texts AWS refuses each operation with. */
const REFUSAL: Record<StackOperation, (stackId: string, name: string, status: string) => RegExp> = {
  UpdateStack: (id, _n, s) => new RegExp(`^Stack:${escape(id)} is in ${s} state and can not be updated\\.$`),
  CreateChangeSet: (id, _n, s) => new RegExp(`^Stack:${escape(id)} is in ${s} state and can not be updated\\.$`),
  ExecuteChangeSet: () => /./,
  DeleteStack: (_id, n, s) => new RegExp(`^Stack \\[${n}\\] cannot be deleted while in status ${s}$`),
  RollbackStack: (id, _n, s) => new RegExp(`^Stack ${escape(id)} is in ${s} state and can not be rolled back\\.$`),
  ContinueUpdateRollback: (id, _n, s) =>
    new RegExp(`^Stack ${escape(id)} is in ${s} state and can not continue update rollback\\.$`),
  CancelUpdateStack: () => /^CancelUpdateStack cannot be called from current stack status$/,
};
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe('the transition table', () => {
  it.each(STACK_STATUSES.map((s) => [s]))('every status reached from %s is itself in the table', (status) => {
    for (const next of STACK_TRANSITIONS[status]) expect(STACK_STATUSES).toContain(next);
  });

  // The two AWS allows mid-operation: CancelUpdateStack of an update, and DeleteStack of a create (the create stops
  // and what it made is deleted: test/api/lifecycle-delete.test.ts).
  it('allows no operation to start from an *_IN_PROGRESS status except CancelUpdateStack, DeleteStack of a create (and DeleteStack/CreateChangeSet in review)', () => {
    const MID_OPERATION: Record<string, string> = {
      UPDATE_IN_PROGRESS: 'CancelUpdateStack',
      CREATE_IN_PROGRESS: 'DeleteStack',
    };
    for (const [operation, froms] of Object.entries(OPERATION_STARTS)) {
      for (const from of froms) {
        const inProgress = from.endsWith('_IN_PROGRESS') && from !== 'REVIEW_IN_PROGRESS';
        expect(inProgress ? `${from}: ${operation}` : 'settled').toBe(
          inProgress ? `${from}: ${MID_OPERATION[from]}` : 'settled',
        );
      }
    }
  });
});

const operations = (Object.keys(START) as StackOperation[]).filter((o) => o !== 'ExecuteChangeSet');
const cases = (Object.keys(REACH) as StackStatus[]).flatMap((status) => operations.map((op) => [status, op] as const));

describe('the API follows the table', () => {
  it.each(cases)('from %s, %s is allowed exactly when the table says so', async (status, operation) => {
    const name = `walk-${++counter}`;
    await REACH[status]!(server.client, name);
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: name }));
    expect(Stacks![0].StackStatus).toBe(status);
    const allowed =
      canStart(operation, status) && !(operation === 'CreateChangeSet' && status === 'REVIEW_IN_PROGRESS');
    let refusal: Error | undefined;
    try {
      await START[operation](server.client, name);
    } catch (err) {
      refusal = err as Error;
    }
    if (allowed) {
      // allowed: no refusal on account of the status (a later step may still fail for other reasons)
      expect(refusal?.message ?? '').not.toMatch(
        /state and can not|cannot be deleted while in status|cannot be called from current stack status/,
      );
    } else {
      expect(refusal?.name).toBe('ValidationError');
      expect(refusal?.message).toMatch(REFUSAL[operation](Stacks![0].StackId!, name, status));
    }
  });
});
