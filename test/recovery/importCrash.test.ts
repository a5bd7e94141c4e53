// Crash safety of an import: the built server is killed with SIGKILL at several moments of ExecuteChangeSet on an
// IMPORT change set, then started again on the same database. The stack must settle (IMPORT_COMPLETE, or
// IMPORT_ROLLBACK_COMPLETE with every resource released to the account), never stay IMPORT_IN_PROGRESS.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  ExecuteChangeSetCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { allEvents } from '../helpers/events.js';
import { kill, start, type Running } from '../helpers/process.js';

const dir = mkdtempSync(join(tmpdir(), 'cfn-local-import-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COUNT = 8;

/** Named SSM parameters kept by DeletionPolicy Retain; each import step waits a few milliseconds (DelayMs). */
function template(prefix: string): string {
  const lines = ['Resources:'];
  for (let i = 0; i < COUNT; i++) {
    lines.push(`  P${i}:`, '    Type: AWS::SSM::Parameter', '    DeletionPolicy: Retain');
    lines.push('    Metadata:', '      cfn-local:', '        DelayMs: 15');
    lines.push('    Properties:', `      Name: ${prefix}-${i}`, '      Type: String', `      Value: v${i}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Parameters that belong to no stack: made by a stack that is then deleted, its Retain policy keeping them. */
async function unowned(client: CloudFormationClient, prefix: string) {
  const { StackId } = await client.send(
    new CreateStackCommand({ StackName: `${prefix}-source`, TemplateBody: template(prefix) }),
  );
  await waitForStack(client, StackId!, 15_000);
  await client.send(new DeleteStackCommand({ StackName: StackId }));
  expect((await waitForStack(client, StackId!, 15_000)).StackStatus).toBe('DELETE_COMPLETE');
}

async function changeSetReady(client: CloudFormationClient, id: string) {
  for (;;) {
    const described = await client.send(new DescribeChangeSetCommand({ ChangeSetName: id }));
    if (described.Status !== 'CREATE_PENDING' && described.Status !== 'CREATE_IN_PROGRESS') return described;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function owners(run: Running, prefix: string) {
  const world = (await (await fetch(`${run.endpoint}/_cfn-local/world?type=AWS::SSM::Parameter`)).json()) as {
    resources: { physicalId: string; stackId?: string }[];
  };
  return world.resources.filter((r) => r.physicalId.startsWith(`${prefix}-`));
}

describe('SIGKILL during an import, then restart on the same database', () => {
  it.each([5, 40, 80])(
    'an import killed after %i ms settles, with the account consistent',
    async (ms) => {
      const db = join(dir, `import-${ms}.db`);
      const prefix = `imp${ms}`;
      let run = await start(db);
      await unowned(run.client, prefix);
      const { Id, StackId } = await run.client.send(
        new CreateChangeSetCommand({
          StackName: prefix,
          ChangeSetName: 'adopt',
          ChangeSetType: 'IMPORT',
          TemplateBody: template(prefix),
          ResourcesToImport: Array.from({ length: COUNT }, (_, i) => ({
            ResourceType: 'AWS::SSM::Parameter',
            LogicalResourceId: `P${i}`,
            ResourceIdentifier: { Name: `${prefix}-${i}` },
          })),
        }),
      );
      expect((await changeSetReady(run.client, Id!)).Status).toBe('CREATE_COMPLETE');
      await run.client.send(new ExecuteChangeSetCommand({ ChangeSetName: Id }));
      await new Promise((r) => setTimeout(r, ms));
      await kill(run);
      run = await start(db);
      try {
        const stack = await waitForStack(run.client, StackId!, 15_000);
        expect(['IMPORT_COMPLETE', 'IMPORT_ROLLBACK_COMPLETE']).toContain(stack.StackStatus);
        const rows = await owners(run, prefix);
        expect(rows).toHaveLength(COUNT);
        const owned = rows.filter((r) => r.stackId === StackId);
        expect(owned).toHaveLength(stack.StackStatus === 'IMPORT_COMPLETE' ? COUNT : 0);
        const ids = (await allEvents(run.client, StackId!)).map((e) => e.EventId);
        expect(new Set(ids).size).toBe(ids.length);
      } finally {
        await kill(run);
      }
    },
    60_000,
  );
});
