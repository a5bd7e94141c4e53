// The import flow: a resource retained by one stack (it stays in the account, owned by no stack) is brought back
// into a stack with an IMPORT change set. AWS's rules: every resource to import needs a DeletionPolicy (text quoted in
// aws-quickstart/quickstart-awx#38 and others), nothing else may change, and the stack and resource go through
// IMPORT_IN_PROGRESS → IMPORT_COMPLETE (state-machine/statuses.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  ExecuteChangeSetCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { deploy, waitForChangeSet } from '../api/changeSetsHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const queue = (name: string, policy = 'Retain') => ({
  Type: 'AWS::SQS::Queue',
  DeletionPolicy: policy,
  Properties: { QueueName: name },
});
const owner = async (physicalId: string) => {
  const { resources } = (await (await fetch(`${server.endpoint}/_cfn-local/world?type=AWS::SQS::Queue`)).json()) as {
    resources: { physicalId: string; stackId?: string; logicalId?: string }[];
  };
  return resources.find((r) => r.physicalId === physicalId);
};

async function errorOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('IMPORT change sets', () => {
  const url = 'https://sqs.us-east-1.amazonaws.com/000000000000/imported-queue';

  it('brings a retained resource back into a stack: IMPORT_IN_PROGRESS → IMPORT_COMPLETE', async () => {
    const first = await deploy(server.client, 'import-src', { Resources: { Q: queue('imported-queue') } });
    await server.client.send(new DeleteStackCommand({ StackName: 'import-src' }));
    await waitForStack(server.client, first.stackId);
    const retained = await owner(url);
    expect(retained?.physicalId).toBe(url);
    expect(retained?.stackId).toBeUndefined();

    const target = await deploy(server.client, 'import-dst', {
      Resources: { Other: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'x' } } },
    });
    const body = JSON.stringify({
      Resources: {
        Other: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'x' } },
        Adopted: queue('imported-queue'),
      },
    });
    const { Id } = await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'import-dst',
        ChangeSetName: 'adopt',
        ChangeSetType: 'IMPORT',
        TemplateBody: body,
        ResourcesToImport: [
          { ResourceType: 'AWS::SQS::Queue', LogicalResourceId: 'Adopted', ResourceIdentifier: { QueueUrl: url } },
        ],
      }),
    );
    const described = await waitForChangeSet(server.client, Id!);
    expect(described).toMatchObject({ Status: 'CREATE_COMPLETE', ExecutionStatus: 'AVAILABLE' });
    expect(described.Changes).toEqual([
      {
        Type: 'Resource',
        ResourceChange: {
          Action: 'Import',
          LogicalResourceId: 'Adopted',
          PhysicalResourceId: url,
          ResourceType: 'AWS::SQS::Queue',
          Scope: [],
          Details: [],
        },
      },
    ]);
    await server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: Id }));
    const stack = await waitForStack(server.client, target.stackId);
    expect(stack).toMatchObject({ StackStatus: 'IMPORT_COMPLETE', ChangeSetId: Id });
    const events = (
      await server.client.send(new DescribeStackEventsCommand({ StackName: target.stackId }))
    ).StackEvents!.reverse();
    expect(
      events.filter((e) => e.LogicalResourceId === 'Adopted').map((e) => [e.ResourceStatus, e.PhysicalResourceId]),
    ).toEqual([
      ['IMPORT_IN_PROGRESS', url],
      ['IMPORT_COMPLETE', url],
    ]);
    expect(
      events
        .filter((e) => e.ResourceType === 'AWS::CloudFormation::Stack')
        .map((e) => e.ResourceStatus)
        .slice(-2),
    ).toEqual(['IMPORT_IN_PROGRESS', 'IMPORT_COMPLETE']);
    const { StackResources } = await server.client.send(new DescribeStackResourcesCommand({ StackName: 'import-dst' }));
    expect(StackResources!.find((r) => r.LogicalResourceId === 'Adopted')).toMatchObject({
      PhysicalResourceId: url,
      ResourceStatus: 'IMPORT_COMPLETE',
    });
    expect(await owner(url)).toMatchObject({ stackId: target.stackId, logicalId: 'Adopted' });
  });

  it("refuses a resource to import without a DeletionPolicy, with AWS's text", async () => {
    await deploy(server.client, 'import-nopolicy', {
      Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'x' } } },
    });
    const body = JSON.stringify({
      Resources: {
        P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'x' } },
        Q: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'whatever' } },
      },
    });
    const message = await errorOf(
      server.client.send(
        new CreateChangeSetCommand({
          StackName: 'import-nopolicy',
          ChangeSetName: 'adopt',
          ChangeSetType: 'IMPORT',
          TemplateBody: body,
          ResourcesToImport: [
            { ResourceType: 'AWS::SQS::Queue', LogicalResourceId: 'Q', ResourceIdentifier: { QueueUrl: 'x' } },
          ],
        }),
      ),
    );
    expect(message).toBe(
      'The following resources to import [Q] must have DeletionPolicy attribute specified in the template.',
    );
  });

  it('refuses other changes made alongside an import', async () => {
    await deploy(server.client, 'import-mixed', {
      Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'x' } } },
    });
    const body = JSON.stringify({
      Resources: {
        P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'changed' } },
        Q: queue('mixed-queue'),
      },
    });
    const message = await errorOf(
      server.client.send(
        new CreateChangeSetCommand({
          StackName: 'import-mixed',
          ChangeSetName: 'adopt',
          ChangeSetType: 'IMPORT',
          TemplateBody: body,
          ResourcesToImport: [
            { ResourceType: 'AWS::SQS::Queue', LogicalResourceId: 'Q', ResourceIdentifier: { QueueUrl: 'nope' } },
          ],
        }),
      ),
    );
    expect(message).toBe(
      'You have modified resources [P] in your template that are not being imported. Update, create or delete operations cannot be executed during import operations.',
    );
  });

  it('refuses Outputs added alongside an import', async () => {
    await deploy(server.client, 'import-outputs', {
      Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'x' } } },
    });
    const body = JSON.stringify({
      Resources: {
        P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'x' } },
        Q: queue('outputs-queue'),
      },
      Outputs: { Url: { Value: { Ref: 'Q' } } },
    });
    const message = await errorOf(
      server.client.send(
        new CreateChangeSetCommand({
          StackName: 'import-outputs',
          ChangeSetName: 'adopt',
          ChangeSetType: 'IMPORT',
          TemplateBody: body,
          ResourcesToImport: [
            { ResourceType: 'AWS::SQS::Queue', LogicalResourceId: 'Q', ResourceIdentifier: { QueueUrl: 'x' } },
          ],
        }),
      ),
    );
    expect(message).toBe('As part of the import operation, you cannot modify or add [Outputs]');
  });

  it('ends FAILED when the resource is not in the account', async () => {
    await deploy(server.client, 'import-missing', {
      Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'x' } } },
    });
    const body = JSON.stringify({
      Resources: {
        P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'x' } },
        Q: queue('missing-queue'),
      },
    });
    const { Id } = await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'import-missing',
        ChangeSetName: 'adopt',
        ChangeSetType: 'IMPORT',
        TemplateBody: body,
        ResourcesToImport: [
          {
            ResourceType: 'AWS::SQS::Queue',
            LogicalResourceId: 'Q',
            ResourceIdentifier: { QueueUrl: 'https://sqs.us-east-1.amazonaws.com/000000000000/missing-queue' },
          },
        ],
      }),
    );
    const described = await waitForChangeSet(server.client, Id!);
    expect(described).toMatchObject({ Status: 'FAILED', ExecutionStatus: 'UNAVAILABLE', Changes: [] });
    expect(described.StatusReason).toContain('missing-queue');
  });
});
