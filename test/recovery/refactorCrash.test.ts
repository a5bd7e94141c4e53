// Crash safety of a stack refactor: the built server is killed with SIGKILL as ExecuteStackRefactor is sent, and
// once it has answered (moving many SSM parameters from one stack to another and renaming one), then started
// again on the same database. An execution commits as one unit, so the database the kill leaves holds the refactor
// AVAILABLE with nothing moved, or EXECUTE_COMPLETE with everything moved (EXECUTE_IN_PROGRESS, were it ever cut, is
// carried to its end at startup). The test reads which between the kill and the restart, checks the stacks match it,
// executes a refactor the kill beat, and then expects what AWS ends with: EXECUTE_COMPLETE, both stacks
// UPDATE_COMPLETE, every parameter in exactly one stack under its new logical id, with its physical id, and the
// account's owner the same.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  CreateStackCommand,
  CreateStackRefactorCommand,
  DescribeStackRefactorCommand,
  ExecuteStackRefactorCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { allEvents } from '../helpers/events.js';
import { kill, start, type Running } from '../helpers/process.js';
import { until } from './waitHelpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cfn-local-refactor-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COUNT = 12;
const param = (id: string, name: string) =>
  [`  ${id}:`, '    Type: AWS::SSM::Parameter', '    Properties:', `      Name: ${name}`, '      Type: String']
    .concat(`      Value: ${name}`)
    .join('\n');
const body = (params: [string, string][]) => `Resources:\n${params.map(([id, name]) => param(id, name)).join('\n')}\n`;

/** Source keeps Keep and holds P0..P11; Target holds Stay. After: P0..P10 in Target, P11 renamed Moved11 there. */
function templates(prefix: string) {
  const moved = Array.from({ length: COUNT }, (_, i): [string, string] => [`P${i}`, `${prefix}-${i}`]);
  const keep: [string, string] = ['Keep', `${prefix}-keep`];
  const stay: [string, string] = ['Stay', `${prefix}-stay`];
  const renamed = moved.map(([id, name], i): [string, string] => [i === COUNT - 1 ? `Moved${i}` : id, name]);
  return {
    source: body([keep, ...moved]),
    target: body([stay]),
    sourceAfter: body([keep]),
    targetAfter: body([stay, ...renamed]),
  };
}

const refactorStatus = (client: CloudFormationClient, id: string) =>
  client.send(new DescribeStackRefactorCommand({ StackRefactorId: id }));

/** The refactor's execution status as the killed server left it in its database. */
function statusOnDisk(db: string, id: string): string {
  const sqlite = new Database(db, { readonly: true });
  try {
    const doc = sqlite.prepare('SELECT doc FROM stack_refactors WHERE refactor_id = ?').pluck().get(id) as string;
    return (JSON.parse(doc) as { executionStatus: string }).executionStatus;
  } finally {
    sqlite.close();
  }
}

async function owners(run: Running, prefix: string) {
  const world = (await (await fetch(`${run.endpoint}/_cfn-local/world?type=AWS::SSM::Parameter`)).json()) as {
    resources: { physicalId: string; stackId?: string; logicalId?: string }[];
  };
  return world.resources.filter((r) => r.physicalId.startsWith(`${prefix}-`));
}

async function resources(client: CloudFormationClient, StackName: string) {
  const { StackResourceSummaries } = await client.send(new ListStackResourcesCommand({ StackName }));
  return Object.fromEntries(StackResourceSummaries!.map((r) => [r.LogicalResourceId!, r]));
}

