// Waits across a restart: the built server is killed with SIGKILL while a create waits on the outside world (a
// WaitCondition on its handle, a CreationPolicy on SignalResource, a nested stack on a child that waits) and started
// again on the same database. As on AWS, the wait goes on with its first deadline and the stack ends as it would
// have without the restart; a deadline that passed while the server was down times out at once. Custom resources
// are in customResourceCrash.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateStackCommand,
  DescribeStacksCommand,
  SignalResourceCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { allEvents, resourceLines } from '../helpers/events.js';
import { kill, start, type Running } from '../helpers/process.js';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { at, checkEvents, physicalId, put, restart, waitingFor } from './waitHelpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cfn-local-waits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WAIT_CONDITION = (timeout: number) => `
Resources:
  Handle:
    Type: AWS::CloudFormation::WaitConditionHandle
  Wait:
    Type: AWS::CloudFormation::WaitCondition
    Properties:
      Handle: !Ref Handle
      Timeout: '${timeout}'
  After:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !GetAtt Wait.Data
Outputs:
  Data:
    Value: !GetAtt Wait.Data
`;

describe('a WaitCondition across a restart', () => {
  it('takes a signal sent after the restart: CREATE_COMPLETE with its Data, then what depends on it', async () => {
    const db = join(dir, 'wait-condition.db');
    let run = await start(db);
    const { StackId } = await run.client.send(
      new CreateStackCommand({
        StackName: 'wc-restart',
        TemplateBody: WAIT_CONDITION(300),
        ClientRequestToken: 'wc-1',
      }),
    );
    await waitingFor(run.client, StackId!, 'Wait');
    const url = await physicalId(run.client, StackId!, 'Handle');
    run = await restart(run, db);
    try {
      expect((await put(at(run, url), { Status: 'SUCCESS', UniqueId: 'one', Data: 'after' })).status).toBe(200);
      const stack = await waitForStack(run.client, StackId!, 15_000);
      expect(stack.StackStatus).toBe('CREATE_COMPLETE');
      expect(JSON.parse(stack.Outputs![0].OutputValue!)).toEqual({ one: 'after' });
      expect(await resourceLines(run.client, StackId!, 'Wait')).toEqual([
        'Wait CREATE_IN_PROGRESS',
        'Wait CREATE_IN_PROGRESS',
        'Wait CREATE_COMPLETE',
      ]);
      expect(await resourceLines(run.client, StackId!, 'After')).toHaveLength(3);
      await checkEvents(run, StackId!);
      // the events after the restart still carry the call's token
      expect(new Set((await allEvents(run.client, StackId!)).map((e) => e.ClientRequestToken))).toEqual(
        new Set(['wc-1']),
      );
    } finally {
      await kill(run);
    }
  }, 30_000);

  it('times out right after the start when its deadline passed while the server was down', async () => {
    const db = join(dir, 'wait-timeout.db');
    let run = await start(db);
    const { StackId } = await run.client.send(
      new CreateStackCommand({ StackName: 'wc-timeout', TemplateBody: WAIT_CONDITION(4) }),
    );
    await waitingFor(run.client, StackId!, 'Wait');
    run = await restart(run, db, 4500);
    try {
      // a yardstick started after the restart with a shorter Timeout than the first wait's: had the first wait
      // counted its Timeout again from the restart, the yardstick would time out first
      const yardstick = await run.client.send(
        new CreateStackCommand({ StackName: 'wc-yardstick', TemplateBody: WAIT_CONDITION(2) }),
      );
      const stack = await waitForStack(run.client, StackId!, 15_000);
      expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
      expect(await resourceLines(run.client, StackId!, 'wc-timeout', true)).toContain(
        'wc-timeout ROLLBACK_IN_PROGRESS: The following resource(s) failed to create: [Wait]. Rollback requested by user.',
      );
      expect(await resourceLines(run.client, StackId!, 'Wait', true)).toContain(
        'Wait CREATE_FAILED: WaitCondition timed out. Received 0 conditions when expecting 1',
      );
      expect((await waitForStack(run.client, yardstick.StackId!, 15_000)).StackStatus).toBe('ROLLBACK_COMPLETE');
      const failedAt = async (stackId: string) =>
        (await allEvents(run.client, stackId)).find(
          (e) => e.LogicalResourceId === 'Wait' && e.ResourceStatus === 'CREATE_FAILED',
        )!.Timestamp!;
      expect((await failedAt(StackId!)) < (await failedAt(yardstick.StackId!))).toBe(true);
    } finally {
      await kill(run);
    }
  }, 30_000);
});

const CREATION_POLICY = `
Resources:
  Instance:
    Type: AWS::CloudFormation::WaitCondition
    CreationPolicy:
      ResourceSignal:
        Count: 2
        Timeout: PT5M
