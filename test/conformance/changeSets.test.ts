// DescribeChangeSet compared field by field with what AWS returned for the same template change. Each case names
// the LocalStack snapshot test (recorded against AWS) it comes from.
// Known deviations, by path: none in the cases below; see docs/change-sets.md for the ones outside them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeChangeSetCommand, type Change } from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { changeSet, deploy, params } from '../api/changeSetsHelpers.js';
import { TEST_ENDPOINT } from '../helpers/endpoint.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

// against a shared endpoint (CFN_LOCAL_TEST_ENDPOINT) every run numbers its stacks apart
let n = TEST_ENDPOINT ? Math.floor(Math.random() * 1e9) * 1000 : 0;
const stackName = () => `conf-${++n}`;
const byId = (changes: Change[] | undefined) =>
  [...(changes ?? [])].sort((a, b) =>
    a.ResourceChange!.LogicalResourceId!.localeCompare(b.ResourceChange!.LogicalResourceId!),
  );
const withValues = async (id: string) =>
  (await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: id, IncludePropertyValues: true }))).Changes;

const topic = (name: string, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::SNS::Topic',
  Properties: { TopicName: name },
  ...extra,
});
const ssm = (value: unknown, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::SSM::Parameter',
  Properties: { Type: 'String', Value: value, ...extra },
});

