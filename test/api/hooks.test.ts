// CloudFormation Hooks: a registered hook type with a configuration runs at AWS's invocation points (a resource's
// pre-create, pre-update and pre-delete, a stack's operations, CreateChangeSet), its verdict set on demand (template
// Metadata or the control API); FAIL mode fails what it guards with AWS's texts, WARN only reports; and
// DescribeChangeSetHooks, GetHookResult and ListHookResults show the invocations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  DescribeChangeSetHooksCommand,
  GetHookResultCommand,
  ListHookResultsCommand,
  SetTypeConfigurationCommand,
  UpdateStackCommand,
  type StackEvent,
} from '@aws-sdk/client-cloudformation';
import type { S3Client } from '@aws-sdk/client-s3';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { allEvents } from '../helpers/events.js';
import { awsErrorOf } from '../helpers/errors.js';
import { registerAndWait } from '../helpers/registry.js';

const BUCKET_HOOK = 'MyOrg::Checks::BucketHook';
const QUEUE_HOOK = 'MyOrg::Checks::QueueHook';
const STACK_HOOK = 'MyOrg::Checks::StackHook';
const CHANGE_SET_HOOK = 'MyOrg::Checks::ChangeSetHook';
const arnOf = (typeName: string) =>
  `arn:aws:cloudformation:us-east-1:000000000000:type/hook/${typeName.replace(/::/g, '-')}`;

const hookSchema = (typeName: string, handlers: Record<string, { targetNames: string[]; permissions: never[] }>) => ({
  typeName,
  description: 'A check run before provisioning.',
  typeConfiguration: { properties: {}, additionalProperties: false },
  required: [],
  handlers,
  additionalProperties: false,
});
const on = (...targetNames: string[]) => ({ targetNames, permissions: [] as never[] });

let server: TestServer;
let s3: S3Client;

async function configure(typeName: string, hookConfiguration: Record<string, unknown>) {
  await server.client.send(
    new SetTypeConfigurationCommand({
      Type: 'HOOK',
      TypeName: typeName,
      Configuration: JSON.stringify({ CloudFormationConfiguration: { HookConfiguration: hookConfiguration } }),
    }),
  );
}

async function control(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.endpoint}/_cfn-local${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function createStack(name: string, template: object) {
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: name, TemplateBody: JSON.stringify(template) }),
  );
  return { stackId: StackId!, stack: await waitForStack(server.client, StackId!) };
}

const bucket = (metadata?: object, properties: object = {}) => ({
  Type: 'AWS::S3::Bucket',
  Properties: properties,
  ...(metadata ? { Metadata: { 'cfn-local': metadata } } : {}),
});

const hookEvents = (events: StackEvent[], logicalId: string) =>
  events.filter((e) => e.LogicalResourceId === logicalId && e.HookType !== undefined);

beforeAll(async () => {
  server = await startServer();
  s3 = s3Client(server.endpoint);
  const schemas = [
    hookSchema(BUCKET_HOOK, {
      preCreate: on('AWS::S3::Bucket'),
      preUpdate: on('AWS::S3::Bucket'),
      preDelete: on('AWS::S3::Bucket'),
    }),
    hookSchema(QUEUE_HOOK, { preCreate: on('AWS::SQS::Queue') }),
    hookSchema(STACK_HOOK, { preCreate: on('STACK'), preUpdate: on('STACK'), preDelete: on('STACK') }),
    hookSchema(CHANGE_SET_HOOK, { preCreate: on('CHANGE_SET') }),
  ];
  for (const schema of schemas) {
    expect((await registerAndWait(server.client, s3, 'HOOK', schema)).ProgressStatus).toBe('COMPLETE');
  }
  await configure(BUCKET_HOOK, { TargetStacks: 'ALL', FailureMode: 'FAIL' });
  await configure(QUEUE_HOOK, { TargetStacks: 'ALL', FailureMode: 'WARN' });
  const only = (name: string) => ({ FilteringCriteria: 'ALL', StackNames: { Include: [name] } });
  await configure(STACK_HOOK, {
    TargetStacks: 'ALL',
    FailureMode: 'FAIL',
    TargetOperations: ['STACK'],
    StackFilters: only('guarded'),
  });
  await configure(CHANGE_SET_HOOK, {
    TargetStacks: 'ALL',
    FailureMode: 'FAIL',
    TargetOperations: ['CHANGE_SET'],
    StackFilters: only('reviewed'),
  });
});

afterAll(() => server.close());

