// Crash safety: the built server is killed with SIGKILL at many moments of a create, an update and a delete, then
// started again on the same database. Every stack must reach a settled status AWS could reach, the resource list
// must match the simulated account, and no event may be lost or duplicated.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  ListStackResourcesCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { allEvents } from '../helpers/events.js';
import { kill, start, type Running } from '../helpers/process.js';

const dir = mkdtempSync(join(tmpdir(), 'cfn-local-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Twelve SSM parameters in a chain, each action taking a few milliseconds, so a kill lands mid-operation. */
function template(value: string): string {
  const lines = ['Resources:'];
  for (let i = 0; i < 12; i++) {
    lines.push(`  P${i}:`, '    Type: AWS::SSM::Parameter');
    if (i > 0) lines.push(`    DependsOn: P${i - 1}`);
    lines.push(
      '    Metadata:',
      '      cfn-local:',
      '        DelayMs: 15',
      '    Properties:',
      '      Type: String',
      `      Value: ${value}-${i}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const SETTLED_AFTER: Record<string, string[]> = {
  create: ['CREATE_COMPLETE', 'ROLLBACK_COMPLETE'],
  update: ['UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE'],
  delete: ['DELETE_COMPLETE'],
};

async function checkConsistent(run: Running, stackId: string, operation: string) {
  const stack = await waitForStack(run.client, stackId, 15_000);
  expect(SETTLED_AFTER[operation]).toContain(stack.StackStatus);
  const events = await allEvents(run.client, stackId);
  const ids = events.map((e) => e.EventId);
  expect(new Set(ids).size).toBe(ids.length);
  expect(
    events.filter((e) => e.LogicalResourceId === stack.StackName && e.ResourceStatus === stack.StackStatus).length,
  ).toBeGreaterThan(0);
  const { StackResourceSummaries } = await run.client.send(new ListStackResourcesCommand({ StackName: stackId }));
  const world = (
    (await (await fetch(`${run.endpoint}/_cfn-local/world?type=AWS::SSM::Parameter`)).json()) as {
      resources: { physicalId: string; stackId?: string }[];
    }
  ).resources
    .filter((r) => r.stackId === stackId)
    .map((r) => r.physicalId)
    .sort();
  const listed = StackResourceSummaries!
    .filter((r) => !['DELETE_COMPLETE', 'DELETE_SKIPPED'].includes(r.ResourceStatus!) && r.PhysicalResourceId)
    .map((r) => r.PhysicalResourceId!)
    .sort();
  expect(listed).toEqual(world);
  if (stack.StackStatus === 'CREATE_COMPLETE' || stack.StackStatus === 'UPDATE_COMPLETE')
    expect(world).toHaveLength(12);
  if (stack.StackStatus === 'ROLLBACK_COMPLETE' || stack.StackStatus === 'DELETE_COMPLETE')
    expect(world).toHaveLength(0);
}

const KILL_AFTER_MS = [5, 40, 90, 160];

describe('SIGKILL at any moment, then restart on the same database', () => {
  it.each(KILL_AFTER_MS.flatMap((ms) => ['create', 'update', 'delete'].map((op) => [op, ms] as const)))(
    'a %s killed after %i ms is carried to a status AWS reaches, with the world and events consistent',
    async (operation, ms) => {
      const db = join(dir, `${operation}-${ms}.db`);
      let run = await start(db);
      const name = `crash-${operation}`;
      const { StackId } = await run.client.send(
        new CreateStackCommand({ StackName: name, TemplateBody: template('a') }),
      );
      if (operation !== 'create') {
        expect((await waitForStack(run.client, StackId!, 15_000)).StackStatus).toBe('CREATE_COMPLETE');
        if (operation === 'update')
          await run.client.send(new UpdateStackCommand({ StackName: name, TemplateBody: template('b') }));
        else await run.client.send(new DeleteStackCommand({ StackName: name }));
      }
      await new Promise((r) => setTimeout(r, ms));
      await kill(run);
      run = await start(db);
      try {
        await checkConsistent(run, StackId!, operation);
        const { Stacks } = await run.client.send(new DescribeStacksCommand({ StackName: StackId! }));
        expect(Stacks![0].StackStatus).not.toMatch(/_IN_PROGRESS$/);
      } finally {
        await kill(run);
      }
    },
    30_000,
  );
});
