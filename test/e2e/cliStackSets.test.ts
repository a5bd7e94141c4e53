// AWS's own AWS CLI examples for stack sets (awscli/examples/cloudformation: create-stack-set, list-stack-sets,
// describe-stack-set, create-stack-instances, describe-stack-set-operation, list-stack-instances,
// describe-stack-instance, list-stack-set-operation-results, update-stack-set, update-stack-instances,
// list-stack-set-operations, delete-stack-instances, delete-stack-set, stop-stack-set-operation,
// detect-stack-set-drift) and the user guide's walkthroughs (drift detection of a stack set; a service-managed set
// over an organization) replayed with AWS CLI v2 against a live server. Each call signs as the account it acts from
// (its 12-digit access key id). No CLI waiter exists for stack set operations: the test polls the operation through
// the SDK, as a script would poll describe-stack-set-operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateStackInstancesCommand,
  CreateStackSetCommand,
  ListStackSetOperationsCommand,
} from '@aws-sdk/client-cloudformation';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { startServer, type TestServer } from '../helpers/server.js';
import { control } from '../api/worldHelpers.js';
import {
  A,
  ADMIN,
  B,
  C,
  WAITING_TEMPLATE,
  clientFor,
  resultsOf,
  signalHandle,
  untilRunning,
  waitForOperation,
} from '../api/stackSetsHelpers.js';
import { AWS_CLI, awsCliAvailable, awsCliV1, clientEnv, gate, json, run, type RunResult } from './clients.js';

const cli = gate('AWS CLI v2 stack set examples', await awsCliAvailable());
const v1 = await awsCliV1();
const cliV1 = gate('with the AWS CLI v1 for the actions v2.9 lacks', v1.availability);

/** The template of describe-stack-set's example: an SNS topic. */
const TOPIC_TEMPLATE = `AWSTemplateFormatVersion: '2010-09-09'
Description: An AWS SNS topic
Resources:
  topic:
    Type: AWS::SNS::Topic
`;
const DRIFT_TEMPLATE = `Resources:
  Setting:
    Type: AWS::SSM::Parameter
    Properties: { Name: /drift-example/setting, Type: String, Value: expected }
`;
const UUID = /^[0-9a-f-]{36}$/;
const accountGate = (account: string, region: string) => ({
  Status: 'SKIPPED',
  StatusReason: `Function not found: arn:aws:lambda:${region}:${account}:function:AWSCloudFormationStackSetAccountGate`,
});
/** A stack instance as the CLI prints it. */
interface Instance {
  Account: string;
  Region: string;
  Status: string;
  StackId: string;
  OrganizationalUnitId?: string;
  DriftStatus?: string;
}
const instancesIn = (result: RunResult) => json<{ Summaries: Instance[] }>(result).Summaries;
const byKey = <T extends { Account?: string; Region?: string }>(items: T[]) =>
  [...items].sort((x, y) => `${x.Account}/${x.Region}`.localeCompare(`${y.Account}/${y.Region}`));

