// Hooks on Cloud Control requests: a hook whose configuration targets CLOUD_CONTROL runs before CreateResource,
// UpdateResource and DeleteResource provision anything. The request's ProgressEvent carries a HooksRequestToken,
// GetResourceRequestStatus lists the invocations (HooksProgressEvent), ListHookResults finds them by that token,
// and a FAIL-mode failure fails the request before anything is made; WARN only reports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CancelResourceRequestCommand,
  CloudControlClient,
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  GetResourceRequestStatusCommand,
  UpdateResourceCommand,
  type GetResourceRequestStatusCommandOutput,
  type ProgressEvent,
} from '@aws-sdk/client-cloudcontrol';
import {
  GetHookResultCommand,
  ListHookResultsCommand,
  SetTypeConfigurationCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { registerAndWait } from '../helpers/registry.js';

const PARAMETER_HOOK = 'MyOrg::Checks::ParameterHook';
const QUEUE_HOOK = 'MyOrg::Checks::QueueHook';
const STACK_ONLY_HOOK = 'MyOrg::Checks::StackResourceHook';
const arnOf = (typeName: string) =>
  `arn:aws:cloudformation:us-east-1:000000000000:type/hook/${typeName.replace(/::/g, '-')}`;

const hookSchema = (typeName: string, targetNames: string[]) => {
  const handler = { targetNames, permissions: [] };
  return {
    typeName,
    description: 'A check run before provisioning.',
    typeConfiguration: { properties: {}, additionalProperties: false },
    required: [],
    handlers: { preCreate: handler, preUpdate: handler, preDelete: handler },
    additionalProperties: false,
  };
};

let server: TestServer;
let cc: CloudControlClient;

async function configure(typeName: string, hookConfiguration: Record<string, unknown>) {
  await server.client.send(
    new SetTypeConfigurationCommand({
      Type: 'HOOK',
      TypeName: typeName,
      Configuration: JSON.stringify({ CloudFormationConfiguration: { HookConfiguration: hookConfiguration } }),
    }),
  );
}

async function verdict(body: Record<string, unknown>) {
  const res = await fetch(`${server.endpoint}/_cfn-local/hooks/verdicts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
}

/** Polls GetResourceRequestStatus until the request leaves IN_PROGRESS (bounded). */
async function settled(event: ProgressEvent): Promise<GetResourceRequestStatusCommandOutput> {
  for (let i = 0; i < 400; i++) {
    const out = await cc.send(new GetResourceRequestStatusCommand({ RequestToken: event.RequestToken }));
    if (out.ProgressEvent!.OperationStatus !== 'IN_PROGRESS') return out;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`request ${event.RequestToken} never settled`);
}

async function createParameter(name: string) {
  const { ProgressEvent } = await cc.send(
    new CreateResourceCommand({
      TypeName: 'AWS::SSM::Parameter',
      DesiredState: JSON.stringify({ Name: name, Type: 'String', Value: 'v1' }),
    }),
  );
  return { first: ProgressEvent!, last: await settled(ProgressEvent!) };
}

beforeAll(async () => {
  server = await startServer();
  cc = new CloudControlClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const s3 = s3Client(server.endpoint);
  for (const schema of [
    hookSchema(PARAMETER_HOOK, ['AWS::SSM::Parameter']),
    hookSchema(QUEUE_HOOK, ['AWS::SQS::Queue']),
    hookSchema(STACK_ONLY_HOOK, ['AWS::SSM::Parameter']),
  ]) {
    expect((await registerAndWait(server.client, s3, 'HOOK', schema)).ProgressStatus).toBe('COMPLETE');
  }
  // StackFilters name stacks: a Cloud Control request has none, so they do not keep the hook from it
  await configure(PARAMETER_HOOK, {
    HookInvocationStatus: 'ENABLED',
    FailureMode: 'FAIL',
    TargetOperations: ['CLOUD_CONTROL'],
    StackFilters: { FilteringCriteria: 'ALL', StackNames: { Include: ['some-stack'] } },
  });
  await configure(QUEUE_HOOK, {
    TargetStacks: 'ALL',
    FailureMode: 'WARN',
    TargetOperations: ['CLOUD_CONTROL'],
  });
  // a hook on stack resources only (TargetOperations defaults to RESOURCE): Cloud Control requests never invoke it
  await configure(STACK_ONLY_HOOK, { TargetStacks: 'ALL', FailureMode: 'FAIL' });
});
afterAll(() => server.close());

describe('CreateResource with a CLOUD_CONTROL hook', () => {
  it('a passing hook: HooksRequestToken, HooksProgressEvent, and the resource is created', async () => {
    const { first, last } = await createParameter('/cc-hooks/passes');
    expect(first.HooksRequestToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.HooksRequestToken).not.toBe(first.RequestToken);
    expect(last.ProgressEvent).toMatchObject({
      OperationStatus: 'SUCCESS',
      HooksRequestToken: first.HooksRequestToken,
    });
    expect(last.HooksProgressEvent).toEqual([
      {
        HookTypeName: PARAMETER_HOOK,
        HookTypeVersionId: '00000001',
        HookTypeArn: arnOf(PARAMETER_HOOK),
        InvocationPoint: 'PRE_PROVISION',
        HookStatus: 'HOOK_COMPLETE_SUCCEEDED',
        HookEventTime: expect.any(Date),
        HookStatusMessage:
          'Hook succeeded with message: Successfully invoked PreCreateHookHandler for target AWS::SSM::Parameter',
        FailureMode: 'FAIL',
      },
    ]);
    const { HookResults } = await server.client.send(
      new ListHookResultsCommand({ TargetType: 'CLOUD_CONTROL', TargetId: first.HooksRequestToken }),
    );
    expect(HookResults).toEqual([
      expect.objectContaining({
        TypeName: PARAMETER_HOOK,
        Status: 'HOOK_COMPLETE_SUCCEEDED',
        TargetType: 'CLOUD_CONTROL',
        TargetId: first.HooksRequestToken,
      }),
    ]);
    const result = await server.client.send(new GetHookResultCommand({ HookResultId: HookResults![0].HookResultId }));
    expect(result.Target).toEqual({
      TargetType: 'CLOUD_CONTROL',
      TargetTypeName: 'AWS::SSM::Parameter',
      TargetId: first.HooksRequestToken,
      Action: 'CREATE',
    });
    const { HookResults: all } = await server.client.send(new ListHookResultsCommand({}));
    expect(all!.find((r) => r.HookResultId === HookResults![0].HookResultId)?.HookExecutionTarget).toBe(
      first.RequestToken,
    );
  });

  it('a failed FAIL-mode hook fails the request before the resource is made', async () => {
    await verdict({
      typeName: PARAMETER_HOOK,
      targetType: 'CLOUD_CONTROL',
      action: 'CREATE',
      status: 'HOOK_COMPLETE_FAILED',
      message: 'Parameters need a tier',
      times: 1,
    });
    const { last } = await createParameter('/cc-hooks/refused');
    expect(last.ProgressEvent).toMatchObject({
      OperationStatus: 'FAILED',
      ErrorCode: 'GeneralServiceException',
      StatusMessage: `The following hook(s) failed: [${PARAMETER_HOOK}]`,
    });
    expect(last.HooksProgressEvent).toEqual([
      expect.objectContaining({
        HookTypeName: PARAMETER_HOOK,
        HookStatus: 'HOOK_COMPLETE_FAILED',
        HookStatusMessage: 'Hook failed with message: Parameters need a tier',
      }),
    ]);
    await expect(
      cc.send(new GetResourceCommand({ TypeName: 'AWS::SSM::Parameter', Identifier: '/cc-hooks/refused' })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('a failed WARN-mode hook only reports: the queue is created', async () => {
    await verdict({ typeName: QUEUE_HOOK, status: 'HOOK_FAILED', times: 1 });
    const { ProgressEvent } = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::SQS::Queue',
        DesiredState: JSON.stringify({ QueueName: 'cc-warned' }),
      }),
    );
    const last = await settled(ProgressEvent!);
    expect(last.ProgressEvent!.OperationStatus).toBe('SUCCESS');
    expect(last.HooksProgressEvent).toEqual([
      expect.objectContaining({ HookTypeName: QUEUE_HOOK, HookStatus: 'HOOK_FAILED', FailureMode: 'WARN' }),
    ]);
  });

  it('a request no hook targets has no HooksRequestToken and no HooksProgressEvent', async () => {
    const { ProgressEvent } = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::SNS::Topic',
        DesiredState: JSON.stringify({ TopicName: 'cc-free' }),
      }),
    );
    expect(ProgressEvent!.HooksRequestToken).toBeUndefined();
    const last = await settled(ProgressEvent!);
    expect(last.ProgressEvent!.OperationStatus).toBe('SUCCESS');
    expect(last.HooksProgressEvent).toBeUndefined();
  });
});

describe('a request that has not started yet', () => {
  it('lists its hooks HOOK_PENDING; cancelled, they never run', async () => {
    const fault = await fetch(`${server.endpoint}/_cfn-local/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ resourceType: 'AWS::SQS::Queue', action: 'Create', delayMs: 60_000, times: 1 }),
    });
    expect(fault.status).toBeLessThan(300);
    const { ProgressEvent } = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::SQS::Queue',
        DesiredState: JSON.stringify({ QueueName: 'cc-later' }),
      }),
    );
    const waiting = await cc.send(new GetResourceRequestStatusCommand({ RequestToken: ProgressEvent!.RequestToken }));
    expect(waiting.ProgressEvent!.OperationStatus).toBe('IN_PROGRESS');
    expect(waiting.HooksProgressEvent).toEqual([
      {
        HookTypeName: QUEUE_HOOK,
        HookTypeVersionId: '00000001',
        HookTypeArn: arnOf(QUEUE_HOOK),
        InvocationPoint: 'PRE_PROVISION',
        HookStatus: 'HOOK_PENDING',
        FailureMode: 'WARN',
      },
    ]);
    await cc.send(new CancelResourceRequestCommand({ RequestToken: ProgressEvent!.RequestToken }));
    const cancelled = await cc.send(new GetResourceRequestStatusCommand({ RequestToken: ProgressEvent!.RequestToken }));
    expect(cancelled.ProgressEvent!.OperationStatus).toBe('CANCEL_COMPLETE');
    expect(cancelled.HooksProgressEvent!.map((h) => h.HookStatus)).toEqual(['HOOK_PENDING']);
  });
});

