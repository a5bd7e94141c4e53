// Stack refactors: CreateStackRefactor validates in the background (CREATE_COMPLETE / AVAILABLE, or CREATE_FAILED
// with the reason), ListStackRefactorActions shows the moves, ExecuteStackRefactor moves resources between stacks
// and renames them without touching the account, with events in every stack it names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  CreateStackRefactorCommand,
  DescribeStackEventsCommand,
  DescribeStackRefactorCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  DescribeTypeCommand,
  ExecuteStackRefactorCommand,
  ListExportsCommand,
  ListStackRefactorActionsCommand,
  ListStackRefactorsCommand,
  SetStackPolicyCommand,
  UpdateStackCommand,
  type CloudFormationClient,
  type CreateStackRefactorCommandInput,
  type DescribeStackRefactorCommandOutput,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { registerAndWait, WIDGET_SCHEMA } from '../helpers/registry.js';
import { s3Client } from '../helpers/s3.js';
import { childOf, nested, putTemplate } from './nestedHelpers.js';

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('never settled');
}

const describeRefactor = (client: CloudFormationClient, StackRefactorId: string) =>
  client.send(new DescribeStackRefactorCommand({ StackRefactorId }));
const created = (client: CloudFormationClient, id: string) =>
  until(
    () => describeRefactor(client, id),
    (r: DescribeStackRefactorCommandOutput) => r.Status !== 'CREATE_IN_PROGRESS',
  );
const executed = (client: CloudFormationClient, id: string) =>
  until(
    () => describeRefactor(client, id),
    (r: DescribeStackRefactorCommandOutput) => r.ExecutionStatus !== 'EXECUTE_IN_PROGRESS',
  );

async function refactor(client: CloudFormationClient, input: CreateStackRefactorCommandInput) {
  const { StackRefactorId } = await client.send(new CreateStackRefactorCommand(input));
  return { id: StackRefactorId!, described: await created(client, StackRefactorId!) };
}

