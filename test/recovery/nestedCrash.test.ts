// Crash safety across a tree of nested stacks: the built server is killed with SIGKILL during a create, an update
// and a delete of a three-level tree, then restarted on the same database. Every stack of the tree must settle,
// and no child may be left without the parent resource that owns it.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateStackCommand,
  DeleteStackCommand,
  ListStackResourcesCommand,
  ListStacksCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { waitForStack } from '../helpers/server.js';
import { kill, start as startServerProcess, type Running as ServerProcess } from '../helpers/process.js';

const dir = mkdtempSync(join(tmpdir(), 'cfn-local-nested-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Running extends ServerProcess {
  s3: S3Client;
}

/** The built server (test/helpers/process.ts) with an S3 client beside it: the children's templates live in S3. */
async function start(db: string): Promise<Running> {
  const run = await startServerProcess(db);
  const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
  return {
    ...run,
    s3: new S3Client({ endpoint: run.endpoint, region: 'us-east-1', credentials, forcePathStyle: true }),
  };
}

/** Four slow SSM parameters in a chain, then the nested stack (if any), so a kill lands inside every level. */
function level(value: string, nestedUrl?: string): string {
  const lines = ['Resources:'];
  for (let i = 0; i < 4; i++) {
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
  if (nestedUrl)
    lines.push(
      '  Nested:',
      '    Type: AWS::CloudFormation::Stack',
      '    DependsOn: P1',
      '    Properties:',
      `      TemplateURL: ${nestedUrl}`,
    );
  return `${lines.join('\n')}\n`;
}

/** Puts the leaf and middle templates of version `value` in S3 and returns the root template. */
async function tree(run: Running, value: string): Promise<string> {
  const url = (key: string) => `https://s3.us-east-1.amazonaws.com/crash-templates/${key}`;
  await run.s3.send(new PutObjectCommand({ Bucket: 'crash-templates', Key: `leaf-${value}.yaml`, Body: level(value) }));
  await run.s3.send(
    new PutObjectCommand({
      Bucket: 'crash-templates',
      Key: `middle-${value}.yaml`,
      Body: level(value, url(`leaf-${value}.yaml`)),
    }),
  );
  return level(value, url(`middle-${value}.yaml`));
}

const SETTLED_AFTER: Record<string, string[]> = {
  create: ['CREATE_COMPLETE', 'ROLLBACK_COMPLETE'],
  update: ['UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE'],
  delete: ['DELETE_COMPLETE'],
};

/** Every stack of the tree settles; a live child is owned by a live parent resource; a gone root leaves nothing. */
async function checkTree(run: Running, rootId: string, operation: string) {
  const root = await waitForStack(run.client, rootId, 20_000);
  expect(SETTLED_AFTER[operation]).toContain(root.StackStatus);
  const { StackSummaries } = await run.client.send(new ListStacksCommand({}));
  // a kill early in a create may come before the first child exists
  const tree = StackSummaries!.filter((s) => s.RootId === rootId);
  if (operation !== 'create') expect(tree.length).toBe(2);
  for (const s of tree) {
    const settled = await waitForStack(run.client, s.StackId!, 20_000);
    if (root.StackStatus === 'ROLLBACK_COMPLETE' || root.StackStatus === 'DELETE_COMPLETE') {
      expect(settled.StackStatus).toBe('DELETE_COMPLETE');
      continue;
    }
    expect(settled.StackStatus).not.toMatch(/_IN_PROGRESS$|_FAILED$/);
    if (settled.StackStatus === 'DELETE_COMPLETE') continue;
    const { StackResourceSummaries } = await run.client.send(
      new ListStackResourcesCommand({ StackName: settled.ParentId }),
    );
    expect(
      StackResourceSummaries!.filter(
        (r) => r.PhysicalResourceId === s.StackId && r.ResourceStatus !== 'DELETE_COMPLETE',
      ),
    ).toHaveLength(1);
  }
  // the account holds exactly the parameters the tree's stacks list: nothing created is forgotten
  const world = (
    (await (await fetch(`${run.endpoint}/_cfn-local/world?type=AWS::SSM::Parameter`)).json()) as {
      resources: { physicalId: string; stackId?: string }[];
    }
  ).resources;
  for (const id of [rootId, ...tree.map((s) => s.StackId!)]) {
    const { StackResourceSummaries } = await run.client.send(new ListStackResourcesCommand({ StackName: id }));
    const listed = StackResourceSummaries!
      .filter(
        (r) =>
          r.ResourceType === 'AWS::SSM::Parameter' && r.ResourceStatus !== 'DELETE_COMPLETE' && r.PhysicalResourceId,
      )
      .map((r) => r.PhysicalResourceId!)
      .sort();
    expect(
      world
        .filter((r) => r.stackId === id)
        .map((r) => r.physicalId)
        .sort(),
    ).toEqual(listed);
  }
}

const KILL_AFTER_MS = [40, 120];

describe('SIGKILL inside a nested tree, then restart on the same database', () => {
  it.each(KILL_AFTER_MS.flatMap((ms) => ['create', 'update', 'delete'].map((op) => [op, ms] as const)))(
    'a %s of a three-level tree killed after %i ms ends with every stack settled and no orphaned child',
    async (operation, ms) => {
      const db = join(dir, `${operation}-${ms}.db`);
      let run = await start(db);
      await run.s3.send(new CreateBucketCommand({ Bucket: 'crash-templates' }));
      const name = `nested-${operation}`;
      const { StackId } = await run.client.send(
        new CreateStackCommand({ StackName: name, TemplateBody: await tree(run, 'a') }),
      );
      if (operation !== 'create') {
        expect((await waitForStack(run.client, StackId!, 20_000)).StackStatus).toBe('CREATE_COMPLETE');
        if (operation === 'update')
          await run.client.send(new UpdateStackCommand({ StackName: name, TemplateBody: await tree(run, 'b') }));
        else await run.client.send(new DeleteStackCommand({ StackName: name }));
      }
      await new Promise((r) => setTimeout(r, ms));
      await kill(run);
      run = await start(db);
      try {
        await checkTree(run, StackId!, operation);
      } finally {
        await kill(run);
      }
    },
    60_000,
  );
});