describe('SIGKILL during a stack refactor, then restart on the same database', () => {
  it.each(['as it is sent', 'once answered'])(
    'a refactor killed %s is carried to EXECUTE_COMPLETE, every resource moved once',
    async (moment) => {
      const prefix = moment === 'once answered' ? 'rfanswered' : 'rfsent';
      const db = join(dir, `${prefix}.db`);
      const t = templates(prefix);
      let run = await start(db);
      const source = (
        await run.client.send(new CreateStackCommand({ StackName: `${prefix}-src`, TemplateBody: t.source }))
      ).StackId!;
      const target = (
        await run.client.send(new CreateStackCommand({ StackName: `${prefix}-dst`, TemplateBody: t.target }))
      ).StackId!;
      await waitForStack(run.client, source, 15_000);
      await waitForStack(run.client, target, 15_000);
      const { StackRefactorId } = await run.client.send(
        new CreateStackRefactorCommand({
          StackDefinitions: [
            { StackName: `${prefix}-src`, TemplateBody: t.sourceAfter },
            { StackName: `${prefix}-dst`, TemplateBody: t.targetAfter },
          ],
          ResourceMappings: [
            {
              Source: { StackName: source, LogicalResourceId: `P${COUNT - 1}` },
              Destination: { StackName: target, LogicalResourceId: `Moved${COUNT - 1}` },
            },
          ],
        }),
      );
      const id = StackRefactorId!;
      await until(async () => (await refactorStatus(run.client, id)).Status !== 'CREATE_IN_PROGRESS', 'validated');
      expect(await refactorStatus(run.client, id)).toMatchObject({ Status: 'CREATE_COMPLETE' });
      // the answer may never come when the kill is sent at once
      const sent = run.client.send(new ExecuteStackRefactorCommand({ StackRefactorId: id }));
      if (moment === 'once answered') await sent;
      await kill(run);
      await sent.catch(() => undefined);
      const onDisk = statusOnDisk(db, id);
      // an answer leaves once what it did is committed
      if (moment === 'once answered') expect(onDisk).not.toBe('AVAILABLE');
      run = await start(db);
      try {
        if (onDisk === 'AVAILABLE') {
          // the kill beat the execution: nothing moved, and the refactor can still be executed
          expect(Object.keys(await resources(run.client, source)).sort()).toEqual(
            ['Keep', ...Array.from({ length: COUNT }, (_, i) => `P${i}`)].sort(),
          );
          expect(Object.keys(await resources(run.client, target))).toEqual(['Stay']);
          expect((await owners(run, prefix)).filter((r) => r.stackId === source)).toHaveLength(COUNT + 1);
          await run.client.send(new ExecuteStackRefactorCommand({ StackRefactorId: id }));
        } else expect(['EXECUTE_IN_PROGRESS', 'EXECUTE_COMPLETE']).toContain(onDisk);
        await until(
          async () => (await refactorStatus(run.client, id)).ExecutionStatus !== 'EXECUTE_IN_PROGRESS',
          'the refactor settled',
        );
        expect(await refactorStatus(run.client, id)).toMatchObject({ ExecutionStatus: 'EXECUTE_COMPLETE' });
        expect((await waitForStack(run.client, source, 15_000)).StackStatus).toBe('UPDATE_COMPLETE');
        expect((await waitForStack(run.client, target, 15_000)).StackStatus).toBe('UPDATE_COMPLETE');
        // each parameter in exactly one stack, under its new logical id, with the physical id it always had
        expect(Object.keys(await resources(run.client, source))).toEqual(['Keep']);
        const moved = await resources(run.client, target);
        expect(Object.keys(moved).sort()).toEqual(
          ['Stay', ...Array.from({ length: COUNT }, (_, i) => (i === COUNT - 1 ? `Moved${i}` : `P${i}`))].sort(),
        );
        for (const r of Object.values(moved)) expect(r.ResourceStatus).toMatch(/^(CREATE|IMPORT)_COMPLETE$/);
        expect(moved[`Moved${COUNT - 1}`].PhysicalResourceId).toBe(`${prefix}-${COUNT - 1}`);
        const world = await owners(run, prefix);
        expect(world).toHaveLength(COUNT + 2);
        expect(world.filter((r) => r.stackId === source).map((r) => r.logicalId)).toEqual(['Keep']);
        expect(world.filter((r) => r.stackId === target)).toHaveLength(COUNT + 1);
        expect(world.find((r) => r.physicalId === `${prefix}-${COUNT - 1}`)?.logicalId).toBe(`Moved${COUNT - 1}`);
        // the templates after the refactor are the stacks' own; no event lost or written twice
        const template = async (StackName: string) =>
          (await run.client.send(new GetTemplateCommand({ StackName }))).TemplateBody;
        expect(await template(source)).toBe(t.sourceAfter);
        expect(await template(target)).toBe(t.targetAfter);
        for (const stack of [source, target]) {
          const events = await allEvents(run.client, stack);
          expect(new Set(events.map((e) => e.EventId)).size).toBe(events.length);
          const arrivals = events.filter((e) => e.ResourceStatus === 'IMPORT_COMPLETE');
          expect(new Set(arrivals.map((e) => e.LogicalResourceId)).size).toBe(arrivals.length);
          expect(arrivals).toHaveLength(stack === target ? COUNT : 0);
        }
      } finally {
        await kill(run);
      }
    },
    60_000,
  );
});
