// DeploymentConfig (Express mode) on CreateStack, UpdateStack, DeleteStack, RollbackStack and CreateChangeSet:
// rollback off by default in EXPRESS mode, the Express status reason on resource events, AWS's follow-up rules
// on a stack an EXPRESS operation left failed, and what DescribeStacks and DescribeChangeSet show of the mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  DescribeStackEventsCommand,
  ExecuteChangeSetCommand,
  RollbackStackCommand,
  UpdateStackCommand,
  type DeploymentConfig,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const EXPRESS_REASON =
  'Resource operation completed using Express Mode. It may continue becoming available in the background.';
const EXPRESS: DeploymentConfig = { Mode: 'EXPRESS' };

const template = (fail?: 'Create' | 'Update', value = 'a') => `Resources:
  Ok:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: ${value} }
  P:
    Type: AWS::SSM::Parameter
    DependsOn: Ok
${fail ? `    Metadata: { cfn-local: { Fail: [${fail}] } }\n` : ''}    Properties: { Type: String, Value: ${value} }
`;

async function create(name: string, body: string, config?: DeploymentConfig) {
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: name, TemplateBody: body, DeploymentConfig: config }),
  );
  return waitForStack(server.client, StackId!);
}

async function update(name: string, body: string, config?: DeploymentConfig, disableRollback?: boolean) {
  const { StackId } = await server.client.send(
    new UpdateStackCommand({
      StackName: name,
      TemplateBody: body,
      DeploymentConfig: config,
      DisableRollback: disableRollback,
    }),
  );
  return waitForStack(server.client, StackId!);
}

async function events(name: string) {
  const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: name }));
  return StackEvents!.reverse();
}

describe('CreateStack with DeploymentConfig', () => {
  it('EXPRESS: a failing resource leaves CREATE_FAILED (rollback off by default), DescribeStacks shows the mode', async () => {
    const stack = await create('express-fail', template('Create'), EXPRESS);
    expect(stack.StackStatus).toBe('CREATE_FAILED');
    expect(stack.DisableRollback).toBe(true);
    expect(stack.DeploymentConfig).toEqual({ Mode: 'EXPRESS' });
  });

  it('EXPRESS with DisableRollback false rolls back as STANDARD does', async () => {
    const stack = await create('express-rollback', template('Create'), { Mode: 'EXPRESS', DisableRollback: false });
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(stack.DeploymentConfig).toEqual({ Mode: 'EXPRESS', DisableRollback: false });
  });

  it('STANDARD rolls back; DeploymentConfig.DisableRollback true keeps CREATE_FAILED', async () => {
    expect((await create('standard-fail', template('Create'), { Mode: 'STANDARD' })).StackStatus).toBe(
      'ROLLBACK_COMPLETE',
    );
    expect((await create('standard-kept', template('Create'), { DisableRollback: true })).StackStatus).toBe(
      'CREATE_FAILED',
    );
  });

  it("EXPRESS: resource completes carry AWS's Express reason; STANDARD's carry none", async () => {
    await create('express-ok', template(), EXPRESS);
    const completes = (await events('express-ok')).filter((e) => e.ResourceStatus === 'CREATE_COMPLETE');
    expect(completes.map((e) => [e.LogicalResourceId, e.ResourceStatusReason])).toEqual([
      ['Ok', EXPRESS_REASON],
      ['P', EXPRESS_REASON],
      ['express-ok', undefined],
    ]);
    await create('standard-ok', template());
    const standard = (await events('standard-ok')).filter((e) => e.ResourceStatus === 'CREATE_COMPLETE');
    expect(standard.every((e) => e.ResourceStatusReason === undefined)).toBe(true);
    expect((await create('none-ok', template())).DeploymentConfig).toBeUndefined();
  });

  it("refuses a Mode outside AWS's enum", async () => {
    const send = server.client.send(
      new CreateStackCommand({
        StackName: 'bad-mode',
        TemplateBody: template(),
        DeploymentConfig: { Mode: 'FAST' as 'EXPRESS' },
      }),
    );
    expect(await awsErrorOf(send)).toEqual({
      code: 'ValidationError',
      status: 400,
      message:
        "1 validation error detected: Value 'FAST' at 'deploymentConfig.mode' failed to satisfy constraint: Member must satisfy enum value set: [STANDARD, EXPRESS]",
    });
  });
});

