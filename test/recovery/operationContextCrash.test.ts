// What an operation was started with survives a restart: the built server is killed with SIGKILL mid-operation and
// started again on the same database. An executing change set ends as its stack does (EXECUTE_COMPLETE or
// EXECUTE_FAILED) rather than staying EXECUTE_IN_PROGRESS, and a DeleteStack keeps its RetainResources.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateChangeSetCommand,
  DescribeChangeSetCommand,
  ExecuteChangeSetCommand,
  DeleteStackCommand,
  CreateStackCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { kill, start } from '../helpers/process.js';
import { resourceLines } from '../helpers/events.js';
import { at, physicalId, put, restart, until, waitingFor } from './waitHelpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cfn-local-cs-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WAITING = `
Resources:
  Handle:
    Type: AWS::CloudFormation::WaitConditionHandle
  Wait:
    Type: AWS::CloudFormation::WaitCondition
    Properties:
      Handle: !Ref Handle
      Timeout: '300'
`;
/** A resource whose action the kill cuts short: it is cancelled after the restart, and the create rolls back. */
const SLOW = `
Resources:
  Slow:
    Type: AWS::SSM::Parameter
    Metadata:
      cfn-local:
        DelayMs: 3000
    Properties:
      Type: String
      Value: slow
`;

/** Creates a CREATE change set for `template` and executes it; returns its ARN and the stack's. */
async function execute(client: CloudFormationClient, name: string, template: string) {
  const { Id, StackId } = await client.send(
    new CreateChangeSetCommand({
      StackName: name,
      ChangeSetName: 'cs',
      ChangeSetType: 'CREATE',
      TemplateBody: template,
    }),
  );
  await until(
    async () => (await client.send(new DescribeChangeSetCommand({ ChangeSetName: Id! }))).Status === 'CREATE_COMPLETE',
    'change set created',
  );
  await client.send(new ExecuteChangeSetCommand({ ChangeSetName: Id! }));
  return { id: Id!, stackId: StackId! };
}

const executionStatus = async (client: CloudFormationClient, id: string) =>
  (await client.send(new DescribeChangeSetCommand({ ChangeSetName: id }))).ExecutionStatus;

describe('an executing change set across a restart', () => {
  it('ends EXECUTE_COMPLETE when the resumed create completes', async () => {
    const db = join(dir, 'complete.db');
    let run = await start(db);
    const { id, stackId } = await execute(run.client, 'cs-wait', WAITING);
    await waitingFor(run.client, stackId, 'Wait');
    const url = await physicalId(run.client, stackId, 'Handle');
    run = await restart(run, db);
    try {
      expect(await executionStatus(run.client, id)).toBe('EXECUTE_IN_PROGRESS');
      expect((await put(at(run, url), { Status: 'SUCCESS', UniqueId: 'one', Data: 'x' })).status).toBe(200);
      expect((await waitForStack(run.client, stackId, 15_000)).StackStatus).toBe('CREATE_COMPLETE');
      await until(async () => (await executionStatus(run.client, id)) !== 'EXECUTE_IN_PROGRESS', 'execution ended');
      expect(await executionStatus(run.client, id)).toBe('EXECUTE_COMPLETE');
    } finally {
      await kill(run);
    }
  }, 30_000);

  it('ends EXECUTE_FAILED when the restart cancels the create and it rolls back', async () => {
    const db = join(dir, 'failed.db');
    let run = await start(db);
    const { id, stackId } = await execute(run.client, 'cs-slow', SLOW);
    await until(async () => (await resourceLines(run.client, stackId, 'Slow')).length > 0, 'Slow started');
    run = await restart(run, db);
    try {
      expect((await waitForStack(run.client, stackId, 15_000)).StackStatus).toBe('ROLLBACK_COMPLETE');
      await until(async () => (await executionStatus(run.client, id)) !== 'EXECUTE_IN_PROGRESS', 'execution ended');
      expect(await executionStatus(run.client, id)).toBe('EXECUTE_FAILED');
    } finally {
      await kill(run);
    }
  }, 30_000);
});

/** Keep's delete always fails; Slow's, which comes first, takes three seconds, long enough to be killed in. */
const RETAINED = `
Resources:
  Keep:
    Type: AWS::SSM::Parameter
    Metadata: { cfn-local: { Fail: Delete, Message: Refused } }
    Properties: { Name: /ops/keep, Type: String, Value: kept }
  Slow:
    Type: AWS::SSM::Parameter
    DependsOn: Keep
    Metadata: { cfn-local: { DelayMs: 3000 } }
    Properties: { Type: String, Value: slow }
`;

describe('a DeleteStack with RetainResources across a restart', () => {
  it('still retains them: DELETE_SKIPPED, left in the account', async () => {
    const db = join(dir, 'retain.db');
    let run = await start(db);
    const { StackId } = await run.client.send(new CreateStackCommand({ StackName: 'retain', TemplateBody: RETAINED }));
    expect((await waitForStack(run.client, StackId!, 15_000)).StackStatus).toBe('CREATE_COMPLETE');
    await fetch(`${run.endpoint}/_cfn-local/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stackName: 'retain', logicalId: 'Slow', action: 'Delete', message: 'Once', times: 1 }),
    });
    await run.client.send(new DeleteStackCommand({ StackName: StackId }));
    expect((await waitForStack(run.client, StackId!, 15_000)).StackStatus).toBe('DELETE_FAILED');
    await run.client.send(new DeleteStackCommand({ StackName: StackId, RetainResources: ['Keep'] }));
    const slowDeletes = async () =>
      (await resourceLines(run.client, StackId!, 'Slow')).filter((l) => l === 'Slow DELETE_IN_PROGRESS').length;
    await until(async () => (await slowDeletes()) === 2, 'Slow deleting again');
    run = await restart(run, db);
    try {
      expect((await waitForStack(run.client, StackId!, 15_000)).StackStatus).toBe('DELETE_COMPLETE');
      expect((await resourceLines(run.client, StackId!, 'Keep')).at(-1)).toBe('Keep DELETE_SKIPPED');
      const world = await (await fetch(`${run.endpoint}/_cfn-local/world?type=AWS::SSM::Parameter`)).json();
      expect((world as { resources: { physicalId: string }[] }).resources.map((r) => r.physicalId)).toEqual([
        '/ops/keep',
      ]);
    } finally {
      await kill(run);
    }
  }, 60_000);
});