describe('resource hooks: pre-create', () => {
  it('FAIL mode: a failed hook fails the resource before it is created, with AWS events and reason', async () => {
    const { stack, stackId } = await createStack('bucket-refused', {
      Resources: { Bucket: bucket({ HookFail: BUCKET_HOOK, HookMessage: 'Bucket must be encrypted' }) },
    });
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const events = await allEvents(server.client, stackId);
    const hooked = hookEvents(events, 'Bucket');
    expect(hooked.map((e) => [e.ResourceStatus, e.HookStatus, e.HookStatusReason])).toEqual([
      ['CREATE_IN_PROGRESS', 'HOOK_IN_PROGRESS', 'Invoking hook'],
      ['CREATE_IN_PROGRESS', 'HOOK_COMPLETE_FAILED', 'Hook failed with message: Bucket must be encrypted'],
    ]);
    expect(hooked[0]).toMatchObject({
      HookType: BUCKET_HOOK,
      HookInvocationPoint: 'PRE_PROVISION',
      HookFailureMode: 'FAIL',
      PhysicalResourceId: '',
    });
    expect(hooked[1].HookInvocationId).toBe(hooked[0].HookInvocationId);
    const bucketEvents = events.filter((e) => e.LogicalResourceId === 'Bucket' && e.HookType === undefined);
    expect(bucketEvents[0]).toMatchObject({
      ResourceStatus: 'CREATE_FAILED',
      ResourceStatusReason: `The following hook(s) failed: [${BUCKET_HOOK}]`,
    });
  });

  it('a passing hook lets the create go on: "Hook invocations complete.  Resource creation initiated"', async () => {
    const { stack, stackId } = await createStack('bucket-passed', { Resources: { Bucket: bucket() } });
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const events = await allEvents(server.client, stackId);
    expect(hookEvents(events, 'Bucket').map((e) => e.HookStatus)).toEqual([
      'HOOK_IN_PROGRESS',
      'HOOK_COMPLETE_SUCCEEDED',
    ]);
    const lines = events
      .filter((e) => e.LogicalResourceId === 'Bucket' && e.HookType === undefined)
      .map((e) => `${e.ResourceStatus}: ${e.ResourceStatusReason ?? ''}`);
    expect(lines).toEqual([
      'CREATE_IN_PROGRESS: Hook invocations complete.  Resource creation initiated',
      'CREATE_IN_PROGRESS: Resource creation Initiated',
      'CREATE_COMPLETE: ',
    ]);
  });

  it('WARN mode: a failed hook only reports, and the resource is created', async () => {
    const { stack, stackId } = await createStack('queue-warned', {
      Resources: { Queue: { Type: 'AWS::SQS::Queue', Metadata: { 'cfn-local': { HookFail: '*' } } } },
    });
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const hooked = hookEvents(await allEvents(server.client, stackId), 'Queue');
    expect(hooked.at(-1)).toMatchObject({
      HookType: QUEUE_HOOK,
      HookStatus: 'HOOK_COMPLETE_FAILED',
      HookFailureMode: 'WARN',
    });
  });

  it('a hook leaves alone the resource types it does not target', async () => {
    const { stackId } = await createStack('untargeted', {
      Resources: { Topic: { Type: 'AWS::SNS::Topic' } },
    });
    expect(hookEvents(await allEvents(server.client, stackId), 'Topic')).toEqual([]);
  });
});