async function deploy(client: CloudFormationClient, StackName: string, TemplateBody: string) {
  const { StackId } = await client.send(
    new CreateStackCommand({ StackName, TemplateBody, Capabilities: ['CAPABILITY_NAMED_IAM'] }),
  );
  expect((await waitForStack(client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
  return StackId!;
}

const resourcesOf = async (client: CloudFormationClient, StackName: string) =>
  Object.fromEntries(
    ((await client.send(new DescribeStackResourcesCommand({ StackName }))).StackResources ?? []).map((r) => [
      r.LogicalResourceId!,
      r,
    ]),
  );
const eventsOf = async (client: CloudFormationClient, StackName: string) =>
  ((await client.send(new DescribeStackEventsCommand({ StackName }))).StackEvents ?? [])
    .reverse()
    .map((e) => `${e.LogicalResourceId} ${e.ResourceStatus}`);

// Stack1 holds a role and a topic; the refactor moves the topic to Stack2, which reads the role's ARN from an
// export Stack1 adds (a reference that crosses stacks after the move).
const STACK1 = `Resources:
  Role:
    Type: AWS::IAM::Role
    Properties:
      RoleName: refactor-role
      AssumeRolePolicyDocument: { Version: '2012-10-17', Statement: [] }
  Topic:
    Type: AWS::SNS::Topic
    Properties: { TopicName: refactor-topic, DisplayName: !GetAtt Role.Arn }
`;
const STACK2 = `Resources:
  Queue:
    Type: AWS::SQS::Queue
    Properties: { QueueName: refactor-queue }
`;
const STACK1_AFTER = `Resources:
  Role:
    Type: AWS::IAM::Role
    Properties:
      RoleName: refactor-role
      AssumeRolePolicyDocument: { Version: '2012-10-17', Statement: [] }
Outputs:
  RoleArn:
    Value: !GetAtt Role.Arn
    Export: { Name: refactor-role-arn }
`;
const STACK2_AFTER = `Resources:
  Queue:
    Type: AWS::SQS::Queue
    Properties: { QueueName: refactor-queue }
  Topic:
    Type: AWS::SNS::Topic
    Properties: { TopicName: refactor-topic, DisplayName: !ImportValue refactor-role-arn }
`;

describe('stack refactors', () => {
  let server: TestServer;
  let client: CloudFormationClient;
  let stack1 = '';
  let stack2 = '';
  let moveId = '';
  beforeAll(async () => {
    server = await startServer();
    client = server.client;
    stack1 = await deploy(client, 'Stack1', STACK1);
    stack2 = await deploy(client, 'Stack2', STACK2);
  });
  afterAll(() => server.close());

  describe('CreateStackRefactor', () => {
    it('reaches CREATE_COMPLETE / AVAILABLE, the stacks it names in StackIds', async () => {
      const { id, described } = await refactor(client, {
        Description: 'move the topic',
        StackDefinitions: [
          { StackName: 'Stack1', TemplateBody: STACK1_AFTER },
          { StackName: 'Stack2', TemplateBody: STACK2_AFTER },
        ],
      });
      moveId = id;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(described).toMatchObject({
        StackRefactorId: id,
        Description: 'move the topic',
        Status: 'CREATE_COMPLETE',
        ExecutionStatus: 'AVAILABLE',
        StackIds: [stack1, stack2],
      });
    });

    it('ListStackRefactorActions shows the move, found by its logical id (AUTO), with the stack tags it retags', async () => {
      const { StackRefactorActions } = await client.send(
        new ListStackRefactorActionsCommand({ StackRefactorId: moveId }),
      );
      const topicArn = (await resourcesOf(client, 'Stack1')).Topic.PhysicalResourceId;
      expect(StackRefactorActions).toEqual([
        {
          Action: 'MOVE',
          Entity: 'RESOURCE',
          PhysicalResourceId: topicArn,
          Description: 'Resource configuration changes will be validated during refactor execution.',
          Detection: 'AUTO',
          TagResources: [
            { Key: 'aws:cloudformation:stack-name', Value: 'Stack2' },
            { Key: 'aws:cloudformation:logical-id', Value: 'Topic' },
            { Key: 'aws:cloudformation:stack-id', Value: stack2 },
          ],
          UntagResources: [
            'aws:cloudformation:stack-name',
            'aws:cloudformation:logical-id',
            'aws:cloudformation:stack-id',
          ],
          ResourceMapping: {
            Source: { StackName: stack1, LogicalResourceId: 'Topic' },
            Destination: { StackName: stack2, LogicalResourceId: 'Topic' },
          },
        },
      ]);
    });

    it('ListStackRefactors lists it, and filters by ExecutionStatus', async () => {
      const { StackRefactorSummaries } = await client.send(new ListStackRefactorsCommand({}));
      expect(StackRefactorSummaries![0]).toEqual({
        StackRefactorId: moveId,
        Description: 'move the topic',
        Status: 'CREATE_COMPLETE',
        ExecutionStatus: 'AVAILABLE',
      });
      const none = await client.send(new ListStackRefactorsCommand({ ExecutionStatusFilter: ['EXECUTE_COMPLETE'] }));
      expect(none.StackRefactorSummaries).toEqual([]);
    });
  });

  describe('ExecuteStackRefactor', () => {
    it('moves the resource: EXECUTE_COMPLETE, the same physical resource now in the destination stack', async () => {
      const before = (await resourcesOf(client, 'Stack1')).Topic;
      await client.send(new ExecuteStackRefactorCommand({ StackRefactorId: moveId }));
      expect((await executed(client, moveId)).ExecutionStatus).toBe('EXECUTE_COMPLETE');
      expect((await waitForStack(client, stack1)).StackStatus).toBe('UPDATE_COMPLETE');
      expect((await waitForStack(client, stack2)).StackStatus).toBe('UPDATE_COMPLETE');
      expect(Object.keys(await resourcesOf(client, 'Stack1'))).toEqual(['Role']);
      const moved = (await resourcesOf(client, 'Stack2')).Topic;
      expect(moved).toMatchObject({
        PhysicalResourceId: before.PhysicalResourceId,
        ResourceType: 'AWS::SNS::Topic',
        ResourceStatus: 'IMPORT_COMPLETE',
        StackId: stack2,
      });
      const byPhysical = await client.send(
        new DescribeStackResourcesCommand({ PhysicalResourceId: before.PhysicalResourceId }),
      );
      // DescribeStackResources by physical id answers every resource of the stack that owns it
      expect(byPhysical.StackResources!.map((r) => `${r.StackName}/${r.LogicalResourceId}`).sort()).toEqual([
        'Stack2/Queue',
        'Stack2/Topic',
      ]);
    });

    it('writes events in both stacks: the source skips the delete, the destination imports', async () => {
      expect((await eventsOf(client, 'Stack1')).slice(-3)).toEqual([
        'Stack1 UPDATE_IN_PROGRESS',
        'Topic DELETE_SKIPPED',
        'Stack1 UPDATE_COMPLETE',
      ]);
      expect((await eventsOf(client, 'Stack2')).slice(-4)).toEqual([
        'Stack2 UPDATE_IN_PROGRESS',
        'Topic IMPORT_IN_PROGRESS',
        'Topic IMPORT_COMPLETE',
        'Stack2 UPDATE_COMPLETE',
      ]);
      const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: 'Stack2' }));
      expect(Stacks![0].LastOperations![0].OperationType).toBe('UPDATE_STACK');
    });

    it('publishes the new outputs and exports', async () => {
      const { Exports } = await client.send(new ListExportsCommand({}));
      expect(Exports).toEqual([
        { ExportingStackId: stack1, Name: 'refactor-role-arn', Value: expect.stringContaining(':role/refactor-role') },
      ]);
    });

    it('refuses a second execution with the execution status', async () => {
      await expect(client.send(new ExecuteStackRefactorCommand({ StackRefactorId: moveId }))).rejects.toMatchObject({
        name: 'ValidationError',
        message: `StackRefactor [${moveId}] cannot be executed in its current execution status of [EXECUTE_COMPLETE]`,
      });
    });
  });

  describe('renames and new stacks', () => {
    it('renames a logical id through ResourceMappings (Detection MANUAL)', async () => {
      const renamed = STACK2_AFTER.replace('  Queue:', '  Jobs:');
      const { id, described } = await refactor(client, {
        StackDefinitions: [{ StackName: 'Stack2', TemplateBody: renamed }],
        ResourceMappings: [
          {
            Source: { StackName: 'Stack2', LogicalResourceId: 'Queue' },
            Destination: { StackName: 'Stack2', LogicalResourceId: 'Jobs' },
          },
        ],
      });
      expect(described.Status).toBe('CREATE_COMPLETE');
      const { StackRefactorActions } = await client.send(new ListStackRefactorActionsCommand({ StackRefactorId: id }));
      expect(
        StackRefactorActions!.map((a) => [a.Action, a.Detection, a.ResourceMapping!.Destination!.LogicalResourceId]),
      ).toEqual([['MOVE', 'MANUAL', 'Jobs']]);
      await client.send(new ExecuteStackRefactorCommand({ StackRefactorId: id }));
      expect((await executed(client, id)).ExecutionStatus).toBe('EXECUTE_COMPLETE');
      expect(Object.keys(await resourcesOf(client, 'Stack2')).sort()).toEqual(['Jobs', 'Topic']);
    });

    it('EnableStackCreation makes a new stack that takes the resource over (CREATE_COMPLETE)', async () => {
      const { id, described } = await refactor(client, {
        EnableStackCreation: true,
        StackDefinitions: [
          {
            StackName: 'Stack2',
            TemplateBody: STACK2_AFTER.replace('  Queue:', '  Jobs:').replace(/ {2}Topic:[\s\S]*$/, ''),
          },
          {
            StackName: 'Stack3',
            TemplateBody:
              'Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties: { TopicName: refactor-topic, DisplayName: !ImportValue refactor-role-arn }\n',
          },
        ],
      });
      expect(described).toMatchObject({ Status: 'CREATE_COMPLETE', ExecutionStatus: 'AVAILABLE' });
      const { StackRefactorActions } = await client.send(new ListStackRefactorActionsCommand({ StackRefactorId: id }));
      expect(StackRefactorActions!.map((a) => `${a.Action} ${a.Entity}`)).toEqual(['CREATE STACK', 'MOVE RESOURCE']);
      await client.send(new ExecuteStackRefactorCommand({ StackRefactorId: id }));
      expect((await executed(client, id)).ExecutionStatus).toBe('EXECUTE_COMPLETE');
      const stack3 = await waitForStack(client, 'Stack3');
      expect(stack3.StackStatus).toBe('CREATE_COMPLETE');
      expect(stack3.StackId).toBe(described.StackIds![1]);
      expect(Object.keys(await resourcesOf(client, 'Stack3'))).toEqual(['Topic']);
    });
  });

  describe('nested stacks', () => {
    it('moves a resource between two nested stacks named by their stack ids; the parent update keeps it', async () => {
      const param = (name: string) =>
        `  ${name}:\n    Type: AWS::SSM::Parameter\n    Properties: { Type: String, Value: v }\n`;
      const parent = async (a: string, b: string) =>
        `Resources:\n${nested('A', await putTemplate(server, a))}${nested('B', await putTemplate(server, b))}`;
      const { StackId } = await client.send(
        new CreateStackCommand({
          StackName: 'Parent',
          TemplateBody: await parent(`Resources:\n${param('InA')}${param('Moves')}`, `Resources:\n${param('InB')}`),
        }),
      );
      expect((await waitForStack(client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
      const childA = (await childOf(client, 'Parent', 'A')).StackId!;
      const childB = (await childOf(client, 'Parent', 'B')).StackId!;
      const before = (await resourcesOf(client, childA)).Moves.PhysicalResourceId;
      const after = { A: `Resources:\n${param('InA')}`, B: `Resources:\n${param('InB')}${param('Moves')}` };
      const { id, described } = await refactor(client, {
        StackDefinitions: [
          { StackName: childA, TemplateBody: after.A },
          { StackName: childB, TemplateBody: after.B },
        ],
      });
      expect(described).toMatchObject({ Status: 'CREATE_COMPLETE', StackIds: [childA, childB] });
      await client.send(new ExecuteStackRefactorCommand({ StackRefactorId: id }));
      expect((await executed(client, id)).ExecutionStatus).toBe('EXECUTE_COMPLETE');
      expect(Object.keys(await resourcesOf(client, childA))).toEqual(['InA']);
      expect((await resourcesOf(client, childB)).Moves.PhysicalResourceId).toBe(before);
      // the parent then deploys the children's new templates: nothing to create or delete
      await client.send(new UpdateStackCommand({ StackName: 'Parent', TemplateBody: await parent(after.A, after.B) }));
      expect((await waitForStack(client, StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
      expect((await resourcesOf(client, childB)).Moves).toMatchObject({
        PhysicalResourceId: before,
        ResourceStatus: 'IMPORT_COMPLETE',
      });
    });
  });

  describe('refusals', () => {
    const failure = async (input: CreateStackRefactorCommandInput) => {
      const { described } = await refactor(client, input);
      expect(described).toMatchObject({ Status: 'CREATE_FAILED', ExecutionStatus: 'UNAVAILABLE' });
      return described.StatusReason;
    };

    it('CREATE_FAILED when a resource changes its configuration', async () => {
      const reason = await failure({
        StackDefinitions: [
          { StackName: 'Stack1', TemplateBody: STACK1_AFTER.replace('RoleName: refactor-role', 'RoleName: other') },
        ],
      });
      expect(reason).toBe(
        'Stack refactor cannot modify resource configuration. The following resources have changes: [Stack1/Role].',
      );
    });

    it('CREATE_FAILED when a template adds or drops a resource', async () => {
      expect(
        await failure({
          StackDefinitions: [
            {
              StackName: 'Stack1',
              TemplateBody: `${STACK1_AFTER.split('Outputs:')[0]}  Extra:\n    Type: AWS::SNS::Topic\n`,
            },
          ],
        }),
      ).toMatch(/^Stack refactor cannot create resources, .*: \[Stack1\/Extra\]\.$/);
      const param = (name: string) =>
        `  ${name}:\n    Type: AWS::SSM::Parameter\n    Properties: { Type: String, Value: v }\n`;
      await deploy(client, 'Pair', `Resources:\n${param('A')}${param('B')}`);
      expect(
        await failure({ StackDefinitions: [{ StackName: 'Pair', TemplateBody: `Resources:\n${param('A')}` }] }),
      ).toBe(
        'Stack refactor cannot delete resources, and the following resources are not in any destination template: [Pair/B].',
      );
    });

    it('CREATE_FAILED when Parameters change, or there is nothing to move', async () => {
      expect(
        await failure({
          StackDefinitions: [
            { StackName: 'Stack1', TemplateBody: `Parameters:\n  P: { Type: String, Default: x }\n${STACK1_AFTER}` },
          ],
        }),
      ).toBe('Stack refactor cannot add or change Parameters of stack [Stack1].');
      expect(await failure({ StackDefinitions: [{ StackName: 'Stack1', TemplateBody: STACK1_AFTER }] })).toBe(
        'Stack refactor has no resources to move or rename.',
      );
    });

    it('CREATE_FAILED when it would move a resource type AWS does not refactor; one left in place is no bar', async () => {
      const handle = (id: string) => `  ${id}:\n    Type: AWS::CloudFormation::WaitConditionHandle\n`;
      const topic = (id: string) =>
        `  ${id}:\n    Type: AWS::SNS::Topic\n    Properties: { TopicName: ${id.toLowerCase()} }\n`;
      await deploy(client, 'Handles', `Resources:\n${handle('Handle')}${topic('KeptTopic')}${topic('MovedTopic')}`);
      await deploy(client, 'Elsewhere', `Resources:\n${topic('OtherTopic')}`);
      expect(
        await failure({
          StackDefinitions: [
            { StackName: 'Handles', TemplateBody: `Resources:\n${topic('KeptTopic')}${topic('MovedTopic')}` },
            { StackName: 'Elsewhere', TemplateBody: `Resources:\n${topic('OtherTopic')}${handle('Handle')}` },
          ],
        }),
      ).toBe(
        'Stack refactor does not support moving or renaming these resource types: [Handles/Handle (AWS::CloudFormation::WaitConditionHandle)].',
      );
      // the handle stays where it is while a topic moves
      const { described } = await refactor(client, {
        StackDefinitions: [
          { StackName: 'Handles', TemplateBody: `Resources:\n${handle('Handle')}${topic('KeptTopic')}` },
          { StackName: 'Elsewhere', TemplateBody: `Resources:\n${topic('OtherTopic')}${topic('MovedTopic')}` },
        ],
      });
      expect(described).toMatchObject({ Status: 'CREATE_COMPLETE', ExecutionStatus: 'AVAILABLE' });
    });

    it('CREATE_FAILED when it would move a type whose registry ProvisioningType is not FULLY_MUTABLE', async () => {
      const { ProvisioningType } = await client.send(
        new DescribeTypeCommand({ Type: 'RESOURCE', TypeName: 'AWS::EC2::KeyPair' }),
      );
      expect(ProvisioningType).toBe('IMMUTABLE');
      const key = `  Key:\n    Type: AWS::EC2::KeyPair\n    Properties: { KeyName: refactor-key }\n`;
      const topic = (id: string) => `  ${id}:\n    Type: AWS::SNS::Topic\n`;
      await deploy(client, 'Keys', `Resources:\n${key}${topic('KeysTopic')}`);
      await deploy(client, 'KeysTo', `Resources:\n${topic('KeysToTopic')}`);
      expect(
        await failure({
          StackDefinitions: [
            { StackName: 'Keys', TemplateBody: `Resources:\n${topic('KeysTopic')}` },
            { StackName: 'KeysTo', TemplateBody: `Resources:\n${topic('KeysToTopic')}${key}` },
          ],
        }),
      ).toBe(
        'Stack Refactor does not support AWS::EC2::KeyPair because the resource type does not allow tag updates after creation.',
      );
    });

    it("the account's own type counts by its default version's ProvisioningType", async () => {
      const { update: _update, ...handlers } = WIDGET_SCHEMA.handlers;
      const schema = { ...WIDGET_SCHEMA, typeName: 'MyOrg::Widgets::Fixed', handlers };
      expect((await registerAndWait(client, s3Client(server.endpoint), 'RESOURCE', schema)).ProgressStatus).toBe(
        'COMPLETE',
      );
      const { ProvisioningType } = await client.send(
        new DescribeTypeCommand({ Type: 'RESOURCE', TypeName: 'MyOrg::Widgets::Fixed' }),
      );
      expect(ProvisioningType).toBe('IMMUTABLE');
      const widget = `  Widget:\n    Type: MyOrg::Widgets::Fixed\n    Properties: { Size: 1 }\n`;
      const topic = (id: string) => `  ${id}:\n    Type: AWS::SNS::Topic\n`;
      await deploy(client, 'Widgets', `Resources:\n${widget}${topic('WidgetsTopic')}`);
      await deploy(client, 'WidgetsTo', `Resources:\n${topic('WidgetsToTopic')}`);
      expect(
        await failure({
          StackDefinitions: [
            { StackName: 'Widgets', TemplateBody: `Resources:\n${topic('WidgetsTopic')}` },
            { StackName: 'WidgetsTo', TemplateBody: `Resources:\n${topic('WidgetsToTopic')}${widget}` },
          ],
        }),
      ).toBe(
        'Stack Refactor does not support MyOrg::Widgets::Fixed because the resource type does not allow tag updates after creation.',
      );
    });

    it('CREATE_FAILED for a stack with a stack policy', async () => {
      const topic = (id: string) => `  ${id}:\n    Type: AWS::SNS::Topic\n`;
      const guarded = await deploy(client, 'Guarded', `Resources:\n${topic('A')}${topic('B')}`);
      await deploy(client, 'GuardedTo', `Resources:\n${topic('C')}`);
      await client.send(
        new SetStackPolicyCommand({
          StackName: guarded,
          StackPolicyBody: JSON.stringify({
            Statement: [{ Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*' }],
          }),
        }),
      );
      expect(
        await failure({
          StackDefinitions: [
            { StackName: 'Guarded', TemplateBody: `Resources:\n${topic('A')}` },
            { StackName: 'GuardedTo', TemplateBody: `Resources:\n${topic('C')}${topic('B')}` },
          ],
        }),
      ).toBe('Stack refactor does not support stacks with a stack policy: [Guarded].');
    });

    it('refuses at the call a stack that does not exist, unless EnableStackCreation', async () => {
      await expect(
        client.send(
          new CreateStackRefactorCommand({ StackDefinitions: [{ StackName: 'Nope', TemplateBody: STACK2 }] }),
        ),
      ).rejects.toMatchObject({ name: 'ValidationError', message: 'Stack [Nope] does not exist' });
    });

    it('names a stack by its stack id too; the same stack twice, or an unknown stack id, is refused', async () => {
      const topic = (id: string) => `  ${id}:\n    Type: AWS::SNS::Topic\n`;
      const from = await deploy(client, 'ByIdFrom', `Resources:\n${topic('IdA')}${topic('IdB')}`);
      const to = await deploy(client, 'ByIdTo', `Resources:\n${topic('IdC')}`);
      const { described } = await refactor(client, {
        StackDefinitions: [
          { StackName: from, TemplateBody: `Resources:\n${topic('IdA')}` },
          { StackName: to, TemplateBody: `Resources:\n${topic('IdC')}${topic('Moved')}` },
        ],
        ResourceMappings: [
          {
            Source: { StackName: from, LogicalResourceId: 'IdB' },
            Destination: { StackName: 'ByIdTo', LogicalResourceId: 'Moved' },
          },
        ],
      });
      expect(described).toMatchObject({
        Status: 'CREATE_COMPLETE',
        ExecutionStatus: 'AVAILABLE',
        StackIds: [from, to],
      });
      await expect(
        client.send(
          new CreateStackRefactorCommand({
            StackDefinitions: [
              { StackName: 'ByIdFrom', TemplateBody: `Resources:\n${topic('IdA')}` },
              { StackName: from, TemplateBody: `Resources:\n${topic('IdA')}` },
            ],
          }),
        ),
      ).rejects.toMatchObject({
        name: 'ValidationError',
        message: `Stack [${from}] is specified more than once in StackDefinitions.`,
      });
      const unknown = from.replace(/[0-9a-f]{8}-/, '00000000-');
      await expect(
        client.send(
          new CreateStackRefactorCommand({
            EnableStackCreation: true,
            StackDefinitions: [{ StackName: unknown, TemplateBody: STACK2 }],
          }),
        ),
      ).rejects.toMatchObject({ name: 'ValidationError', message: `Stack [${unknown}] does not exist` });
    });

    it('refuses at the call no stacks, a stack without a name, and a mapping of a stack not defined', async () => {
      const refused = (input: CreateStackRefactorCommandInput) =>
        client.send(new CreateStackRefactorCommand(input)).then(
          () => 'accepted',
          (err: Error) => `${err.name}: ${err.message}`,
        );
      expect(await refused({ StackDefinitions: [] })).toBe(
        'ValidationError: StackDefinitions must contain at least one stack.',
      );
      expect(await refused({ StackDefinitions: [{ TemplateBody: STACK2 }] })).toBe(
        'ValidationError: StackName must be specified in each of the StackDefinitions.',
      );
      expect(
        await refused({
          StackDefinitions: [{ StackName: 'Stack1', TemplateBody: STACK1_AFTER }],
          ResourceMappings: [
            {
              Source: { StackName: 'Stack1', LogicalResourceId: 'Role' },
              Destination: { StackName: 'Elsewhere', LogicalResourceId: 'Role' },
            },
          ],
        }),
      ).toBe('ValidationError: Stack [Elsewhere] in ResourceMappings is not in StackDefinitions.');
    });

    it('CREATE_FAILED for a mapping of what is not there, a type change, a bad template, a stack under review', async () => {
      const topic = (id: string, type = 'AWS::SNS::Topic') => `  ${id}:\n    Type: ${type}\n`;
      await deploy(client, 'Checks', `Resources:\n${topic('CheckA')}${topic('CheckB')}`);
      const mapping = (from: string, to: string) => [
        {
          Source: { StackName: 'Checks', LogicalResourceId: from },
          Destination: { StackName: 'Checks', LogicalResourceId: to },
        },
      ];
      const renamed = `Resources:\n${topic('CheckA')}${topic('CheckC')}`;
      expect(
        await failure({
          StackDefinitions: [{ StackName: 'Checks', TemplateBody: renamed }],
          ResourceMappings: mapping('Nope', 'CheckC'),
        }),
      ).toBe('Resource [Nope] in ResourceMappings does not exist in source stack [Checks].');
      expect(
        await failure({
          StackDefinitions: [{ StackName: 'Checks', TemplateBody: renamed }],
          ResourceMappings: mapping('CheckB', 'Nope'),
        }),
      ).toBe('Resource [Nope] in ResourceMappings does not exist in the template of destination stack [Checks].');
      expect(
        await failure({
          StackDefinitions: [
            {
              StackName: 'Checks',
              TemplateBody: `Resources:\n${topic('CheckA')}${topic('CheckB', 'AWS::SQS::Queue')}`,
            },
          ],
        }),
      ).toBe('Stack refactor cannot change the type of resources: [Checks/CheckB].');
      expect(
        await failure({ StackDefinitions: [{ StackName: 'Checks', TemplateBody: 'Resources: {}\nOutputs: [1' }] }),
      ).toMatch(/^Template of stack \[Checks\]: /);
      await client.send(
        new CreateChangeSetCommand({
          StackName: 'UnderReview',
          ChangeSetName: 'first',
          ChangeSetType: 'CREATE',
          TemplateBody: `Resources:\n${topic('Reviewed')}`,
        }),
      );
      expect(
        await failure({
          StackDefinitions: [{ StackName: 'UnderReview', TemplateBody: `Resources:\n${topic('Renamed')}` }],
        }),
      ).toBe('Stack [UnderReview] is in REVIEW_IN_PROGRESS state and cannot be refactored.');
    });

    it('refuses more than 5 stacks, and a template given both ways', async () => {
      const six = Array.from({ length: 6 }, (_, i) => ({ StackName: `S${i}`, TemplateBody: STACK2 }));
      await expect(client.send(new CreateStackRefactorCommand({ StackDefinitions: six }))).rejects.toMatchObject({
        name: 'ValidationError',
        message: 'StackDefinitions cannot contain more than 5 stacks.',
      });
      await expect(
        client.send(
          new CreateStackRefactorCommand({
            StackDefinitions: [
              { StackName: 'Stack1', TemplateBody: STACK1, TemplateURL: 'https://s3.amazonaws.com/b/k' },
            ],
          }),
        ),
      ).rejects.toMatchObject({
        name: 'ValidationError',
        message: 'Specify either TemplateBody or TemplateURL, but not both.',
      });
    });

    it('answers StackRefactorNotFoundException for an unknown id', async () => {
      for (const command of [
        new DescribeStackRefactorCommand({ StackRefactorId: 'nope' }),
        new ExecuteStackRefactorCommand({ StackRefactorId: 'nope' }),
        new ListStackRefactorActionsCommand({ StackRefactorId: 'nope' }),
      ]) {
        await expect(client.send(command as DescribeStackRefactorCommand)).rejects.toMatchObject({
          name: 'StackRefactorNotFoundException',
          $metadata: { httpStatusCode: 404 },
        });
      }
    });

    it('goes OBSOLETE once a stack it names is updated another way, and then cannot be executed', async () => {
      const { id, described } = await refactor(client, {
        StackDefinitions: [
          {
            StackName: 'Stack1',
            TemplateBody: STACK1_AFTER.replace(/ {2}Role:/, '  Role2:').replace('GetAtt Role.Arn', 'GetAtt Role2.Arn'),
          },
        ],
        ResourceMappings: [
          {
            Source: { StackName: 'Stack1', LogicalResourceId: 'Role' },
            Destination: { StackName: 'Stack1', LogicalResourceId: 'Role2' },
          },
        ],
      });
      expect(described.ExecutionStatus).toBe('AVAILABLE');
      await client.send(
        new UpdateStackCommand({
          StackName: 'Stack1',
          Capabilities: ['CAPABILITY_NAMED_IAM'],
          TemplateBody: STACK1_AFTER.replace('refactor-role-arn', 'role-arn-2'),
        }),
      );
      await waitForStack(client, stack1);
      expect((await describeRefactor(client, id)).ExecutionStatus).toBe('OBSOLETE');
      await expect(client.send(new ExecuteStackRefactorCommand({ StackRefactorId: id }))).rejects.toMatchObject({
        message: `StackRefactor [${id}] cannot be executed in its current execution status of [OBSOLETE]`,
      });
    });

    it('ListStackRefactors pages with MaxResults and NextToken', async () => {
      const first = await client.send(new ListStackRefactorsCommand({ MaxResults: 2 }));
      expect(first.StackRefactorSummaries).toHaveLength(2);
      const rest = await client.send(new ListStackRefactorsCommand({ NextToken: first.NextToken }));
      const all = await client.send(new ListStackRefactorsCommand({}));
      expect([...first.StackRefactorSummaries!, ...rest.StackRefactorSummaries!]).toEqual(all.StackRefactorSummaries);
    });
  });
});