`;

describe('a CreationPolicy across a restart', () => {
  it('counts the signals sent before the restart with those sent after it', async () => {
    const db = join(dir, 'creation-policy.db');
    let run = await start(db);
    const { StackId } = await run.client.send(
      new CreateStackCommand({ StackName: 'cp-restart', TemplateBody: CREATION_POLICY }),
    );
    await waitingFor(run.client, StackId!, 'Instance');
    const signal = (client: CloudFormationClient, UniqueId: string) =>
      client.send(
        new SignalResourceCommand({
          StackName: 'cp-restart',
          LogicalResourceId: 'Instance',
          UniqueId,
          Status: 'SUCCESS',
        }),
      );
    await signal(run.client, 'i-before');
    run = await restart(run, db);
    try {
      // a restart decides at start, before it listens, whether the create resumes or rolls back: the stack is still
      // creating, and (below) its resource completes only after the second signal, not on the first one alone
      expect((await run.client.send(new DescribeStacksCommand({ StackName: StackId! }))).Stacks![0].StackStatus).toBe(
        'CREATE_IN_PROGRESS',
      );
      await signal(run.client, 'i-after');
      expect((await waitForStack(run.client, StackId!, 15_000)).StackStatus).toBe('CREATE_COMPLETE');
      expect((await resourceLines(run.client, StackId!, 'Instance', true)).slice(-3)).toEqual([
        'Instance CREATE_IN_PROGRESS: Received SUCCESS signal with UniqueId i-before',
        'Instance CREATE_IN_PROGRESS: Received SUCCESS signal with UniqueId i-after',
        'Instance CREATE_COMPLETE',
      ]);
      await checkEvents(run, StackId!);
    } finally {
      await kill(run);
    }
  }, 30_000);
});

describe('a wait caught beside an action that is not a wait', () => {
  it('is cancelled with it: the action cut short fails the create, which rolls back as after any failure', async () => {
    const db = join(dir, 'mixed.db');
    let run = await start(db);
    const body = `${WAIT_CONDITION(300)}
  Slow:
    Type: AWS::SSM::Parameter
    Metadata:
      cfn-local:
        DelayMs: 2000
    Properties:
      Type: String
      Value: slow
`.replace('Outputs:\n  Data:\n    Value: !GetAtt Wait.Data\n', '');
    const { StackId } = await run.client.send(new CreateStackCommand({ StackName: 'mixed', TemplateBody: body }));
    await waitingFor(run.client, StackId!, 'Wait');
    await waitingFor(run.client, StackId!, 'Slow');
    run = await restart(run, db);
    try {
      expect((await waitForStack(run.client, StackId!, 15_000)).StackStatus).toBe('ROLLBACK_COMPLETE');
      for (const id of ['Wait', 'Slow'])
        expect(await resourceLines(run.client, StackId!, id, true)).toContain(
          `${id} CREATE_FAILED: Resource creation cancelled`,
        );
    } finally {
      await kill(run);
    }
  }, 30_000);
});

describe('a nested stack across a restart', () => {
  /** The child template in the simulated S3 (a handle and its WaitCondition) and the root that nests it. */
  async function nestedTree(run: Running): Promise<string> {
    const s3 = new S3Client({
      endpoint: run.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      forcePathStyle: true,
    });
    await s3.send(new CreateBucketCommand({ Bucket: 'wait-templates' }));
    await s3.send(new PutObjectCommand({ Bucket: 'wait-templates', Key: 'child.yaml', Body: WAIT_CONDITION(300) }));
    return `
Resources:
  Child:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: https://s3.us-east-1.amazonaws.com/wait-templates/child.yaml
Outputs:
  Data:
    Value: !GetAtt Child.Outputs.Data
`;
  }

  it("goes on with its child's wait: both CREATE_COMPLETE once the child's handle is signalled", async () => {
    const db = join(dir, 'nested.db');
    let run = await start(db);
    const { StackId } = await run.client.send(
      new CreateStackCommand({ StackName: 'nested-wait', TemplateBody: await nestedTree(run) }),
    );
    await waitingFor(run.client, StackId!, 'Child');
    const childId = await physicalId(run.client, StackId!, 'Child');
    await waitingFor(run.client, childId, 'Wait');
    const url = await physicalId(run.client, childId, 'Handle');
    run = await restart(run, db);
    try {
      expect((await put(at(run, url), { Status: 'SUCCESS', UniqueId: 'n', Data: 'nested' })).status).toBe(200);
      const root = await waitForStack(run.client, StackId!, 15_000);
      expect(root.StackStatus).toBe('CREATE_COMPLETE');
      expect(JSON.parse(root.Outputs![0].OutputValue!)).toEqual({ n: 'nested' });
      expect((await waitForStack(run.client, childId, 1000)).StackStatus).toBe('CREATE_COMPLETE');
      await checkEvents(run, StackId!);
      await checkEvents(run, childId);
    } finally {
      await kill(run);
    }
  }, 30_000);
});