describe('resource hooks: pre-update and pre-delete, verdicts from the control API', () => {
  it('a failed pre-update hook fails the update (UPDATE_FAILED, then the rollback)', async () => {
    const { stackId } = await createStack('bucket-updated', { Resources: { Bucket: bucket() } });
    const verdict = await control('POST', '/hooks/verdicts', {
      typeName: BUCKET_HOOK,
      stackName: 'bucket-updated',
      action: 'UPDATE',
      status: 'HOOK_COMPLETE_FAILED',
      message: 'No tag changes',
      times: 1,
    });
    expect(verdict.status).toBe(201);
    await server.client.send(
      new UpdateStackCommand({
        StackName: stackId,
        TemplateBody: JSON.stringify({
          Resources: { Bucket: bucket(undefined, { Tags: [{ Key: 'a', Value: 'b' }] }) },
        }),
      }),
    );
    expect((await waitForStack(server.client, stackId)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const events = await allEvents(server.client, stackId);
    const failed = events.find((e) => e.LogicalResourceId === 'Bucket' && e.ResourceStatus === 'UPDATE_FAILED');
    expect(failed?.ResourceStatusReason).toBe(`The following hook(s) failed: [${BUCKET_HOOK}]`);
    expect(hookEvents(events, 'Bucket').at(-1)).toMatchObject({
      ResourceStatus: 'UPDATE_IN_PROGRESS',
      HookStatus: 'HOOK_COMPLETE_FAILED',
      HookStatusReason: 'Hook failed with message: No tag changes',
    });
  });

  it('a failed pre-delete hook fails the delete (DELETE_FAILED) and keeps the bucket', async () => {
    const { stackId } = await createStack('bucket-kept', { Resources: { Bucket: bucket() } });
    await control('POST', '/hooks/verdicts', {
      logicalId: 'Bucket',
      stackName: 'bucket-kept',
      action: 'DELETE',
      status: 'HOOK_FAILED',
      times: 1,
    });
    await server.client.send(new DeleteStackCommand({ StackName: stackId }));
    const stack = await waitForStack(server.client, stackId);
    expect(stack.StackStatus).toBe('DELETE_FAILED');
    const events = await allEvents(server.client, stackId);
    const failed = events.find((e) => e.LogicalResourceId === 'Bucket' && e.ResourceStatus === 'DELETE_FAILED');
    expect(failed?.ResourceStatusReason).toBe(`The following hook(s) failed: [${BUCKET_HOOK}]`);
    expect(hookEvents(events, 'Bucket').at(-1)).toMatchObject({
      ResourceStatus: 'DELETE_IN_PROGRESS',
      HookStatus: 'HOOK_FAILED',
    });
    // the verdict was used up: the next delete goes through
    await server.client.send(new DeleteStackCommand({ StackName: stackId }));
    expect((await waitForStack(server.client, stackId)).StackStatus).toBe('DELETE_COMPLETE');
  });

  it('refuses a verdict it cannot read with a 400 saying why', async () => {
    const bad = await control('POST', '/hooks/verdicts', { status: 'MAYBE' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('status must be one of HOOK_COMPLETE_SUCCEEDED');
    expect((await control('POST', '/hooks/verdicts', { status: 'HOOK_FAILED', colour: 'red' })).status).toBe(400);
  });
});

describe('stack hooks', () => {
  it('a failed STACK hook fails the create before any resource is touched', async () => {
    const { stack, stackId } = await createStack('guarded', {
      Metadata: { 'cfn-local': { HookFail: STACK_HOOK } },
      Resources: { Bucket: bucket() },
    });
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const events = await allEvents(server.client, stackId);
    expect(hookEvents(events, 'guarded').map((e) => [e.ResourceStatus, e.ResourceType, e.HookStatus])).toEqual([
      ['CREATE_IN_PROGRESS', 'AWS::CloudFormation::Stack', 'HOOK_IN_PROGRESS'],
      ['CREATE_IN_PROGRESS', 'AWS::CloudFormation::Stack', 'HOOK_COMPLETE_FAILED'],
    ]);
    const rollback = events.find((e) => e.ResourceStatus === 'ROLLBACK_IN_PROGRESS');
    expect(rollback?.ResourceStatusReason).toContain(`The following hook(s) failed: [${STACK_HOOK}]`);
    expect(events.filter((e) => e.LogicalResourceId === 'Bucket')).toEqual([]);
    // ListHookResults by the stack's ARN finds the invocation
    const listed = await server.client.send(new ListHookResultsCommand({ TargetType: 'STACK', TargetId: stackId }));
    expect(listed.HookResults?.map((r) => [r.TypeName, r.Status, r.TargetId])).toEqual([
      [STACK_HOOK, 'HOOK_COMPLETE_FAILED', 'guarded'],
    ]);
  });
});

describe('change set hooks and DescribeChangeSetHooks', () => {
  it('a failed CHANGE_SET hook fails the change set with AWS reason, and ListHookResults shows it', async () => {
    const { Id } = await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'reviewed',
        ChangeSetName: 'refused',
        ChangeSetType: 'CREATE',
        TemplateBody: JSON.stringify({ Metadata: { 'cfn-local': { HookFail: '*' } }, Resources: { Bucket: bucket() } }),
      }),
    );
    const cs = await settledChangeSet(Id!);
    expect(cs.Status).toBe('FAILED');
    expect(cs.StatusReason).toBe(`Change set creation failed. The following hook(s) failed: [${CHANGE_SET_HOOK}]`);
    const listed = await server.client.send(new ListHookResultsCommand({ TargetType: 'CHANGE_SET', TargetId: Id }));
    expect(listed).toMatchObject({ TargetType: 'CHANGE_SET', TargetId: Id });
    expect(listed.HookResults).toHaveLength(1);
    const [summary] = listed.HookResults!;
    expect(summary).toMatchObject({
      TypeName: CHANGE_SET_HOOK,
      TypeArn: arnOf(CHANGE_SET_HOOK),
      Status: 'HOOK_COMPLETE_FAILED',
      FailureMode: 'FAIL',
      InvocationPoint: 'PRE_PROVISION',
    });
    expect(summary.HookExecutionTarget).toBeUndefined();
    const result = await server.client.send(new GetHookResultCommand({ HookResultId: summary.HookResultId }));
    expect(result).toMatchObject({
      HookResultId: summary.HookResultId,
      TypeName: CHANGE_SET_HOOK,
      Status: 'HOOK_COMPLETE_FAILED',
      HookStatusReason: 'Hook failed with message: Failed validation',
      Target: { TargetType: 'CHANGE_SET', TargetTypeName: 'CHANGE_SET', TargetId: Id, Action: 'CREATE' },
    });
    expect(result.InvokedAt).toBeInstanceOf(Date);
  });

  it('DescribeChangeSetHooks lists the hooks each resource change will invoke', async () => {
    const { Id } = await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'planned',
        ChangeSetName: 'plan',
        ChangeSetType: 'CREATE',
        TemplateBody: JSON.stringify({ Resources: { Bucket: bucket(), Queue: { Type: 'AWS::SQS::Queue' } } }),
      }),
    );
    await settledChangeSet(Id!);
    const out = await server.client.send(new DescribeChangeSetHooksCommand({ ChangeSetName: Id }));
    expect(out).toMatchObject({ ChangeSetId: Id, ChangeSetName: 'plan', StackName: 'planned', Status: 'PLANNED' });
    expect(
      out.Hooks?.map((h) => [h.TypeName, h.FailureMode, h.InvocationPoint, h.TargetDetails?.ResourceTargetDetails]),
    ).toEqual([
      [
        BUCKET_HOOK,
        'FAIL',
        'PRE_PROVISION',
        { LogicalResourceId: 'Bucket', ResourceType: 'AWS::S3::Bucket', ResourceAction: 'Add' },
      ],
      [
        QUEUE_HOOK,
        'WARN',
        'PRE_PROVISION',
        { LogicalResourceId: 'Queue', ResourceType: 'AWS::SQS::Queue', ResourceAction: 'Add' },
      ],
    ]);
    const onlyQueue = await server.client.send(
      new DescribeChangeSetHooksCommand({ ChangeSetName: 'plan', StackName: 'planned', LogicalResourceId: 'Queue' }),
    );
    expect(onlyQueue.Hooks?.map((h) => h.TypeName)).toEqual([QUEUE_HOOK]);
    const missing = await awsErrorOf(
      server.client.send(new DescribeChangeSetHooksCommand({ ChangeSetName: 'nope', StackName: 'planned' })),
    );
    expect(missing.code).toBe('ChangeSetNotFoundException');
  });
});