describe('DescribeChangeSet matches AWS', () => {
  it('an in-place property change is Modify / Replacement False / DirectModification Static (test_single_resource_static_update)', async () => {
    const name = stackName();
    const { stack } = await deploy(server.client, name, {
      Resources: { MyParameter: ssm('foo', { Name: `p-${name}` }) },
    });
    const { described } = await changeSet(server.client, stack.StackId!, {
      Resources: { MyParameter: ssm('bar', { Name: `p-${name}` }) },
    });
    expect(described.Changes).toEqual([
      {
        Type: 'Resource',
        ResourceChange: {
          Action: 'Modify',
          LogicalResourceId: 'MyParameter',
          PhysicalResourceId: `p-${name}`,
          ResourceType: 'AWS::SSM::Parameter',
          Replacement: 'False',
          Scope: ['Properties'],
          Details: [
            {
              ChangeSource: 'DirectModification',
              Evaluation: 'Static',
              Target: { Attribute: 'Properties', Name: 'Value', RequiresRecreation: 'Never' },
            },
          ],
        },
      },
    ]);
    expect(described).toMatchObject({
      Status: 'CREATE_COMPLETE',
      ExecutionStatus: 'AVAILABLE',
      IncludeNestedStacks: false,
      NotificationARNs: [],
      RollbackConfiguration: {},
      Capabilities: [],
    });
  });

  it('a property forcing replacement is Replacement True / ReplaceAndDelete, with values (TestCaptureUpdateProcess::test_direct_update)', async () => {
    const name = stackName();
    const { stack } = await deploy(server.client, name, { Resources: { Foo: topic(`${name}-1`) } });
    const { id } = await changeSet(server.client, stack.StackId!, { Resources: { Foo: topic(`${name}-2`) } });
    expect(await withValues(id)).toEqual([
      {
        Type: 'Resource',
        ResourceChange: {
          Action: 'Modify',
          LogicalResourceId: 'Foo',
          PhysicalResourceId: `arn:aws:sns:us-east-1:000000000000:${name}-1`,
          ResourceType: 'AWS::SNS::Topic',
          PolicyAction: 'ReplaceAndDelete',
          Replacement: 'True',
          Scope: ['Properties'],
          BeforeContext: JSON.stringify({ Properties: { TopicName: `${name}-1` } }),
          AfterContext: JSON.stringify({ Properties: { TopicName: `${name}-2` } }),
          Details: [
            {
              ChangeSource: 'DirectModification',
              Evaluation: 'Static',
              Target: {
                AfterValue: `${name}-2`,
                Attribute: 'Properties',
                AttributeChangeType: 'Modify',
                BeforeValue: `${name}-1`,
                Name: 'TopicName',
                Path: '/Properties/TopicName',
                RequiresRecreation: 'Always',
              },
            },
          ],
        },
      },
    ]);
  });

  it('renaming a named resource replaces it (SSM Name is create-only)', async () => {
    const name = stackName();
    const { stack } = await deploy(server.client, name, { Resources: { Named: ssm('v', { Name: `${name}-a` }) } });
    const { described } = await changeSet(server.client, stack.StackId!, {
      Resources: { Named: ssm('v', { Name: `${name}-b` }) },
    });
    expect(described.Changes![0].ResourceChange).toEqual({
      Action: 'Modify',
      LogicalResourceId: 'Named',
      PhysicalResourceId: `${name}-a`,
      ResourceType: 'AWS::SSM::Parameter',
      PolicyAction: 'ReplaceAndDelete',
      Replacement: 'True',
      Scope: ['Properties'],
      Details: [
        {
          ChangeSource: 'DirectModification',
          Evaluation: 'Static',
          Target: { Attribute: 'Properties', Name: 'Name', RequiresRecreation: 'Always' },
        },
      ],
    });
  });

  it('added and removed resources are Add (no Replacement) and Remove with PolicyAction Delete (test_stack_deletion_order)', async () => {
    const name = stackName();
    const { stack } = await deploy(server.client, name, { Resources: { Old: ssm('x') } });
    const { id, described } = await changeSet(server.client, stack.StackId!, { Resources: { New: ssm('x') } });
    const [added, removed] = byId(described.Changes);
    expect(added.ResourceChange).toEqual({
      Action: 'Add',
      Details: [],
      LogicalResourceId: 'New',
      ResourceType: 'AWS::SSM::Parameter',
      Scope: [],
    });
    expect(removed.ResourceChange).toEqual({
      Action: 'Remove',
      Details: [],
      LogicalResourceId: 'Old',
      PhysicalResourceId: expect.stringMatching(/^CFN-Old-[A-Za-z0-9]{12}$/),
      PolicyAction: 'Delete',
      ResourceType: 'AWS::SSM::Parameter',
      Scope: [],
    });
    const [addedV, removedV] = byId(await withValues(id));
    expect(addedV.ResourceChange!.AfterContext).toBe(JSON.stringify({ Properties: { Type: 'String', Value: 'x' } }));
    expect(removedV.ResourceChange!.BeforeContext).toBe(JSON.stringify({ Properties: { Type: 'String', Value: 'x' } }));
  });

  it('a parameter flowing through Ref into two resources gives ParameterReference + Dynamic DirectModification on both (test_parameter_changes)', async () => {
    const name = stackName();
    const template = {
      Parameters: { TopicName: { Type: 'String' } },
      Resources: { Foo: topic({ Ref: 'TopicName' } as unknown as string), Bar: ssm({ Ref: 'TopicName' }) },
    };
    const { stack } = await deploy(server.client, name, template, { Parameters: params({ TopicName: `${name}-1` }) });
    const { id, described } = await changeSet(server.client, stack.StackId!, template, {
      Parameters: params({ TopicName: `${name}-2` }),
    });
    expect(described.Parameters).toEqual([{ ParameterKey: 'TopicName', ParameterValue: `${name}-2` }]);
    const [bar, foo] = byId(described.Changes);
    const pair = (prop: string, recreation: string) => [
      {
        CausingEntity: 'TopicName',
        ChangeSource: 'ParameterReference',
        Evaluation: 'Static',
        Target: { Attribute: 'Properties', Name: prop, RequiresRecreation: recreation },
      },
      {
        ChangeSource: 'DirectModification',
        Evaluation: 'Dynamic',
        Target: { Attribute: 'Properties', Name: prop, RequiresRecreation: recreation },
      },
    ];
    expect(foo.ResourceChange).toMatchObject({
      Action: 'Modify',
      Replacement: 'True',
      PolicyAction: 'ReplaceAndDelete',
      Scope: ['Properties'],
    });
    expect(foo.ResourceChange!.Details).toEqual(pair('TopicName', 'Always'));
    expect(bar.ResourceChange).toMatchObject({ Action: 'Modify', Replacement: 'False', Scope: ['Properties'] });
    expect(bar.ResourceChange!.PolicyAction).toBeUndefined();
    expect(bar.ResourceChange!.Details).toEqual(pair('Value', 'Never'));
    // With values AWS lists the Dynamic twin first.
    const [, fooV] = byId(await withValues(id));
    expect(fooV.ResourceChange!.Details!.map((d) => d.ChangeSource)).toEqual([
      'DirectModification',
      'ParameterReference',
    ]);
  });

  it('a GetAtt of a replaced resource makes the dependant a ResourceAttribute change, Dynamic with values (test_dynamic_update)', async () => {
    const name = stackName();
    const template = (t: string) => ({
      Resources: { Foo: topic(t), Parameter: ssm({ 'Fn::GetAtt': ['Foo', 'TopicName'] }) },
    });
    const { stack } = await deploy(server.client, name, template(`${name}-1`));
    const { id, described } = await changeSet(server.client, stack.StackId!, template(`${name}-2`));
    const [, parameter] = byId(described.Changes);
    expect(parameter.ResourceChange).toEqual({
      Action: 'Modify',
      LogicalResourceId: 'Parameter',
      PhysicalResourceId: expect.stringMatching(/^CFN-Parameter-/),
      ResourceType: 'AWS::SSM::Parameter',
      Replacement: 'False',
      Scope: ['Properties'],
      Details: [
        {
          CausingEntity: 'Foo.TopicName',
          ChangeSource: 'ResourceAttribute',
          Evaluation: 'Static',
          Target: { Attribute: 'Properties', Name: 'Value', RequiresRecreation: 'Never' },
        },
      ],
    });
    const [, parameterV] = byId(await withValues(id));
    const target = {
      AfterValue: '{{changeSet:KNOWN_AFTER_APPLY}}',
      Attribute: 'Properties',
      AttributeChangeType: 'Modify',
      BeforeValue: `${name}-1`,
      Name: 'Value',
      Path: '/Properties/Value',
      RequiresRecreation: 'Never',
    };
    expect(parameterV.ResourceChange!.Details).toEqual([
      { CausingEntity: 'Foo.TopicName', ChangeSource: 'ResourceAttribute', Evaluation: 'Static', Target: target },
      { ChangeSource: 'DirectModification', Evaluation: 'Dynamic', Target: target },
    ]);
    expect(parameterV.ResourceChange!.AfterContext).toBe(
      JSON.stringify({ Properties: { Type: 'String', Value: '{{changeSet:KNOWN_AFTER_APPLY}}' } }),
    );
  });

  it('a GetAtt into a create-only property of a replaced resource replaces the dependant too (AWS replacement rules: a GetAtt of a replaced resource is re-evaluated)', async () => {
    const name = stackName();
    const template = (t: string) => ({
      Resources: { Foo: topic(t), Child: ssm('v', { Name: { 'Fn::GetAtt': ['Foo', 'TopicName'] } }) },
    });
    const { stack } = await deploy(server.client, name, template(`${name}-1`));
    const { described } = await changeSet(server.client, stack.StackId!, template(`${name}-2`));
    const [child] = byId(described.Changes);
    expect(child.ResourceChange).toMatchObject({ Replacement: 'True', PolicyAction: 'ReplaceAndDelete' });
    expect(child.ResourceChange!.Details).toEqual([
      {
        CausingEntity: 'Foo.TopicName',
        ChangeSource: 'ResourceAttribute',
        Evaluation: 'Static',
        Target: { Attribute: 'Properties', Name: 'Name', RequiresRecreation: 'Always' },
      },
    ]);
  });

  it('a Conditional replacement makes its dependants Dynamic, an Always property Conditionally (AWS docs on Replacement; [D] change sets quoted in the wild)', async () => {
    const name = stackName();
    const doc = (command: string) => ({
      Type: 'AWS::SSM::Document',
      Properties: {
        DocumentType: 'Command',
        Content: {
          schemaVersion: '2.2',
          mainSteps: [{ action: 'aws:runShellScript', name: 'run', inputs: { runCommand: [command] } }],
        },
      },
    });
    const template = (command: string) => ({
      Resources: {
        Doc: doc(command),
        ByValue: ssm({ Ref: 'Doc' }),
        ByName: ssm('v', { Name: { 'Fn::Sub': '${Doc}-copy' } }),
      },
    });
    const { stack } = await deploy(server.client, name, template('echo 1'));
    const { described } = await changeSet(server.client, stack.StackId!, template('echo 2'));
    const [byName, byValue, docChange] = byId(described.Changes);
    expect(docChange.ResourceChange).toMatchObject({ Replacement: 'Conditional', Scope: ['Properties'] });
    expect(docChange.ResourceChange!.PolicyAction).toBeUndefined();
    expect(docChange.ResourceChange!.Details).toEqual([
      {
        ChangeSource: 'DirectModification',
        Evaluation: 'Static',
        Target: { Attribute: 'Properties', Name: 'Content', RequiresRecreation: 'Conditionally' },
      },
    ]);
    expect(byValue.ResourceChange).toMatchObject({ Replacement: 'False' });
    expect(byValue.ResourceChange!.Details).toEqual([
      {
        CausingEntity: 'Doc',
        ChangeSource: 'ResourceReference',
        Evaluation: 'Dynamic',
        Target: { Attribute: 'Properties', Name: 'Value', RequiresRecreation: 'Never' },
      },
    ]);
    expect(byName.ResourceChange).toMatchObject({ Replacement: 'Conditional' });
    expect(byName.ResourceChange!.Details).toEqual([
      {
        CausingEntity: 'Doc',
        ChangeSource: 'ResourceReference',
        Evaluation: 'Dynamic',
        Target: { Attribute: 'Properties', Name: 'Name', RequiresRecreation: 'Conditionally' },
      },
    ]);
  });

  it('policy changes: a DeletionPolicy edit is Modify / False scoped DeletionPolicy; Retain policies show in PolicyAction (the DeletionPolicy attribute page of the AWS user guide)', async () => {
    const name = stackName();
    const { stack } = await deploy(server.client, name, {
      Resources: { A: ssm('a'), B: topic(`${name}-1`), C: ssm('c', {}) },
    });
    const next = {
      Resources: {
        A: { ...ssm('a'), DeletionPolicy: 'Retain' },
        B: { ...topic(`${name}-2`), UpdateReplacePolicy: 'Retain' },
      },
    };
    const { described } = await changeSet(server.client, stack.StackId!, next);
    const [a, b, c] = byId(described.Changes);
    expect(a.ResourceChange).toMatchObject({ Action: 'Modify', Replacement: 'False', Scope: ['DeletionPolicy'] });
    expect(a.ResourceChange!.Details).toEqual([
      {
        ChangeSource: 'DirectModification',
        Evaluation: 'Static',
        Target: { Attribute: 'DeletionPolicy', RequiresRecreation: 'Never' },
      },
    ]);
    expect(b.ResourceChange).toMatchObject({
      Replacement: 'True',
      PolicyAction: 'ReplaceAndRetain',
      Scope: ['Properties', 'UpdateReplacePolicy'],
    });
    expect(c.ResourceChange).toMatchObject({ Action: 'Remove', PolicyAction: 'Delete' });
    const retained = await deploy(server.client, `${name}-r`, {
      Resources: { Keep: { ...ssm('k'), DeletionPolicy: 'Retain' }, Other: ssm('o') },
    });
    const removal = await changeSet(server.client, retained.stackId, { Resources: { Other: ssm('o') } });
    expect(removal.described.Changes![0].ResourceChange).toMatchObject({
      Action: 'Remove',
      LogicalResourceId: 'Keep',
      PolicyAction: 'Retain',
    });
  });

  it('tags: adding Tags is Scope Tags with a Tags target and no Name (AWS console capture of an EC2 Subnet change)', async () => {
    const name = stackName();
    const { stack } = await deploy(server.client, name, { Resources: { T: topic(`${name}-t`) } });
    const tags = [{ Key: 'Name', Value: 'Sample' }];
    const { id, described } = await changeSet(server.client, stack.StackId!, {
      Resources: { T: { Type: 'AWS::SNS::Topic', Properties: { TopicName: `${name}-t`, Tags: tags } } },
    });
    expect(described.Changes![0].ResourceChange).toEqual({
      Action: 'Modify',
      LogicalResourceId: 'T',
      PhysicalResourceId: `arn:aws:sns:us-east-1:000000000000:${name}-t`,
      ResourceType: 'AWS::SNS::Topic',
      Replacement: 'False',
      Scope: ['Tags'],
      Details: [
        {
          ChangeSource: 'DirectModification',
          Evaluation: 'Static',
          Target: { Attribute: 'Tags', RequiresRecreation: 'Never' },
        },
      ],
    });
    const [tagged] = (await withValues(id))!;
    expect(tagged.ResourceChange!.Details![0].Target).toEqual({
      Attribute: 'Tags',
      RequiresRecreation: 'Never',
      Path: '/Properties/Tags',
      AfterValue: JSON.stringify(tags),
      AttributeChangeType: 'Add',
    });
  });

  it('a no-op is FAILED / UNAVAILABLE with AWS reason and no Changes (test_create_change_set_no_changes)', async () => {
    const name = stackName();
    const template = { Resources: { A: ssm('a') } };
    const { stack } = await deploy(server.client, name, template);
    const { described } = await changeSet(server.client, stack.StackId!, {
      ...template,
      Metadata: { only: 'metadata' },
    });
    expect(described).toMatchObject({
      Status: 'FAILED',
      ExecutionStatus: 'UNAVAILABLE',
      Changes: [],
      StatusReason:
        "The submitted information didn't contain changes. Submit different information to create a change set.",
    });
  });
});

describe('DescribeStacks after change-set execution matches AWS (TestCaptureUpdateProcess post-create-1-describe)', () => {
  it("has exactly AWS's keys, with ChangeSetId and LastUpdatedTime right after the create", async () => {
    const name = stackName();
    const { id, stack } = await deploy(server.client, name, { Resources: { Foo: topic(`${name}-1`) } });
    const keys = Object.keys(stack)
      .filter((k) => stack[k as keyof typeof stack] !== undefined && k !== 'LastOperations')
      .sort();
    expect(keys).toEqual([
      'ChangeSetId',
      'CreationTime',
      'DisableRollback',
      'DriftInformation',
      'EnableTerminationProtection',
      'LastUpdatedTime',
      'NotificationARNs',
      'RollbackConfiguration',
      'StackId',
      'StackName',
      'StackStatus',
      'Tags',
    ]);
    expect(stack).toMatchObject({
      ChangeSetId: id,
      DisableRollback: false,
      EnableTerminationProtection: false,
      NotificationARNs: [],
      Tags: [],
      DriftInformation: { StackDriftStatus: 'NOT_CHECKED' },
    });
  });
});
