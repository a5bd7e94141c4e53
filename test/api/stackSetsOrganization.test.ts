// Service-managed stack sets over the simulated organization the control API sets: trusted access, deployment
// targets by organizational unit with the account filters, automatic deployment as accounts join and leave a unit,
// and a delegated administrator calling as DELEGATED_ADMIN.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActivateOrganizationsAccessCommand,
  CreateStackInstancesCommand,
  CreateStackSetCommand,
  DeactivateOrganizationsAccessCommand,
  DescribeOrganizationsAccessCommand,
  DescribeStackSetCommand,
  ListStackSetAutoDeploymentTargetsCommand,
  ListStackSetOperationsCommand,
  ListStackSetsCommand,
  type AccountFilterType,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { control } from './worldHelpers.js';
import { A, ADMIN, B, C, byTarget, clientFor, instancesOf, stackOf, waitForOperation } from './stackSetsHelpers.js';

const TEMPLATE = `Resources:
  Setting:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: org }
`;
const PROD = 'ou-abcd-11111111';
const DEV = 'ou-abcd-22222222';
const DELEGATE = '555555555555';

let server: TestServer;
let cfn: CloudFormationClient;

beforeAll(async () => {
  server = await startServer();
  cfn = clientFor(server, ADMIN);
  const put = await control(server, 'PUT', `/organizations/${ADMIN}`, {
    organizationalUnits: [
      { id: PROD, name: 'prod', accounts: [A, B] },
      { id: DEV, name: 'dev', parentId: PROD, accounts: [] },
    ],
    accounts: [ADMIN, DELEGATE],
    delegatedAdministrators: [DELEGATE],
  });
  expect(put.status).toBe(200);
});
afterAll(() => server.close());

/** Waits for every operation of the set to end (automatic deployment starts its own). */
async function settle(name: string, client = cfn) {
  const { Summaries } = await client.send(new ListStackSetOperationsCommand({ StackSetName: name }));
  for (const s of Summaries!) await waitForOperation(client, name, s.OperationId!);
  return Summaries!;
}

describe('the control API organization', () => {
  it('refuses an organization it cannot hold, with a message saying why', async () => {
    const bad = await control(server, 'PUT', `/organizations/${C}`, { organizationalUnits: [{ id: 'prod' }] });
    expect(bad).toMatchObject({ status: 400, body: { message: expect.stringContaining('ou-ab12-cdefgh34') } });
    const twice = await control(server, 'PUT', `/organizations/${C}`, {
      organizationalUnits: [{ id: PROD, accounts: [A] }],
      accounts: [A],
    });
    expect(twice.status).toBe(400);
    expect((await control(server, 'GET', `/organizations/${C}`)).status).toBe(404);
  });
});

describe('Activate/Deactivate/DescribeOrganizationsAccess', () => {
  it('turns trusted access on and off; a service-managed set needs it on', async () => {
    expect(await cfn.send(new DescribeOrganizationsAccessCommand({}))).toMatchObject({ Status: 'DISABLED' });
    await expect(
      cfn.send(
        new CreateStackSetCommand({
          StackSetName: 'early',
          TemplateBody: TEMPLATE,
          PermissionModel: 'SERVICE_MANAGED',
        }),
      ),
    ).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'You must enable organizations access to operate a service managed stack set',
    });
    await cfn.send(new ActivateOrganizationsAccessCommand({}));
    expect(await cfn.send(new DescribeOrganizationsAccessCommand({}))).toMatchObject({ Status: 'ENABLED' });
    await cfn.send(new DeactivateOrganizationsAccessCommand({}));
    expect(await cfn.send(new DescribeOrganizationsAccessCommand({}))).toMatchObject({ Status: 'DISABLED' });
    await cfn.send(new ActivateOrganizationsAccessCommand({}));
    // an account that manages no organization
    await expect(clientFor(server, C).send(new ActivateOrganizationsAccessCommand({}))).rejects.toMatchObject({
      name: 'InvalidOperationException',
    });
  });
});

