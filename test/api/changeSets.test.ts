// Change set actions through the AWS SDK: AWS's errors for every bad request, and the lifecycle of a change set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteChangeSetCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  ExecuteChangeSetCommand,
  GetTemplateCommand,
  ListChangeSetsCommand,
  waitUntilChangeSetCreateComplete,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { ManualTimers } from '../helpers/timers.js';
import { changeSet, deploy, execute, waitForChangeSet } from './changeSetsHelpers.js';

let server: TestServer;
// A DelayMs holds its resource until the test moves these timers.
const timers = new ManualTimers();
beforeAll(async () => {
  server = await startServer({ timers });
});
afterAll(() => server.close());

let n = 0;
const stackName = () => `cs-api-${++n}`;
const ssm = (value: string) => ({ Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: value } });
const template = (value = 'a') => JSON.stringify({ Resources: { P: ssm(value) } });

async function errorOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    const e = err as { name: string; message: string; $metadata: { httpStatusCode: number } };
    return { code: e.name, message: e.message, status: e.$metadata.httpStatusCode };
  }
  throw new Error('expected an error');
}

describe('CreateChangeSet', () => {
  describe('validation', () => {
    it('returns ValidationError when ChangeSetName breaks the pattern', async () => {
      const err = await errorOf(
        server.client.send(
          new CreateChangeSetCommand({ StackName: 's', ChangeSetName: '1bad_name', TemplateBody: template() }),
        ),
      );
      expect(err).toEqual({
        code: 'ValidationError',
        status: 400,
        message:
          "1 validation error detected: Value '1bad_name' at 'changeSetName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*",
      });
    });

    it('returns ValidationError for an unknown ChangeSetType', async () => {
      const err = await errorOf(
        server.client.send(
          new CreateChangeSetCommand({
            StackName: 's',
            ChangeSetName: 'x',
            ChangeSetType: 'INVALID' as never,
            TemplateBody: template(),
          }),
        ),
      );
      expect(err.code).toBe('ValidationError');
    });

    it('returns ValidationError "Stack [name] does not exist" for UPDATE on a missing stack', async () => {
      const err = await errorOf(
        server.client.send(
          new CreateChangeSetCommand({ StackName: 'missing-stack', ChangeSetName: 'x', TemplateBody: template() }),
        ),
      );
      expect(err).toMatchObject({ code: 'ValidationError', message: 'Stack [missing-stack] does not exist' });
    });

    it('returns ValidationError for CREATE on an existing stack', async () => {
      const name = stackName();
      await deploy(server.client, name, template());
      const err = await errorOf(
        server.client.send(
          new CreateChangeSetCommand({
            StackName: name,
            ChangeSetName: 'again',
            ChangeSetType: 'CREATE',
            TemplateBody: template(),
          }),
        ),
      );
      expect(err).toMatchObject({
        code: 'ValidationError',
        message: `Stack [${name}] already exists and cannot be created again with the changeSet [again].`,
      });
    });

    it('returns AlreadyExistsException for a duplicate change set name', async () => {
      const name = stackName();
      await server.client.send(
        new CreateChangeSetCommand({
          StackName: name,
          ChangeSetName: 'dup',
          ChangeSetType: 'CREATE',
          TemplateBody: template(),
        }),
      );
      const err = await errorOf(
        server.client.send(
          new CreateChangeSetCommand({
            StackName: name,
            ChangeSetName: 'dup',
            ChangeSetType: 'CREATE',
            TemplateBody: template(),
          }),
        ),
      );
      expect(err).toMatchObject({ code: 'AlreadyExistsException', message: 'ChangeSet [dup] already exists' });
    });

    it('leaves nothing behind when the template is invalid', async () => {
      const name = stackName();
      const err = await errorOf(
        server.client.send(
          new CreateChangeSetCommand({
            StackName: name,
            ChangeSetName: 'x',
            ChangeSetType: 'CREATE',
            TemplateBody: '{"Resources": {}}',
          }),
        ),
      );
      expect(err.message).toBe('Template format error: At least one Resources member must be defined.');
      const missing = await errorOf(server.client.send(new DescribeStacksCommand({ StackName: name })));
      expect(missing.message).toBe(`Stack with id ${name} does not exist`);
    });
  });

  describe('lifecycle', () => {
    it('settles CREATE_PENDING → CREATE_IN_PROGRESS → CREATE_COMPLETE after the call returns', async () => {
      const { Id } = (await import('../../state-machine/changeSets.js')).createChangeSet(
        server.app.engine,
        { account: '000000000000', region: 'us-east-1' },
        { StackName: stackName(), ChangeSetName: 'direct', ChangeSetType: 'CREATE' },
        { body: template(), expansions: () => undefined },
      );
      expect(server.app.store.changeSets.byId(Id)!).toMatchObject({
        status: 'CREATE_PENDING',
        executionStatus: 'UNAVAILABLE',
      });
      await new Promise((r) => setImmediate(r));
      expect(server.app.store.changeSets.byId(Id)!.status).toBe('CREATE_IN_PROGRESS');
      await new Promise((r) => setImmediate(r));
      expect(server.app.store.changeSets.byId(Id)!).toMatchObject({
        status: 'CREATE_COMPLETE',
        executionStatus: 'AVAILABLE',
      });
    });

    it('a change set left CREATE_PENDING by a restart settles when next read', async () => {
      const { id } = await changeSet(server.client, stackName(), template(), { ChangeSetType: 'CREATE' });
      const record = server.app.store.changeSets.byId(id)!;
      const orphan = `${id.slice(0, -36)}00000000-0000-4000-8000-000000000000`;
      server.app.store.changeSets.save({
        ...record,
        changeSetId: orphan,
        name: 'orphan',
        status: 'CREATE_PENDING',
        executionStatus: 'UNAVAILABLE',
        createdAt: new Date(Date.now() - 60_000).toISOString(),
        doc: { ...record.doc, pending: { status: 'CREATE_COMPLETE', executionStatus: 'AVAILABLE' } },
      });
      const described = await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: orphan }));
      expect(described).toMatchObject({ Status: 'CREATE_COMPLETE', ExecutionStatus: 'AVAILABLE' });
    });

    it('the SDK waiter ChangeSetCreateComplete succeeds on a change set and fails on a no-op one', async () => {
      const name = stackName();
      const { Id } = await server.client.send(
        new CreateChangeSetCommand({
          StackName: name,
          ChangeSetName: 'w',
          ChangeSetType: 'CREATE',
          TemplateBody: template(),
        }),
      );
      const ok = await waitUntilChangeSetCreateComplete(
        { client: server.client, maxWaitTime: 10, minDelay: 1, maxDelay: 1 },
        { ChangeSetName: Id },
      );
      expect(ok.state).toBe('SUCCESS');
      await execute(
        server.client,
        Id!,
        (await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: Id }))).StackId!,
      );
      const noop = await server.client.send(
        new CreateChangeSetCommand({ StackName: name, ChangeSetName: 'w2', TemplateBody: template() }),
      );
      const failed = await waitUntilChangeSetCreateComplete(
        { client: server.client, maxWaitTime: 10, minDelay: 1, maxDelay: 1 },
        { ChangeSetName: noop.Id },
      ).then(
        () => 'succeeded',
        (err: Error) => err.message,
      );
      expect(failed).toContain('"state":"FAILURE"');
    });

    it('CREATE makes a REVIEW_IN_PROGRESS stack; executing it creates the stack with ChangeSetId and LastUpdatedTime', async () => {
      const name = stackName();
      const body = JSON.stringify({ Description: 'desc', Resources: { P: ssm('a') } });
      const { Id, StackId } = await server.client.send(
        new CreateChangeSetCommand({
          StackName: name,
          ChangeSetName: 'first',
          ChangeSetType: 'CREATE',
          TemplateBody: body,
          Tags: [{ Key: 'k', Value: 'v' }],
        }),
      );
      expect(Id).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:changeSet\/first\/[0-9a-f-]{36}$/);
      const [review] = (await server.client.send(new DescribeStacksCommand({ StackName: name }))).Stacks!;
      expect(review).toMatchObject({
        StackStatus: 'REVIEW_IN_PROGRESS',
        StackStatusReason: 'User Initiated',
        Tags: [],
      });
      expect(review.Description).toBeUndefined();
      expect(review.ChangeSetId).toBeUndefined();
      expect(review.LastUpdatedTime).toBeUndefined();
      const described = await waitForChangeSet(server.client, Id!);
      expect(described).toMatchObject({
        Status: 'CREATE_COMPLETE',
        ExecutionStatus: 'AVAILABLE',
        Tags: [{ Key: 'k', Value: 'v' }],
      });
      expect((await server.client.send(new GetTemplateCommand({ ChangeSetName: Id }))).TemplateBody).toBe(body);
      const stack = await execute(server.client, Id!, StackId!);
      expect(stack).toMatchObject({
        StackStatus: 'CREATE_COMPLETE',
        ChangeSetId: Id,
        Description: 'desc',
        Tags: [{ Key: 'k', Value: 'v' }],
      });
      expect(stack.LastUpdatedTime).toBeInstanceOf(Date);
      const after = await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: Id }));
      expect(after).toMatchObject({ Status: 'CREATE_COMPLETE', ExecutionStatus: 'EXECUTE_COMPLETE' });
      const events = (
        await server.client.send(new DescribeStackEventsCommand({ StackName: StackId }))
      ).StackEvents!.reverse();
      expect(
        events.filter((e) => e.ResourceType === 'AWS::CloudFormation::Stack').map((e) => e.ResourceStatus),
      ).toEqual(['REVIEW_IN_PROGRESS', 'CREATE_IN_PROGRESS', 'CREATE_COMPLETE']);
    });

    it('an UPDATE change set updates the stack and records its ChangeSetId', async () => {
      const name = stackName();
      const { stackId } = await deploy(server.client, name, template('a'));
      const { id } = await changeSet(server.client, name, template('b'));
      const stack = await execute(server.client, id, stackId);
      expect(stack).toMatchObject({ StackStatus: 'UPDATE_COMPLETE', ChangeSetId: id });
    });

    it('UsePreviousTemplate with a new parameter value plans a ParameterReference change', async () => {
      const name = stackName();
      const body = {
        Parameters: { V: { Type: 'String' } },
        Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: { Ref: 'V' } } } },
      };
      await deploy(server.client, name, body, { Parameters: [{ ParameterKey: 'V', ParameterValue: 'one' }] });
      const { described } = await changeSet(server.client, name, undefined, {
        TemplateBody: undefined,
        UsePreviousTemplate: true,
        Parameters: [{ ParameterKey: 'V', ParameterValue: 'two' }],
      });
      expect(described.Changes![0].ResourceChange!.Details![0]).toMatchObject({
        ChangeSource: 'ParameterReference',
        CausingEntity: 'V',
      });
      const same = await changeSet(server.client, name, undefined, {
        TemplateBody: undefined,
        UsePreviousTemplate: true,
        Parameters: [{ ParameterKey: 'V', UsePreviousValue: true }],
      });
      expect(same.described.Status).toBe('FAILED');
    });

    it('new stack Tags with the same template modify every taggable resource (Scope Tags) instead of failing as a no-op', async () => {
      const name = stackName();
      const body = { Resources: { T: { Type: 'AWS::SNS::Topic', Properties: { TopicName: `${name}-t` } } } };
      await deploy(server.client, name, body);
      const { described } = await changeSet(server.client, name, body, { Tags: [{ Key: 'team', Value: 'x' }] });
      expect(described).toMatchObject({ Status: 'CREATE_COMPLETE', Tags: [{ Key: 'team', Value: 'x' }] });
      expect(described.Changes![0].ResourceChange).toMatchObject({
        Action: 'Modify',
        Replacement: 'False',
        Scope: ['Tags'],
      });
    });

    it("an unchanged template reading Fn::GetAZs and another resource's attribute is a no-op", async () => {
      const name = stackName();
      const body = {
        Resources: {
          A: ssm('a'),
          B: {
            Type: 'AWS::SSM::Parameter',
            Properties: {
              Type: 'String',
              Value: {
                'Fn::Join': [',', [{ 'Fn::Select': [0, { 'Fn::GetAZs': '' }] }, { 'Fn::GetAtt': ['A', 'Value'] }]],
              },
            },
          },
        },
      };
      await deploy(server.client, name, body);
      const { described } = await changeSet(server.client, name, body);
      expect(described).toMatchObject({ Status: 'FAILED', Changes: [] });
    });

    it('paginates Changes 100 at a time with NextToken', async () => {
      const name = stackName();
      const resources = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`R${i}`, ssm('v')]));
      const { id } = await changeSet(server.client, name, { Resources: resources }, { ChangeSetType: 'CREATE' });
      const first = await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: id }));
      expect(first.Changes).toHaveLength(100);
      expect(first.NextToken).toBeDefined();
      const second = await server.client.send(
        new DescribeChangeSetCommand({ ChangeSetName: id, NextToken: first.NextToken }),
      );
      expect(second.Changes).toHaveLength(20);
      expect(second.NextToken).toBeUndefined();
    });

    it('IncludePropertyValues adds a WARN StatusReason when an export is missing', async () => {
      const name = stackName();
      const body = {
        Resources: {
          P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: { 'Fn::ImportValue': 'nope' } } },
        },
      };
      const { id, described } = await changeSet(server.client, name, body, { ChangeSetType: 'CREATE' });
      expect(described).toMatchObject({ Status: 'CREATE_COMPLETE', ExecutionStatus: 'AVAILABLE' });
      expect(described.StatusReason).toBeUndefined();
      const withValues = await server.client.send(
        new DescribeChangeSetCommand({ ChangeSetName: id, IncludePropertyValues: true }),
      );
      expect(withValues.StatusReason).toBe(
        '[WARN] --include-property-values option can return incomplete ChangeSet data because: ChangeSet creation failed for resource [P] because: No export named nope',
      );
      expect(withValues.Changes![0].ResourceChange!.AfterContext).toBe(
        JSON.stringify({ Properties: { Type: 'String', Value: '{{changeSet:KNOWN_AFTER_APPLY}}' } }),
      );
    });
  });
});