describe('ListHookResults and GetHookResult', () => {
  it('lists every invocation with its target when no filter is given, or one hook by TypeArn and Status', async () => {
    const all = await server.client.send(new ListHookResultsCommand({}));
    expect(all.HookResults!.length).toBeGreaterThan(3);
    expect(all.HookResults!.every((r) => r.HookExecutionTarget?.startsWith('arn:aws:cloudformation:'))).toBe(true);
    const failed = await server.client.send(
      new ListHookResultsCommand({ TypeArn: arnOf(BUCKET_HOOK), Status: 'HOOK_COMPLETE_FAILED' }),
    );
    expect(failed.HookResults!.length).toBeGreaterThan(0);
    expect(failed.HookResults!.every((r) => r.TypeName === BUCKET_HOOK && r.Status === 'HOOK_COMPLETE_FAILED')).toBe(
      true,
    );
  });

  it('answers the combinations AWS refuses with ValidationError, and unknown targets and ids with HookResultNotFound', async () => {
    const statusAlone = await awsErrorOf(server.client.send(new ListHookResultsCommand({ Status: 'HOOK_FAILED' })));
    expect(statusAlone.code).toBe('ValidationError');
    const typeAlone = await awsErrorOf(server.client.send(new ListHookResultsCommand({ TargetType: 'STACK' })));
    expect(typeAlone.code).toBe('ValidationError');
    const none = await awsErrorOf(
      server.client.send(new ListHookResultsCommand({ TargetType: 'RESOURCE', TargetId: 'NoSuchResource' })),
    );
    expect(none.code).toBe('HookResultNotFoundException');
    const unknown = await awsErrorOf(
      server.client.send(new GetHookResultCommand({ HookResultId: '00000000-0000-4000-8000-000000000000' })),
    );
    expect(unknown.code).toBe('HookResultNotFoundException');
  });
});

async function settledChangeSet(id: string) {
  const end = Date.now() + 10_000;
  for (;;) {
    const cs = await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: id }));
    if (cs.Status !== 'CREATE_PENDING' && cs.Status !== 'CREATE_IN_PROGRESS') return cs;
    if (Date.now() > end) throw new Error(`change set ${id} still ${cs.Status}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