describe('a stack an EXPRESS operation left failed', () => {
  it('UpdateStack: refused without mode EXPRESS, with AWS text; EXPRESS again fixes it forward', async () => {
    await create('express-up', template(), EXPRESS);
    expect((await update('express-up', template('Update', 'b'), EXPRESS)).StackStatus).toBe('UPDATE_FAILED');
    const standard = server.client.send(
      new UpdateStackCommand({
        StackName: 'express-up',
        TemplateBody: template(undefined, 'c'),
        DisableRollback: true,
      }),
    );
    expect(await awsErrorOf(standard)).toEqual({
      code: 'ValidationError',
      status: 400,
      message:
        'This stack is in a UPDATE_FAILED state from a previous operation that used EXPRESS deployment mode with disable-rollback. Follow-up operations must use the same DeploymentConfig (mode=EXPRESS) until the stack reaches a *_COMPLETE state',
    });
    const fixed = await update('express-up', template(undefined, 'c'), EXPRESS);
    expect(fixed.StackStatus).toBe('UPDATE_COMPLETE');
    const updates = (await events('express-up')).filter(
      (e) => e.ResourceStatus === 'UPDATE_COMPLETE' && e.LogicalResourceId === 'P',
    );
    expect(updates.at(-1)!.ResourceStatusReason).toBe(EXPRESS_REASON);
  });

  it('CreateChangeSet: refused without mode EXPRESS; DescribeChangeSet shows the mode it was made with', async () => {
    await create('express-cs', template('Create'), EXPRESS);
    const standard = server.client.send(
      new CreateChangeSetCommand({
        StackName: 'express-cs',
        ChangeSetName: 'std',
        TemplateBody: template(),
        DeploymentConfig: { Mode: 'STANDARD' },
      }),
    );
    expect((await awsErrorOf(standard)).message).toBe(
      'This stack is in a CREATE_FAILED state from a previous operation that used EXPRESS deployment mode with disable-rollback. Follow-up operations must use the same DeploymentConfig (mode=EXPRESS) until the stack reaches a *_COMPLETE state',
    );
    await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'express-cs',
        ChangeSetName: 'exp',
        TemplateBody: template(),
        DeploymentConfig: EXPRESS,
      }),
    );
    const described = await waitForChangeSet('express-cs', 'exp');
    expect(described.DeploymentConfig).toEqual({ Mode: 'EXPRESS' });
    await server.client.send(new ExecuteChangeSetCommand({ StackName: 'express-cs', ChangeSetName: 'exp' }));
    const stack = await waitForStack(server.client, described.StackId!);
    expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
    expect(stack.DeploymentConfig).toEqual({ Mode: 'EXPRESS' });
  });

  it('RollbackStack is not supported; DeleteStack is, and its deletes carry the Express reason', async () => {
    const failed = await create('express-rb', template('Create'), EXPRESS);
    const rollback = server.client.send(
      new RollbackStackCommand({ StackName: 'express-rb', DeploymentConfig: EXPRESS }),
    );
    expect(await awsErrorOf(rollback)).toEqual({
      code: 'ValidationError',
      status: 400,
      message:
        'RollbackStack is not supported for stacks that were last updated using EXPRESS deployment mode and are in a failed state',
    });
    await server.client.send(new DeleteStackCommand({ StackName: 'express-rb', DeploymentConfig: EXPRESS }));
    expect((await waitForStack(server.client, failed.StackId!)).StackStatus).toBe('DELETE_COMPLETE');
    const deletes = (await events(failed.StackId!)).filter(
      (e) => e.ResourceStatus === 'DELETE_COMPLETE' && e.LogicalResourceId === 'Ok',
    );
    expect(deletes.map((e) => e.ResourceStatusReason)).toEqual([EXPRESS_REASON]);
  });

  it('a STANDARD stack kept failed is not bound by the rule: RollbackStack runs', async () => {
    const failed = await create('standard-rb', template('Create'), { DisableRollback: true });
    await server.client.send(new RollbackStackCommand({ StackName: 'standard-rb' }));
    expect((await waitForStack(server.client, failed.StackId!)).StackStatus).toBe('ROLLBACK_COMPLETE');
  });
});

async function waitForChangeSet(stackName: string, name: string) {
  for (let i = 0; i < 400; i++) {
    const cs = await server.client.send(new DescribeChangeSetCommand({ StackName: stackName, ChangeSetName: name }));
    if (cs.Status === 'CREATE_COMPLETE' || cs.Status === 'FAILED') return cs;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`change set ${name} never settled`);
}