describe('ExecuteChangeSet', () => {
  it('returns InvalidChangeSetStatus for a FAILED (no-op) change set', async () => {
    const name = stackName();
    await deploy(server.client, name, template());
    const { id } = await changeSet(server.client, name, template());
    const err = await errorOf(server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: id })));
    expect(err).toEqual({
      code: 'InvalidChangeSetStatusException',
      status: 400,
      message: `ChangeSet [${id}] cannot be executed in its current status of [FAILED]`,
    });
  });

  it('refuses a second execute, concurrent or after completion, and nothing runs twice', async () => {
    const name = stackName();
    const { stackId } = await deploy(server.client, name, template('a'));
    const slow = { Resources: { P: { ...ssm('b'), Metadata: { 'cfn-local': { DelayMs: 300 } } } } };
    const { id } = await changeSet(server.client, name, slow);
    await server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: id }));
    const concurrent = await errorOf(server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: id })));
    expect(concurrent).toMatchObject({
      code: 'InvalidChangeSetStatusException',
      message: `ChangeSet [${id}] cannot be executed in its current execution status of [EXECUTE_IN_PROGRESS]`,
    });
    await timers.armed(300);
    await timers.advance(300);
    await waitForStack(server.client, stackId);
    const twice = await errorOf(server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: id })));
    expect(twice).toMatchObject({
      code: 'InvalidChangeSetStatusException',
      message: `ChangeSet [${id}] cannot be executed in its current execution status of [EXECUTE_COMPLETE]`,
    });
    const events = (await server.client.send(new DescribeStackEventsCommand({ StackName: stackId }))).StackEvents!;
    expect(
      events.filter((e) => e.LogicalResourceId === name && e.ResourceStatus === 'UPDATE_IN_PROGRESS'),
    ).toHaveLength(1);
  });

  // "When you execute a change set, CloudFormation deletes all other change sets associated with the stack"
  // (ExecuteChangeSet's API reference).
  it("deletes the stack's other change sets; ListChangeSets then lists none", async () => {
    const name = stackName();
    const { stackId } = await deploy(server.client, name, template('a'));
    const one = await changeSet(server.client, name, template('b'));
    const two = await changeSet(server.client, name, template('c'));
    await execute(server.client, one.id, stackId);
    expect(await errorOf(server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: two.id })))).toMatchObject({
      code: 'ChangeSetNotFoundException',
      message: `ChangeSet [${two.id}] does not exist`,
    });
    const twoName = two.id.split('/')[1];
    expect(
      await errorOf(server.client.send(new DescribeChangeSetCommand({ ChangeSetName: twoName, StackName: name }))),
    ).toMatchObject({ code: 'ChangeSetNotFoundException' });
    const { Summaries } = await server.client.send(new ListChangeSetsCommand({ StackName: name }));
    expect(Summaries).toEqual([]);
  });

  // AWS, quoted in guardian/riff-raff#672: by name "ChangeSet [deploy-1642157037866] does not exist", by ARN the
  // change set as it ran.
  it('an executed change set is found by ARN only, and its name is free for the next one', async () => {
    const name = stackName();
    const { stackId } = await deploy(server.client, name, template('a'));
    // the AWS CLI's deploy names its change sets by the second: two deploys within one second share the name
    const csName = `awscli-cloudformation-package-deploy-${Math.floor(Date.now() / 1000)}`;
    const first = await changeSet(server.client, name, template('b'), { ChangeSetName: csName });
    await execute(server.client, first.id, stackId);
    expect(
      await errorOf(server.client.send(new DescribeChangeSetCommand({ ChangeSetName: csName, StackName: name }))),
    ).toMatchObject({
      code: 'ChangeSetNotFoundException',
      status: 404,
      message: `ChangeSet [${csName}] does not exist`,
    });
    const byArn = await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: first.id }));
    expect([byArn.ChangeSetName, byArn.Status, byArn.ExecutionStatus]).toEqual([
      csName,
      'CREATE_COMPLETE',
      'EXECUTE_COMPLETE',
    ]);
    const second = await changeSet(server.client, name, template('c'), { ChangeSetName: csName });
    expect(second.id).not.toBe(first.id);
    const described = await server.client.send(
      new DescribeChangeSetCommand({ ChangeSetName: csName, StackName: name }),
    );
    expect([described.ChangeSetId, described.ExecutionStatus]).toEqual([second.id, 'AVAILABLE']);
    const { Summaries } = await server.client.send(new ListChangeSetsCommand({ StackName: name }));
    expect(Summaries!.map((s) => s.ChangeSetId)).toEqual([second.id]);
    await execute(server.client, second.id, stackId);
  });

  it('a CreateStack over a REVIEW_IN_PROGRESS stack makes its change set OBSOLETE (test_create_while_in_review)', async () => {
    const name = stackName();
    const { id } = await changeSet(server.client, name, template(), { ChangeSetType: 'CREATE' });
    const { StackId } = await server.client.send(new CreateStackCommand({ StackName: name, TemplateBody: template() }));
    await waitForStack(server.client, StackId!);
    expect((await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: id }))).ExecutionStatus).toBe(
      'OBSOLETE',
    );
  });
});