describe.skipIf(cli.skip)(cli.title, () => {
  let server: TestServer;
  let dir: string;

  /** `aws cloudformation <args>` signed as `account`, run in the folder holding the templates. */
  const aws = (account: string, ...args: string[]): Promise<RunResult> =>
    run(AWS_CLI, ['--endpoint-url', server.endpoint, '--output', 'json', 'cloudformation', ...args], {
      cwd: dir,
      env: clientEnv({ AWS_ACCESS_KEY_ID: account }),
    });
  /** The same through the AWS CLI v1 on PATH. */
  const awsV1 = (account: string, ...args: string[]): Promise<RunResult> =>
    run(v1.cli!, ['--endpoint-url', server.endpoint, '--output', 'json', 'cloudformation', ...args], {
      cwd: dir,
      env: clientEnv({ AWS_ACCESS_KEY_ID: account }),
    });
  /** A call that answers nothing, as delete-stack-set and stop-stack-set-operation do. */
  const silent = async (account: string, ...args: string[]) => {
    const result = await aws(account, ...args);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
  };
  const settle = (name: string, id: string, account = ADMIN) => waitForOperation(clientFor(server, account), name, id);

  beforeAll(async () => {
    server = await startServer();
    dir = mkdtempSync(join(tmpdir(), 'cfn-local-cli-stack-sets-'));
    writeFileSync(join(dir, 'template.yaml'), TOPIC_TEMPLATE);
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a self-managed set: create, instances in two accounts and four regions, update, delete', async () => {
    const created = json(
      await aws(
        ADMIN,
        'create-stack-set',
        '--stack-set-name',
        'my-stack-set',
        '--template-body',
        'file://template.yaml',
        '--description',
        'SNS topic',
      ),
    );
    expect(created.StackSetId).toMatch(/^my-stack-set:[0-9a-f-]{36}$/);
    const id: string = created.StackSetId;

    expect(json(await aws(ADMIN, 'list-stack-sets')).Summaries).toEqual([
      expect.objectContaining({
        StackSetName: 'my-stack-set',
        StackSetId: id,
        Description: 'SNS topic',
        Status: 'ACTIVE',
      }),
    ]);
    expect(json(await aws(ADMIN, 'describe-stack-set', '--stack-set-name', 'my-stack-set')).StackSet).toMatchObject({
      StackSetName: 'my-stack-set',
      StackSetId: id,
      Description: 'SNS topic',
      Status: 'ACTIVE',
      TemplateBody: TOPIC_TEMPLATE,
      StackSetARN: `arn:aws:cloudformation:us-east-1:${ADMIN}:stackset/${id}`,
      AdministrationRoleARN: `arn:aws:iam::${ADMIN}:role/AWSCloudFormationStackSetAdministrationRole`,
      ExecutionRoleName: 'AWSCloudFormationStackSetExecutionRole',
    });

    const regions = ['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2'];
    const instances = json(
      await aws(
        ADMIN,
        ...['create-stack-instances', '--stack-set-name', 'my-stack-set', '--accounts', A, B],
        ...['--regions', ...regions, '--operation-preferences', 'FailureToleranceCount=7'],
      ),
    );
    expect(instances.OperationId).toMatch(UUID);
    await settle('my-stack-set', instances.OperationId);
    const operation = json(
      await aws(
        ADMIN,
        'describe-stack-set-operation',
        '--stack-set-name',
        'my-stack-set',
        '--operation-id',
        instances.OperationId,
      ),
    ).StackSetOperation;
    expect(operation).toMatchObject({
      OperationId: instances.OperationId,
      StackSetId: id,
      Action: 'CREATE',
      Status: 'SUCCEEDED',
      OperationPreferences: { FailureToleranceCount: 7 },
      AdministrationRoleARN: `arn:aws:iam::${ADMIN}:role/AWSCloudFormationStackSetAdministrationRole`,
      ExecutionRoleName: 'AWSCloudFormationStackSetExecutionRole',
    });
    expect(Date.parse(operation.EndTimestamp)).toBeGreaterThanOrEqual(Date.parse(operation.CreationTimestamp));

    const listed = instancesIn(await aws(ADMIN, 'list-stack-instances', '--stack-set-name', 'my-stack-set'));
    expect(byKey(listed).map((i) => [i.Account, i.Region, i.Status])).toEqual(
      [A, B].flatMap((account) => regions.map((region) => [account, region, 'CURRENT'])),
    );
    for (const i of listed)
      expect(i.StackId).toMatch(
        new RegExp(`^arn:aws:cloudformation:${i.Region}:${i.Account}:stack/StackSet-my-stack-set-`),
      );

    const one = json(
      await aws(
        ADMIN,
        'describe-stack-instance',
        '--stack-set-name',
        'my-stack-set',
        '--stack-instance-account',
        A,
        '--stack-instance-region',
        'us-west-2',
      ),
    ).StackInstance;
    expect(one).toMatchObject({ StackSetId: id, Region: 'us-west-2', Account: A, Status: 'CURRENT' });
    expect(one.StackId).toMatch(new RegExp(`^arn:aws:cloudformation:us-west-2:${A}:stack/StackSet-my-stack-set-`));

    const results = json(
      await aws(
        ADMIN,
        'list-stack-set-operation-results',
        '--stack-set-name',
        'my-stack-set',
        '--operation-id',
        instances.OperationId,
      ),
    ).Summaries;
    expect(byKey(results)).toEqual(
      [A, B].flatMap((account) =>
        regions.map((region) =>
          expect.objectContaining({
            Account: account,
            Region: region,
            Status: 'SUCCEEDED',
            AccountGateResult: accountGate(account, region),
          }),
        ),
      ),
    );

    // update-stack-set's example: a tag on every instance's stack
    const tagged = json(
      await aws(
        ADMIN,
        'update-stack-set',
        '--stack-set-name',
        'my-stack-set',
        '--use-previous-template',
        '--tags',
        'Key=Owner,Value=IT',
      ),
    );
    expect((await settle('my-stack-set', tagged.OperationId)).Status).toBe('SUCCEEDED');
    const stack = json(
      await run(
        AWS_CLI,
        [
          '--endpoint-url',
          server.endpoint,
          '--output',
          'json',
          '--region',
          'us-west-2',
          'cloudformation',
          'describe-stacks',
          '--stack-name',
          one.StackId,
        ],
        {
          env: clientEnv({ AWS_ACCESS_KEY_ID: A }),
        },
      ),
    ).Stacks[0];
    expect(stack).toMatchObject({ StackStatus: 'UPDATE_COMPLETE', Tags: [{ Key: 'Owner', Value: 'IT' }] });

    // update-stack-instances' example: the instances of two accounts in two regions again, with the set's settings
    const retried = json(
      await aws(
        ADMIN,
        ...['update-stack-instances', '--stack-set-name', 'my-stack-set', '--accounts', A, B],
        ...['--regions', 'us-east-1', 'us-west-2', '--operation-preferences', 'FailureToleranceCount=3'],
      ),
    );
    await settle('my-stack-set', retried.OperationId);
    expect(
      (await resultsOf(clientFor(server, ADMIN), 'my-stack-set', retried.OperationId)).map((r) => r.Status),
    ).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);

    const operations = json(
      await aws(ADMIN, 'list-stack-set-operations', '--stack-set-name', 'my-stack-set'),
    ).Summaries;
    expect(
      [...operations]
        .sort(
          (x: { CreationTimestamp: string }, y: { CreationTimestamp: string }) =>
            Date.parse(x.CreationTimestamp) - Date.parse(y.CreationTimestamp),
        )
        .map((o: { OperationId: string; Action: string; Status: string }) => [o.OperationId, o.Action, o.Status]),
    ).toEqual([
      [instances.OperationId, 'CREATE', 'SUCCEEDED'],
      [tagged.OperationId, 'UPDATE', 'SUCCEEDED'],
      [retried.OperationId, 'UPDATE', 'SUCCEEDED'],
    ]);

    // delete-stack-instances' example: two accounts in two regions, stacks terminated; then the rest, then the set
    const gone = json(
      await aws(
        ADMIN,
        'delete-stack-instances',
        '--stack-set-name',
        'my-stack-set',
        '--accounts',
        A,
        B,
        '--regions',
        'us-east-1',
        'us-west-1',
        '--no-retain-stacks',
      ),
    );
    expect((await settle('my-stack-set', gone.OperationId)).Status).toBe('SUCCEEDED');
    const left = instancesIn(await aws(ADMIN, 'list-stack-instances', '--stack-set-name', 'my-stack-set'));
    expect(byKey(left).map((i) => `${i.Account}/${i.Region}`)).toEqual([
      `${A}/us-east-2`,
      `${A}/us-west-2`,
      `${B}/us-east-2`,
      `${B}/us-west-2`,
    ]);
    const notEmpty = await aws(ADMIN, 'delete-stack-set', '--stack-set-name', 'my-stack-set');
    expect(notEmpty.code).not.toBe(0);
    expect(notEmpty.stderr).toContain('StackSetNotEmptyException');
    const rest = json(
      await aws(
        ADMIN,
        'delete-stack-instances',
        '--stack-set-name',
        'my-stack-set',
        '--accounts',
        A,
        B,
        '--regions',
        'us-east-2',
        'us-west-2',
        '--no-retain-stacks',
      ),
    );
    expect((await settle('my-stack-set', rest.OperationId)).Status).toBe('SUCCEEDED');
    await silent(ADMIN, 'delete-stack-set', '--stack-set-name', 'my-stack-set');
    const after = await aws(ADMIN, 'describe-stack-set', '--stack-set-name', 'my-stack-set');
    expect(after.code).not.toBe(0);
    expect(after.stderr).toContain('StackSetNotFoundException');
  }, 120_000);

  it('stop-stack-set-operation stops a running create: the account in flight ends, the rest is CANCELLED', async () => {
    const admin = clientFor(server, ADMIN);
    await admin.send(new CreateStackSetCommand({ StackSetName: 'waiting', TemplateBody: WAITING_TEMPLATE }));
    const { OperationId } = await admin.send(
      new CreateStackInstancesCommand({
        StackSetName: 'waiting',
        Accounts: [A, B],
        Regions: ['us-east-1'],
        OperationPreferences: { MaxConcurrentCount: 1 },
      }),
    );
    // the first account's stack waits on its handle, so the operation is RUNNING until the test signals it
    const [[target, url]] = [...(await untilRunning(server, admin, 'waiting', OperationId!, 1))];
    const handle = { account: target.split('/')[0], url };
    await silent(ADMIN, 'stop-stack-set-operation', '--stack-set-name', 'waiting', '--operation-id', OperationId!);
    await signalHandle(handle.url);
    expect((await settle('waiting', OperationId!)).Status).toBe('STOPPED');
    const other = handle.account === A ? B : A;
    expect(
      byKey(await resultsOf(admin, 'waiting', OperationId!)).map((r) => [r.Account, r.Status, r.StatusReason]),
    ).toEqual(
      byKey([
        { Account: handle.account, Status: 'SUCCEEDED', StatusReason: undefined },
        { Account: other, Status: 'CANCELLED', StatusReason: 'Cancelled since the operation was stopped' },
      ]).map((r) => [r.Account, r.Status, r.StatusReason]),
    );
  }, 60_000);

  // AWS CLI v2.9 predates list-stack-instance-resource-drifts, the organizations access actions and
  // list-stack-set-auto-deployment-targets: those calls go through the AWS CLI v1 on PATH, which has them.
  describe.skipIf(cliV1.skip)(cliV1.title, () => {
    it("the user guide's drift detection of a stack set: one instance's parameter changed out of band", async () => {
      const admin = clientFor(server, ADMIN);
      await admin.send(
        new CreateStackSetCommand({ StackSetName: 'stack-set-drift-example', TemplateBody: DRIFT_TEMPLATE }),
      );
      const made = await admin.send(
        new CreateStackInstancesCommand({
          StackSetName: 'stack-set-drift-example',
          Accounts: [A, B],
          Regions: ['us-east-1'],
        }),
      );
      expect((await settle('stack-set-drift-example', made.OperationId!)).Status).toBe('SUCCEEDED');
      const ssm = new SSMClient({
        endpoint: server.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: A, secretAccessKey: 'test' },
      });
      await ssm.send(
        new PutParameterCommand({ Name: '/drift-example/setting', Value: 'changed', Type: 'String', Overwrite: true }),
      );

      const detect = json(await aws(ADMIN, 'detect-stack-set-drift', '--stack-set-name', 'stack-set-drift-example'));
      expect(detect.OperationId).toMatch(UUID);
      await settle('stack-set-drift-example', detect.OperationId);
      const details = {
        DriftStatus: 'DRIFTED',
        DriftDetectionStatus: 'COMPLETED',
        TotalStackInstancesCount: 2,
        DriftedStackInstancesCount: 1,
        InSyncStackInstancesCount: 1,
        InProgressStackInstancesCount: 0,
        FailedStackInstancesCount: 0,
      };
      const operation = json(
        await aws(
          ADMIN,
          'describe-stack-set-operation',
          '--stack-set-name',
          'stack-set-drift-example',
          '--operation-id',
          detect.OperationId,
        ),
      ).StackSetOperation;
      expect(operation).toMatchObject({
        Action: 'DETECT_DRIFT',
        Status: 'SUCCEEDED',
        StackSetDriftDetectionDetails: details,
      });
      expect(
        json(await aws(ADMIN, 'describe-stack-set', '--stack-set-name', 'stack-set-drift-example')).StackSet
          .StackSetDriftDetectionDetails,
      ).toMatchObject(details);
      const instances = instancesIn(
        await aws(ADMIN, 'list-stack-instances', '--stack-set-name', 'stack-set-drift-example'),
      );
      expect(byKey(instances).map((i) => [i.Account, i.DriftStatus])).toEqual([
        [A, 'DRIFTED'],
        [B, 'IN_SYNC'],
      ]);
      const drifts = json(
        await awsV1(
          ADMIN,
          ...['list-stack-instance-resource-drifts', '--stack-set-name', 'stack-set-drift-example'],
          ...[
            '--stack-instance-account',
            A,
            '--stack-instance-region',
            'us-east-1',
            '--operation-id',
            detect.OperationId,
          ],
        ),
      ).Summaries;
      expect(drifts).toEqual([
        expect.objectContaining({
          LogicalResourceId: 'Setting',
          ResourceType: 'AWS::SSM::Parameter',
          StackResourceDriftStatus: 'MODIFIED',
          PropertyDifferences: [
            expect.objectContaining({
              PropertyPath: '/Value',
              ExpectedValue: 'expected',
              ActualValue: 'changed',
              DifferenceType: 'NOT_EQUAL',
            }),
          ],
        }),
      ]);
    }, 60_000);

    it("the user guide's service-managed set: trusted access, deployment to an OU, automatic deployment", async () => {
      const PROD = 'ou-abcd-11111111';
      const put = await control(server, 'PUT', `/organizations/${ADMIN}`, {
        organizationalUnits: [{ id: PROD, name: 'prod', accounts: [A, B] }],
        accounts: [ADMIN, C],
      });
      expect(put.status).toBe(200);
      expect((await awsV1(ADMIN, 'activate-organizations-access')).code).toBe(0);
      expect(json(await awsV1(ADMIN, 'describe-organizations-access'))).toEqual({ Status: 'ENABLED' });

      const created = json(
        await aws(
          ADMIN,
          ...['create-stack-set', '--stack-set-name', 'my-org-stack-set', '--template-body', 'file://template.yaml'],
          ...[
            '--permission-model',
            'SERVICE_MANAGED',
            '--auto-deployment',
            'Enabled=true,RetainStacksOnAccountRemoval=false',
          ],
        ),
      );
      expect(created.StackSetId).toMatch(/^my-org-stack-set:/);
      const deployed = json(
        await aws(
          ADMIN,
          ...['create-stack-instances', '--stack-set-name', 'my-org-stack-set'],
          ...['--deployment-targets', `OrganizationalUnitIds=["${PROD}"]`, '--regions', '["us-east-1", "us-west-2"]'],
          ...['--operation-preferences', 'FailureToleranceCount=0,MaxConcurrentCount=1'],
        ),
      );
      expect((await settle('my-org-stack-set', deployed.OperationId)).Status).toBe('SUCCEEDED');
      const instances = () =>
        aws(ADMIN, 'list-stack-instances', '--stack-set-name', 'my-org-stack-set').then((r) =>
          byKey(instancesIn(r)).map((i) => [i.Account, i.Region, i.Status, i.OrganizationalUnitId]),
        );
      expect(await instances()).toEqual([
        [A, 'us-east-1', 'CURRENT', PROD],
        [A, 'us-west-2', 'CURRENT', PROD],
        [B, 'us-east-1', 'CURRENT', PROD],
        [B, 'us-west-2', 'CURRENT', PROD],
      ]);
      expect(
        json(await awsV1(ADMIN, 'list-stack-set-auto-deployment-targets', '--stack-set-name', 'my-org-stack-set'))
          .Summaries,
      ).toEqual([{ OrganizationalUnitId: PROD, Regions: ['us-east-1', 'us-west-2'] }]);

      // an account moved into the unit gets the set's instances, as an operation of the set
      expect(
        (await control(server, 'PUT', `/organizations/${ADMIN}/accounts/${C}`, { organizationalUnitId: PROD })).status,
      ).toBe(200);
      const { Summaries } = await clientFor(server, ADMIN).send(
        new ListStackSetOperationsCommand({ StackSetName: 'my-org-stack-set' }),
      );
      for (const op of Summaries!) expect((await settle('my-org-stack-set', op.OperationId!)).Status).toBe('SUCCEEDED');
      expect((await instances()).filter(([account]) => account === C)).toEqual([
        [C, 'us-east-1', 'CURRENT', PROD],
        [C, 'us-west-2', 'CURRENT', PROD],
      ]);

      const removed = json(
        await aws(
          ADMIN,
          ...['delete-stack-instances', '--stack-set-name', 'my-org-stack-set'],
          ...[
            '--deployment-targets',
            `OrganizationalUnitIds=["${PROD}"]`,
            '--regions',
            '["us-east-1", "us-west-2"]',
            '--no-retain-stacks',
          ],
        ),
      );
      expect((await settle('my-org-stack-set', removed.OperationId)).Status).toBe('SUCCEEDED');
      expect(await instances()).toEqual([]);
      await silent(ADMIN, 'delete-stack-set', '--stack-set-name', 'my-org-stack-set');
    }, 120_000);
  });
});
