// Self-managed stack sets through the SDK: each instance a real stack in its account and region, operations that
// run in the background with their per-account results, region order and failure tolerance, stops, drift, import.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateStackCommand,
  CreateStackInstancesCommand,
  CreateStackSetCommand,
  DeleteStackInstancesCommand,
  DeleteStackSetCommand,
  DescribeStackInstanceCommand,
  DescribeStackSetCommand,
  DescribeStacksCommand,
  DetectStackSetDriftCommand,
  ImportStacksToStackSetCommand,
  ListStackInstanceResourceDriftsCommand,
  ListStackSetOperationsCommand,
  ListStackSetsCommand,
  StopStackSetOperationCommand,
  UpdateStackInstancesCommand,
  UpdateStackSetCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import {
  A,
  ADMIN,
  B,
  byTarget,
  clientFor,
  instancesOf,
  resultsOf,
  stackOf,
  waitForOperation,
} from './stackSetsHelpers.js';

const TEMPLATE = `Parameters:
  Greeting: { Type: String, Default: hello }
Resources:
  Setting:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: !Ref Greeting }
Outputs:
  Name: { Value: !Ref Setting }
`;

/** Fails its create in eu-west-1 only: the injected fault sits on a resource that exists there alone. */
const FAILS_IN_EU_WEST_1 = `Conditions:
  InEuWest1: !Equals [!Ref AWS::Region, eu-west-1]
Resources:
  Fine:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: fine }
  Bad:
    Type: AWS::SSM::Parameter
    Condition: InEuWest1
    Metadata:
      cfn-local: { Fail: [Create], Message: "Injected failure" }
    Properties: { Type: String, Value: bad }
`;

let server: TestServer;
let cfn: CloudFormationClient;

beforeAll(async () => {
  server = await startServer();
  cfn = clientFor(server, ADMIN);
});
afterAll(() => server.close());

async function newSet(name: string, body = TEMPLATE) {
  await cfn.send(new CreateStackSetCommand({ StackSetName: name, TemplateBody: body }));
  return name;
}

describe('CreateStackSet', () => {
  it('DescribeStackSet shows the set ACTIVE, self-managed, with the default roles and drift NOT_CHECKED', async () => {
    const { StackSetId } = await cfn.send(
      new CreateStackSetCommand({
        StackSetName: 'described',
        TemplateBody: TEMPLATE,
        Description: 'one parameter',
        Parameters: [{ ParameterKey: 'Greeting', ParameterValue: 'hi' }],
        Tags: [{ Key: 'team', Value: 'a' }],
      }),
    );
    expect(StackSetId).toMatch(/^described:[0-9a-f-]{36}$/);
    const { StackSet } = await cfn.send(new DescribeStackSetCommand({ StackSetName: 'described' }));
    expect(StackSet).toMatchObject({
      StackSetName: 'described',
      StackSetId,
      Description: 'one parameter',
      Status: 'ACTIVE',
      TemplateBody: TEMPLATE,
      Parameters: [{ ParameterKey: 'Greeting', ParameterValue: 'hi' }],
      Tags: [{ Key: 'team', Value: 'a' }],
      StackSetARN: `arn:aws:cloudformation:us-east-1:${ADMIN}:stackset/${StackSetId}`,
      AdministrationRoleARN: `arn:aws:iam::${ADMIN}:role/AWSCloudFormationStackSetAdministrationRole`,
      ExecutionRoleName: 'AWSCloudFormationStackSetExecutionRole',
      PermissionModel: 'SELF_MANAGED',
      ManagedExecution: { Active: false },
      StackSetDriftDetectionDetails: { DriftStatus: 'NOT_CHECKED', TotalStackInstancesCount: 0 },
    });
    // by id as well as by name
    const byId = await cfn.send(new DescribeStackSetCommand({ StackSetName: StackSetId }));
    expect(byId.StackSet!.StackSetName).toBe('described');
  });

  it('returns NameAlreadyExistsException for a name taken, and the same id for a repeated ClientRequestToken', async () => {
    const first = await cfn.send(
      new CreateStackSetCommand({ StackSetName: 'taken', TemplateBody: TEMPLATE, ClientRequestToken: 't1' }),
    );
    const again = await cfn.send(
      new CreateStackSetCommand({ StackSetName: 'taken', TemplateBody: TEMPLATE, ClientRequestToken: 't1' }),
    );
    expect(again.StackSetId).toBe(first.StackSetId);
    await expect(
      cfn.send(new CreateStackSetCommand({ StackSetName: 'taken', TemplateBody: TEMPLATE })),
    ).rejects.toMatchObject({
      name: 'NameAlreadyExistsException',
      message: 'StackSet taken already exists',
    });
  });

  it('returns ValidationError for a bad template, a bad name or no template', async () => {
    await expect(
      cfn.send(new CreateStackSetCommand({ StackSetName: 'bad', TemplateBody: 'Resources: [' })),
    ).rejects.toMatchObject({
      name: 'ValidationError',
    });
    await expect(
      cfn.send(new CreateStackSetCommand({ StackSetName: '1bad', TemplateBody: TEMPLATE })),
    ).rejects.toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining("at 'stackSetName' failed to satisfy constraint"),
    });
    await expect(cfn.send(new CreateStackSetCommand({ StackSetName: 'none' }))).rejects.toMatchObject({
      message: 'Either Template URL or Template Body must be specified.',
    });
  });

  it('returns StackSetNotFoundException for a set that does not exist, and sets are per account', async () => {
    await expect(cfn.send(new DescribeStackSetCommand({ StackSetName: 'nope' }))).rejects.toMatchObject({
      name: 'StackSetNotFoundException',
      message: 'StackSet nope not found',
      $metadata: { httpStatusCode: 404 },
    });
    await expect(
      clientFor(server, A).send(new DescribeStackSetCommand({ StackSetName: 'described' })),
    ).rejects.toMatchObject({ name: 'StackSetNotFoundException' });
  });
});