describe('DescribeChangeSet and DeleteChangeSet errors', () => {
  it('returns ValidationError for a missing stack and ChangeSetNotFound (404) for a deleted change set', async () => {
    expect(
      await errorOf(server.client.send(new DescribeChangeSetCommand({ ChangeSetName: 'x', StackName: 'somestack' }))),
    ).toEqual({ code: 'ValidationError', status: 400, message: 'Stack [somestack] does not exist' });
    const name = stackName();
    const { id } = await changeSet(server.client, name, template(), { ChangeSetType: 'CREATE' });
    const csName = id.split('/')[1];
    await server.client.send(new DeleteChangeSetCommand({ ChangeSetName: id }));
    expect(await errorOf(server.client.send(new DescribeChangeSetCommand({ ChangeSetName: id })))).toMatchObject({
      code: 'ChangeSetNotFoundException',
      status: 404,
      message: `ChangeSet [${id}] does not exist`,
    });
    expect(
      await errorOf(server.client.send(new DescribeChangeSetCommand({ ChangeSetName: csName, StackName: name }))),
    ).toMatchObject({ status: 404, message: `ChangeSet [${csName}] does not exist` });
    expect(await errorOf(server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: id })))).toMatchObject({
      status: 404,
    });
  });

  it('DeleteChangeSet needs StackName for a plain name, and names a missing stack', async () => {
    expect(await errorOf(server.client.send(new DeleteChangeSetCommand({ ChangeSetName: 'plain' })))).toMatchObject({
      code: 'ValidationError',
      message: 'StackName must be specified if ChangeSetName is not specified as an ARN.',
    });
    expect(
      await errorOf(server.client.send(new DeleteChangeSetCommand({ ChangeSetName: 'plain', StackName: 'nostack' }))),
    ).toMatchObject({ code: 'ValidationError', message: 'Stack [nostack] does not exist' });
  });

  // The CDK CLI deletes `cdk-deploy-change-set` before every deploy and diff of an existing stack: "The delete
  // request is successful as long as the stack exists (even if the change set does not exist)"
  // (aws/aws-cdk-cli toolkit-lib/lib/api/deployments/deploy-stack.ts, cleanupOldChangeset).
  it('DeleteChangeSet succeeds with an empty result when the stack exists but the change set does not', async () => {
    const name = stackName();
    const { id } = await changeSet(server.client, name, template(), { ChangeSetType: 'CREATE' });
    const out = await server.client.send(
      new DeleteChangeSetCommand({ ChangeSetName: 'cdk-deploy-change-set', StackName: name }),
    );
    expect(out.$metadata.httpStatusCode).toBe(200);
    await server.client.send(new DeleteChangeSetCommand({ ChangeSetName: id }));
    await server.client.send(new DeleteChangeSetCommand({ ChangeSetName: id, StackName: name }));
    expect(await errorOf(server.client.send(new DeleteChangeSetCommand({ ChangeSetName: id })))).toMatchObject({
      code: 'ChangeSetNotFoundException',
      status: 404,
    });
  });

  it('DeleteChangeSet on a REVIEW_IN_PROGRESS stack leaves the stack; DeleteStack deletes it', async () => {
    const name = stackName();
    const { id, stackId } = await changeSet(server.client, name, template(), { ChangeSetType: 'CREATE' });
    await server.client.send(new DeleteChangeSetCommand({ ChangeSetName: id }));
    expect((await server.client.send(new DescribeStacksCommand({ StackName: name }))).Stacks![0].StackStatus).toBe(
      'REVIEW_IN_PROGRESS',
    );
    await server.client.send(new DeleteStackCommand({ StackName: name }));
    expect((await waitForStack(server.client, stackId)).StackStatus).toBe('DELETE_COMPLETE');
  });
});