describe('UpdateResource and DeleteResource with a CLOUD_CONTROL hook', () => {
  it('pre-update and pre-delete hooks run; a failed one keeps the resource as it was', async () => {
    const name = '/cc-hooks/guarded';
    expect((await createParameter(name)).last.ProgressEvent!.OperationStatus).toBe('SUCCESS');
    await verdict({ typeName: PARAMETER_HOOK, action: 'UPDATE', status: 'HOOK_COMPLETE_FAILED', times: 1 });
    const patch = JSON.stringify([{ op: 'replace', path: '/Value', value: 'v2' }]);
    const update = await cc.send(
      new UpdateResourceCommand({ TypeName: 'AWS::SSM::Parameter', Identifier: name, PatchDocument: patch }),
    );
    const refused = await settled(update.ProgressEvent!);
    expect(refused.ProgressEvent).toMatchObject({ OperationStatus: 'FAILED', Operation: 'UPDATE' });
    expect(refused.HooksProgressEvent).toEqual([
      expect.objectContaining({
        HookStatus: 'HOOK_COMPLETE_FAILED',
        HookStatusMessage: 'Hook failed with message: Failed validation',
      }),
    ]);
    const read = await cc.send(new GetResourceCommand({ TypeName: 'AWS::SSM::Parameter', Identifier: name }));
    expect(JSON.parse(read.ResourceDescription!.Properties!)).toMatchObject({ Value: 'v1' });

    await verdict({ typeName: PARAMETER_HOOK, action: 'DELETE', status: 'HOOK_COMPLETE_FAILED', times: 1 });
    const del = await cc.send(new DeleteResourceCommand({ TypeName: 'AWS::SSM::Parameter', Identifier: name }));
    expect((await settled(del.ProgressEvent!)).ProgressEvent!.OperationStatus).toBe('FAILED');
    await cc.send(new GetResourceCommand({ TypeName: 'AWS::SSM::Parameter', Identifier: name }));

    const again = await cc.send(new DeleteResourceCommand({ TypeName: 'AWS::SSM::Parameter', Identifier: name }));
    const deleted = await settled(again.ProgressEvent!);
    expect(deleted.ProgressEvent!.OperationStatus).toBe('SUCCESS');
    expect(deleted.HooksProgressEvent).toEqual([
      expect.objectContaining({
        HookStatus: 'HOOK_COMPLETE_SUCCEEDED',
        HookStatusMessage:
          'Hook succeeded with message: Successfully invoked PreDeleteHookHandler for target AWS::SSM::Parameter',
      }),
    ]);
  });
});