describe('CreateStackInstances', () => {
  it('creates a real stack StackSet-<name>-<uuid> per account and region, with its parameter overrides', async () => {
    const name = await newSet('fleet');
    const { OperationId } = await cfn.send(
      new CreateStackInstancesCommand({
        StackSetName: name,
        Accounts: [A, B],
        Regions: ['us-east-1', 'eu-west-1'],
        ParameterOverrides: [{ ParameterKey: 'Greeting', ParameterValue: 'overridden' }],
      }),
    );
    const op = await waitForOperation(cfn, name, OperationId!);
    expect(op).toMatchObject({
      Action: 'CREATE',
      Status: 'SUCCEEDED',
      StatusDetails: { FailedStackInstancesCount: 0 },
    });
    const results = await resultsOf(cfn, name, OperationId!);
    expect(byTarget(results, (r) => r.Status)).toEqual({
      [`${A}/eu-west-1`]: 'SUCCEEDED',
      [`${A}/us-east-1`]: 'SUCCEEDED',
      [`${B}/eu-west-1`]: 'SUCCEEDED',
      [`${B}/us-east-1`]: 'SUCCEEDED',
    });
    expect(results[0].AccountGateResult).toEqual({
      Status: 'SKIPPED',
      StatusReason: `Function not found: arn:aws:lambda:${results[0].Region}:${results[0].Account}:function:AWSCloudFormationStackSetAccountGate`,
    });
    const instances = await instancesOf(cfn, name);
    expect(instances).toHaveLength(4);
    for (const i of instances) {
      expect(i).toMatchObject({
        Status: 'CURRENT',
        StackInstanceStatus: { DetailedStatus: 'SUCCEEDED' },
        LastOperationId: OperationId,
      });
      const stack = await stackOf(server, i);
      expect(stack.StackName).toMatch(/^StackSet-fleet-[0-9a-f-]{36}$/);
      expect(stack.StackStatus).toBe('CREATE_COMPLETE');
      expect(stack.StackId).toContain(`:${i.Region}:${i.Account}:stack/`);
      expect(stack.Parameters).toEqual([{ ParameterKey: 'Greeting', ParameterValue: 'overridden' }]);
    }
    const { StackInstance } = await cfn.send(
      new DescribeStackInstanceCommand({
        StackSetName: name,
        StackInstanceAccount: A,
        StackInstanceRegion: 'eu-west-1',
      }),
    );
    expect(StackInstance!.ParameterOverrides).toEqual([{ ParameterKey: 'Greeting', ParameterValue: 'overridden' }]);
    const { StackSet } = await cfn.send(new DescribeStackSetCommand({ StackSetName: name }));
    expect(StackSet!.Regions!.sort()).toEqual(['eu-west-1', 'us-east-1']);
  });

  it('answers a repeated OperationId with the same operation, and refuses it for another call', async () => {
    const name = await newSet('idempotent');
    const call = { StackSetName: name, Accounts: [A], Regions: ['us-east-1'], OperationId: 'op-1' };
    const first = await cfn.send(new CreateStackInstancesCommand(call));
    const again = await cfn.send(new CreateStackInstancesCommand(call));
    expect(again.OperationId).toBe('op-1');
    expect(first.OperationId).toBe('op-1');
    await waitForOperation(cfn, name, 'op-1');
    const { Summaries } = await cfn.send(new ListStackSetOperationsCommand({ StackSetName: name }));
    expect(Summaries!.map((s) => s.OperationId)).toEqual(['op-1']);
    await expect(cfn.send(new CreateStackInstancesCommand({ ...call, Accounts: [B] }))).rejects.toMatchObject({
      name: 'OperationIdAlreadyExistsException',
    });
  });

  it('returns DescribeStackInstance StackInstanceNotFoundException and ValidationError for bad targets', async () => {
    const name = await newSet('targets');
    await expect(
      cfn.send(
        new DescribeStackInstanceCommand({
          StackSetName: name,
          StackInstanceAccount: A,
          StackInstanceRegion: 'us-east-1',
        }),
      ),
    ).rejects.toMatchObject({ name: 'StackInstanceNotFoundException', $metadata: { httpStatusCode: 404 } });
    await expect(
      cfn.send(new CreateStackInstancesCommand({ StackSetName: name, Accounts: ['12'], Regions: ['us-east-1'] })),
    ).rejects.toMatchObject({ name: 'ValidationError', message: expect.stringContaining('^[0-9]{12}$') });
    await expect(
      cfn.send(
        new CreateStackInstancesCommand({
          StackSetName: name,
          DeploymentTargets: { OrganizationalUnitIds: ['ou-abcd-12345678'] },
          Regions: ['us-east-1'],
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(
      cfn.send(
        new CreateStackInstancesCommand({
          StackSetName: name,
          Accounts: [A],
          Regions: ['us-east-1'],
          OperationPreferences: { FailureToleranceCount: 1, FailureTolerancePercentage: 10 },
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationError' });
  });
});

describe('OperationPreferences', () => {
  it('a failure in one region passes a tolerance of 0: that region FAILED, the rest CANCELLED, the operation FAILED', async () => {
    const name = await newSet('intolerant', FAILS_IN_EU_WEST_1);
    const { OperationId } = await cfn.send(
      new CreateStackInstancesCommand({
        StackSetName: name,
        Accounts: [A, B],
        Regions: ['us-west-2', 'eu-west-1', 'us-east-1'],
        OperationPreferences: { RegionOrder: ['us-east-1', 'eu-west-1', 'us-west-2'], MaxConcurrentCount: 1 },
      }),
    );
    const op = await waitForOperation(cfn, name, OperationId!);
    expect(op.Status).toBe('FAILED');
    expect(op.StatusDetails).toEqual({ FailedStackInstancesCount: 1 });
    const results = await resultsOf(cfn, name, OperationId!);
    expect(byTarget(results, (r) => r.Status)).toEqual({
      [`${A}/eu-west-1`]: 'FAILED',
      [`${A}/us-east-1`]: 'SUCCEEDED',
      [`${A}/us-west-2`]: 'CANCELLED',
      [`${B}/eu-west-1`]: 'CANCELLED',
      [`${B}/us-east-1`]: 'SUCCEEDED',
      [`${B}/us-west-2`]: 'CANCELLED',
    });
    const failed = results.find((r) => r.Status === 'FAILED')!;
    expect(failed.StatusReason).toMatch(
      /^ResourceLogicalId:Bad, ResourceType:AWS::SSM::Parameter, ResourceStatusReason:.*Injected failure/,
    );
    expect(results.find((r) => r.Status === 'CANCELLED')!.StatusReason).toBe(
      'Cancelled since failure tolerance has exceeded',
    );
    const instances = await instancesOf(cfn, name);
    const failedInstance = instances.find((i) => i.Account === A && i.Region === 'eu-west-1')!;
    expect(failedInstance).toMatchObject({ Status: 'OUTDATED', StackInstanceStatus: { DetailedStatus: 'FAILED' } });
    expect(failedInstance.StatusReason).toBe(failed.StatusReason);
    expect(instances.find((i) => i.Region === 'us-west-2')!).toMatchObject({
      Status: 'OUTDATED',
      StackInstanceStatus: { DetailedStatus: 'CANCELLED' },
    });
  });

  it('with a tolerance of 2 the operation goes on past the failing region and SUCCEEDS', async () => {
    const name = await newSet('tolerant', FAILS_IN_EU_WEST_1);
    const { OperationId } = await cfn.send(
      new CreateStackInstancesCommand({
        StackSetName: name,
        Accounts: [A, B],
        Regions: ['eu-west-1', 'us-west-2'],
        OperationPreferences: { FailureToleranceCount: 2, MaxConcurrentCount: 2 },
      }),
    );
    const op = await waitForOperation(cfn, name, OperationId!);
    expect(op.Status).toBe('SUCCEEDED');
    expect(byTarget(await resultsOf(cfn, name, OperationId!), (r) => r.Status)).toEqual({
      [`${A}/eu-west-1`]: 'FAILED',
      [`${A}/us-west-2`]: 'SUCCEEDED',
      [`${B}/eu-west-1`]: 'FAILED',
      [`${B}/us-west-2`]: 'SUCCEEDED',
    });
  });

  it('PARALLEL regions: every region runs, the failing one does not cancel the others', async () => {
    const name = await newSet('parallel', FAILS_IN_EU_WEST_1);
    const { OperationId } = await cfn.send(
      new CreateStackInstancesCommand({
        StackSetName: name,
        Accounts: [A],
        Regions: ['eu-west-1', 'us-west-2', 'us-east-1'],
        OperationPreferences: { RegionConcurrencyType: 'PARALLEL' },
      }),
    );
    const op = await waitForOperation(cfn, name, OperationId!);
    expect(op.Status).toBe('FAILED');
    expect(byTarget(await resultsOf(cfn, name, OperationId!), (r) => r.Status)).toEqual({
      [`${A}/eu-west-1`]: 'FAILED',
      [`${A}/us-east-1`]: 'SUCCEEDED',
      [`${A}/us-west-2`]: 'SUCCEEDED',
    });
  });
});

describe('StopStackSetOperation', () => {
  it('stops a running operation: the account in flight ends, the others are CANCELLED, the operation STOPPED', async () => {
    const slow = `Resources:
  Slow:
    Type: AWS::SSM::Parameter
    Metadata: { cfn-local: { DelayMs: 300 } }
    Properties: { Type: String, Value: slow }
`;
    const name = await newSet('stoppable', slow);
    const { OperationId } = await cfn.send(
      new CreateStackInstancesCommand({ StackSetName: name, Accounts: [A, B], Regions: ['us-east-1', 'eu-west-1'] }),
    );
    // one operation at a time per set
    await expect(
      cfn.send(new CreateStackInstancesCommand({ StackSetName: name, Accounts: [A], Regions: ['us-west-2'] })),
    ).rejects.toMatchObject({
      name: 'OperationInProgressException',
      message: expect.stringMatching(
        /^Another Operation on StackSet arn:aws:cloudformation:us-east-1:111111111111:stackset\/stoppable:.* is in progress$/,
      ),
    });
    await cfn.send(new StopStackSetOperationCommand({ StackSetName: name, OperationId }));
    const op = await waitForOperation(cfn, name, OperationId!);
    expect(op.Status).toBe('STOPPED');
    const statuses = (await resultsOf(cfn, name, OperationId!)).map((r) => r.Status);
    expect(statuses[0]).toBe('SUCCEEDED');
    expect(statuses.slice(1)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);
    await expect(cfn.send(new StopStackSetOperationCommand({ StackSetName: name, OperationId }))).rejects.toMatchObject(
      {
        name: 'InvalidOperationException',
      },
    );
  });
});

describe('UpdateStackSet and UpdateStackInstances', () => {
  it('updates every instance, or only the ones named while the others are OUTDATED', async () => {
    const name = await newSet('updated');
    const created = await cfn.send(
      new CreateStackInstancesCommand({ StackSetName: name, Accounts: [A, B], Regions: ['us-east-1'] }),
    );
    await waitForOperation(cfn, name, created.OperationId!);
    const all = await cfn.send(
      new UpdateStackSetCommand({
        StackSetName: name,
        UsePreviousTemplate: true,
        Parameters: [{ ParameterKey: 'Greeting', ParameterValue: 'v2' }],
      }),
    );
    expect((await waitForOperation(cfn, name, all.OperationId!)).Action).toBe('UPDATE');
    for (const i of await instancesOf(cfn, name)) {
      expect(i.Status).toBe('CURRENT');
      expect((await stackOf(server, i)).Parameters).toEqual([{ ParameterKey: 'Greeting', ParameterValue: 'v2' }]);
    }
    const some = await cfn.send(
      new UpdateStackSetCommand({
        StackSetName: name,
        UsePreviousTemplate: true,
        Parameters: [{ ParameterKey: 'Greeting', ParameterValue: 'v3' }],
        Accounts: [A],
        Regions: ['us-east-1'],
      }),
    );
    await waitForOperation(cfn, name, some.OperationId!);
    expect(byTarget(await instancesOf(cfn, name), (i) => i.Status)).toEqual({
      [`${A}/us-east-1`]: 'CURRENT',
      [`${B}/us-east-1`]: 'OUTDATED',
    });
    const overridden = await cfn.send(
      new UpdateStackInstancesCommand({
        StackSetName: name,
        Accounts: [B],
        Regions: ['us-east-1'],
        ParameterOverrides: [{ ParameterKey: 'Greeting', ParameterValue: 'just-b' }],
      }),
    );
    await waitForOperation(cfn, name, overridden.OperationId!);
    const b = (await instancesOf(cfn, name)).find((i) => i.Account === B)!;
    expect(b.Status).toBe('CURRENT');
    expect((await stackOf(server, b)).Parameters).toEqual([{ ParameterKey: 'Greeting', ParameterValue: 'just-b' }]);
    await expect(
      cfn.send(new UpdateStackInstancesCommand({ StackSetName: name, Accounts: [B], Regions: ['eu-west-1'] })),
    ).rejects.toMatchObject({ name: 'StackInstanceNotFoundException' });
  });
});

describe('DeleteStackInstances and DeleteStackSet', () => {
  it('RetainStacks keeps the stack, otherwise it is deleted; a set with instances is not empty', async () => {
    const name = await newSet('deleted');
    const created = await cfn.send(
      new CreateStackInstancesCommand({ StackSetName: name, Accounts: [A, B], Regions: ['us-east-1'] }),
    );
    await waitForOperation(cfn, name, created.OperationId!);
    const [a, b] = (await instancesOf(cfn, name)).sort((x, y) => x.Account!.localeCompare(y.Account!));
    await expect(cfn.send(new DeleteStackSetCommand({ StackSetName: name }))).rejects.toMatchObject({
      name: 'StackSetNotEmptyException',
      message: 'StackSet is not empty',
    });
    const kept = await cfn.send(
      new DeleteStackInstancesCommand({
        StackSetName: name,
        Accounts: [A],
        Regions: ['us-east-1'],
        RetainStacks: true,
      }),
    );
    expect((await waitForOperation(cfn, name, kept.OperationId!)).RetainStacks).toBe(true);
    expect((await stackOf(server, a)).StackStatus).toBe('CREATE_COMPLETE');
    const gone = await cfn.send(
      new DeleteStackInstancesCommand({
        StackSetName: name,
        Accounts: [B],
        Regions: ['us-east-1'],
        RetainStacks: false,
      }),
    );
    await waitForOperation(cfn, name, gone.OperationId!);
    expect((await stackOf(server, b)).StackStatus).toBe('DELETE_COMPLETE');
    expect(await instancesOf(cfn, name)).toEqual([]);
    await cfn.send(new DeleteStackSetCommand({ StackSetName: name }));
    await expect(cfn.send(new DescribeStackSetCommand({ StackSetName: name }))).rejects.toMatchObject({
      name: 'StackSetNotFoundException',
    });
    const { Summaries } = await cfn.send(new ListStackSetsCommand({ Status: 'DELETED' }));
    expect(Summaries!.map((s) => s.StackSetName)).toContain(name);
    const active = await cfn.send(new ListStackSetsCommand({ Status: 'ACTIVE' }));
    expect(active.Summaries!.map((s) => s.StackSetName)).not.toContain(name);
  });
});

describe('DetectStackSetDrift', () => {
  it('finds the instance whose parameter was changed out of band DRIFTED, and lists its resource drifts', async () => {
    const name = await newSet('drifting');
    const created = await cfn.send(
      new CreateStackInstancesCommand({ StackSetName: name, Accounts: [A, B], Regions: ['us-east-1'] }),
    );
    await waitForOperation(cfn, name, created.OperationId!);
    const a = (await instancesOf(cfn, name)).find((i) => i.Account === A)!;
    const stack = await stackOf(server, a);
    const parameter = stack.Outputs!.find((o) => o.OutputKey === 'Name')!.OutputValue!;
    const ssm = new SSMClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: A, secretAccessKey: 'test' },
    });
    await ssm.send(new PutParameterCommand({ Name: parameter, Value: 'changed', Type: 'String', Overwrite: true }));
    const { OperationId } = await cfn.send(new DetectStackSetDriftCommand({ StackSetName: name }));
    const op = await waitForOperation(cfn, name, OperationId!);
    expect(op).toMatchObject({
      Action: 'DETECT_DRIFT',
      Status: 'SUCCEEDED',
      StackSetDriftDetectionDetails: {
        DriftStatus: 'DRIFTED',
        DriftDetectionStatus: 'COMPLETED',
        TotalStackInstancesCount: 2,
        DriftedStackInstancesCount: 1,
        InSyncStackInstancesCount: 1,
      },
    });
    expect(byTarget(await instancesOf(cfn, name), (i) => i.DriftStatus)).toEqual({
      [`${A}/us-east-1`]: 'DRIFTED',
      [`${B}/us-east-1`]: 'IN_SYNC',
    });
    const { Summaries } = await cfn.send(
      new ListStackInstanceResourceDriftsCommand({
        StackSetName: name,
        StackInstanceAccount: A,
        StackInstanceRegion: 'us-east-1',
        OperationId,
        StackInstanceResourceDriftStatuses: ['MODIFIED'],
      }),
    );
    expect(Summaries).toHaveLength(1);
    expect(Summaries![0]).toMatchObject({ LogicalResourceId: 'Setting', StackResourceDriftStatus: 'MODIFIED' });
    const { StackSet } = await cfn.send(new DescribeStackSetCommand({ StackSetName: name }));
    expect(StackSet!.StackSetDriftDetectionDetails!.DriftStatus).toBe('DRIFTED');
  });
});

describe('ImportStacksToStackSet', () => {
  it('makes an existing stack an instance of a set created from it', async () => {
    const other = clientFor(server, A, 'eu-west-1');
    const { StackId } = await other.send(new CreateStackCommand({ StackName: 'standalone', TemplateBody: TEMPLATE }));
    await waitForStack(other, StackId!);
    await clientFor(server, A, 'eu-west-1').send(
      new CreateStackSetCommand({ StackSetName: 'imported', StackId: StackId! }),
    );
    const admin = clientFor(server, A, 'eu-west-1');
    const { OperationId } = await admin.send(
      new ImportStacksToStackSetCommand({ StackSetName: 'imported', StackIds: [StackId!] }),
    );
    expect((await waitForOperation(admin, 'imported', OperationId!)).Status).toBe('SUCCEEDED');
    const [instance] = await instancesOf(admin, 'imported');
    expect(instance).toMatchObject({ Account: A, Region: 'eu-west-1', StackId, Status: 'CURRENT' });
    const { Stacks } = await other.send(new DescribeStacksCommand({ StackName: StackId }));
    expect(Stacks![0].StackStatus).toBe('CREATE_COMPLETE');
    await expect(
      admin.send(new ImportStacksToStackSetCommand({ StackSetName: 'imported', StackIds: [`${StackId}x`] })),
    ).rejects.toMatchObject({ name: 'StackNotFoundException' });
  });
});
