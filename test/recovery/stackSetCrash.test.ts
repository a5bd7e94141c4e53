// A stack set operation cut by SIGKILL: the built server is killed while the operation has accounts done and accounts
// to go, then started again on the same database. The operation must end as AWS's would have (SUCCEEDED, every
// instance CURRENT), with exactly one live stack per account and region. The stack of an account caught mid-create
// rolls back on restart (as any create cut short does) and the resumed operation replaces it, so that account also
// lists the rolled-back one, deleted.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CloudFormationClient,
  CreateStackInstancesCommand,
  CreateStackSetCommand,
  DeleteStackInstancesCommand,
  ListStacksCommand,
  ListStackSetOperationResultsCommand,
  type StackSetOperationResultSummary,
} from '@aws-sdk/client-cloudformation';
import { kill, start, type Running } from '../helpers/process.js';
import { instancesOf, waitForOperation } from '../api/stackSetsHelpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cfn-local-stackset-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ADMIN = '111111111111';
const ACCOUNTS = ['222222222222', '333333333333', '444444444444', '555555555555'];
const REGION = 'us-east-1';
/** Three parameters in a chain, each taking 60 ms: an instance takes long enough for a kill to land between two. */
const TEMPLATE = `Resources:
${[0, 1, 2]
  .map(
    (i) => `  P${i}:
    Type: AWS::SSM::Parameter
    ${i > 0 ? `DependsOn: P${i - 1}\n    ` : ''}Metadata: { cfn-local: { DelayMs: 60 } }
    Properties: { Type: String, Value: v${i} }`,
  )
  .join('\n')}
`;

const clientOf = (run: Running, account: string) =>
  new CloudFormationClient({
    endpoint: run.endpoint,
    region: REGION,
    credentials: { accessKeyId: account, secretAccessKey: 'test' },
  });

const ended = (r: StackSetOperationResultSummary) => r.Status === 'SUCCEEDED' || r.Status === 'FAILED';

/** Polls the operation's results until `enough` of them have ended (the event the kill waits for). */
async function untilEnded(cfn: CloudFormationClient, name: string, id: string, enough: number): Promise<void> {
  for (;;) {
    const { Summaries } = await cfn.send(
      new ListStackSetOperationResultsCommand({ StackSetName: name, OperationId: id }),
    );
    if (Summaries!.filter(ended).length >= enough) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The stack set's stacks an account holds, by status (deleted ones included). */
async function setStacksOf(run: Running, account: string, name: string): Promise<string[]> {
  const { StackSummaries } = await clientOf(run, account).send(new ListStacksCommand({}));
  return StackSummaries!.filter((s) => s.StackName!.startsWith(`StackSet-${name}-`)).map((s) => s.StackStatus!);
}

describe('SIGKILL during a stack set operation, then restart on the same database', () => {
  it('a CreateStackInstances killed after its first account ends SUCCEEDED, one live stack per account', async () => {
    const db = join(dir, 'create.db');
    let run = await start(db);
    const name = 'crash-create';
    try {
      const admin = clientOf(run, ADMIN);
      await admin.send(new CreateStackSetCommand({ StackSetName: name, TemplateBody: TEMPLATE }));
      const { OperationId } = await admin.send(
        new CreateStackInstancesCommand({
          StackSetName: name,
          Accounts: ACCOUNTS,
          Regions: [REGION],
          OperationPreferences: { MaxConcurrentCount: 1 },
        }),
      );
      await untilEnded(admin, name, OperationId!, 1);
      await kill(run);
      run = await start(db);
      const again = clientOf(run, ADMIN);
      const operation = await waitForOperation(again, name, OperationId!, 30_000);
      expect(operation.Status).toBe('SUCCEEDED');
      const instances = await instancesOf(again, name);
      expect(instances.map((i) => [i.Account, i.Status]).sort()).toEqual(ACCOUNTS.map((a) => [a, 'CURRENT']));
      for (const account of ACCOUNTS) {
        const stacks = await setStacksOf(run, account, name);
        expect(
          stacks.filter((s) => s !== 'DELETE_COMPLETE'),
          account,
        ).toEqual(['CREATE_COMPLETE']);
        expect(stacks.filter((s) => s === 'DELETE_COMPLETE').length, account).toBeLessThanOrEqual(1);
      }
    } finally {
      await kill(run);
    }
  }, 60_000);

  it('a DeleteStackInstances killed after its first account ends SUCCEEDED, every stack deleted', async () => {
    const db = join(dir, 'delete.db');
    let run = await start(db);
    const name = 'crash-delete';
    try {
      const admin = clientOf(run, ADMIN);
      await admin.send(new CreateStackSetCommand({ StackSetName: name, TemplateBody: TEMPLATE }));
      const created = await admin.send(
        new CreateStackInstancesCommand({
          StackSetName: name,
          Accounts: ACCOUNTS,
          Regions: [REGION],
          OperationPreferences: { MaxConcurrentCount: ACCOUNTS.length },
        }),
      );
      expect((await waitForOperation(admin, name, created.OperationId!, 30_000)).Status).toBe('SUCCEEDED');
      const { OperationId } = await admin.send(
        new DeleteStackInstancesCommand({
          StackSetName: name,
          Accounts: ACCOUNTS,
          Regions: [REGION],
          RetainStacks: false,
          OperationPreferences: { MaxConcurrentCount: 1 },
        }),
      );
      await untilEnded(admin, name, OperationId!, 1);
      await kill(run);
      run = await start(db);
      const again = clientOf(run, ADMIN);
      expect((await waitForOperation(again, name, OperationId!, 30_000)).Status).toBe('SUCCEEDED');
      expect(await instancesOf(again, name)).toEqual([]);
      for (const account of ACCOUNTS) expect(await setStacksOf(run, account, name)).toEqual(['DELETE_COMPLETE']);
    } finally {
      await kill(run);
    }
  }, 60_000);
});