describe('service-managed stack sets', () => {
  it('deploy to the accounts of a unit and its children, never the management account; Accounts alone are refused', async () => {
    await cfn.send(
      new CreateStackSetCommand({
        StackSetName: 'org-wide',
        TemplateBody: TEMPLATE,
        PermissionModel: 'SERVICE_MANAGED',
        AutoDeployment: { Enabled: true, RetainStacksOnAccountRemoval: false },
      }),
    );
    const { StackSet } = await cfn.send(new DescribeStackSetCommand({ StackSetName: 'org-wide' }));
    expect(StackSet).toMatchObject({
      PermissionModel: 'SERVICE_MANAGED',
      AutoDeployment: { Enabled: true, RetainStacksOnAccountRemoval: false },
    });
    expect(StackSet!.AdministrationRoleARN).toBeUndefined();
    await expect(
      cfn.send(new CreateStackInstancesCommand({ StackSetName: 'org-wide', Accounts: [A], Regions: ['us-east-1'] })),
    ).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'StackSets with SERVICE_MANAGED permission model can only have OrganizationalUnit as target',
    });
    const { OperationId } = await cfn.send(
      new CreateStackInstancesCommand({
        StackSetName: 'org-wide',
        DeploymentTargets: { OrganizationalUnitIds: [PROD] },
        Regions: ['us-east-1', 'eu-west-1'],
      }),
    );
    expect((await waitForOperation(cfn, 'org-wide', OperationId!)).Status).toBe('SUCCEEDED');
    const instances = await instancesOf(cfn, 'org-wide');
    expect(byTarget(instances, (i) => i.OrganizationalUnitId)).toEqual({
      [`${A}/eu-west-1`]: PROD,
      [`${A}/us-east-1`]: PROD,
      [`${B}/eu-west-1`]: PROD,
      [`${B}/us-east-1`]: PROD,
    });
    expect((await stackOf(server, instances[0])).StackStatus).toBe('CREATE_COMPLETE');
    const targets = await cfn.send(new ListStackSetAutoDeploymentTargetsCommand({ StackSetName: 'org-wide' }));
    expect(targets.Summaries).toEqual([{ OrganizationalUnitId: PROD, Regions: ['us-east-1', 'eu-west-1'] }]);
    const described = await cfn.send(new DescribeStackSetCommand({ StackSetName: 'org-wide' }));
    expect(described.StackSet!.OrganizationalUnitIds).toEqual([PROD]);
  });

  it('automatic deployment follows an account into the unit (or its child) and out of it', async () => {
    const moved = await control(server, 'PUT', `/organizations/${ADMIN}/accounts/${C}`, { organizationalUnitId: DEV });
    expect(moved.status).toBe(200);
    await settle('org-wide');
    const withC = await instancesOf(cfn, 'org-wide');
    expect(withC.filter((i) => i.Account === C).map((i) => [i.Region, i.Status])).toEqual([
      ['us-east-1', 'CURRENT'],
      ['eu-west-1', 'CURRENT'],
    ]);
    const stack = await stackOf(
      server,
      withC.find((i) => i.Account === C)!,
    );
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const removed = await control(server, 'DELETE', `/organizations/${ADMIN}/accounts/${C}`);
    expect(removed.status).toBe(200);
    await settle('org-wide');
    expect((await instancesOf(cfn, 'org-wide')).some((i) => i.Account === C)).toBe(false);
    // RetainStacksOnAccountRemoval is false: the stack went too
    expect(
      (
        await stackOf(
          server,
          withC.find((i) => i.Account === C)!,
        )
      ).StackStatus,
    ).toBe('DELETE_COMPLETE');
  });

  it('the account filters narrow or widen the unit: DIFFERENCE, INTERSECTION, UNION', async () => {
    await cfn.send(
      new CreateStackSetCommand({
        StackSetName: 'filtered',
        TemplateBody: TEMPLATE,
        PermissionModel: 'SERVICE_MANAGED',
      }),
    );
    const run = async (AccountFilterType: string, Accounts: string[]) => {
      const { OperationId } = await cfn.send(
        new CreateStackInstancesCommand({
          StackSetName: 'filtered',
          DeploymentTargets: {
            OrganizationalUnitIds: [PROD],
            Accounts,
            AccountFilterType: AccountFilterType as AccountFilterType,
          },
          Regions: ['us-west-2'],
        }),
      );
      await waitForOperation(cfn, 'filtered', OperationId!);
      return (await instancesOf(cfn, 'filtered')).map((i) => i.Account).sort();
    };
    expect(await run('DIFFERENCE', [A])).toEqual([B]);
    expect(await run('INTERSECTION', [A])).toEqual([A, B]);
    expect(await run('UNION', [C])).toEqual([A, B, C]);
    await expect(run('SOMETIMES', [A])).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(
      cfn.send(
        new CreateStackInstancesCommand({
          StackSetName: 'filtered',
          DeploymentTargets: { OrganizationalUnitIds: ['ou-zzzz-99999999'] },
          Regions: ['us-west-2'],
        }),
      ),
    ).rejects.toMatchObject({ name: 'ValidationError' });
  });

  it('a delegated administrator calls as DELEGATED_ADMIN and acts on the management account’s sets', async () => {
    const delegate = clientFor(server, DELEGATE);
    await delegate.send(
      new CreateStackSetCommand({
        StackSetName: 'delegated',
        TemplateBody: TEMPLATE,
        PermissionModel: 'SERVICE_MANAGED',
        CallAs: 'DELEGATED_ADMIN',
      }),
    );
    const { StackSet } = await cfn.send(new DescribeStackSetCommand({ StackSetName: 'delegated' }));
    expect(StackSet!.StackSetARN).toContain(`:${ADMIN}:stackset/delegated:`);
    const listed = await delegate.send(new ListStackSetsCommand({ CallAs: 'DELEGATED_ADMIN' }));
    expect(listed.Summaries!.map((s) => s.StackSetName)).toContain('delegated');
    await expect(delegate.send(new DescribeStackSetCommand({ StackSetName: 'delegated' }))).rejects.toMatchObject({
      name: 'StackSetNotFoundException',
    });
    await expect(
      clientFor(server, A).send(new ListStackSetsCommand({ CallAs: 'DELEGATED_ADMIN' })),
    ).rejects.toMatchObject({ name: 'ValidationError', message: 'Account used is not a delegated administrator' });
  });
});
