// Every Action of the SDK's CloudFormation model, called through its *Command with valid input against a server that
// holds a stack, a change set, a stack set with an instance, a resource scan and a generated template: none answers
// NotImplemented, except those STILL_NOT_SERVED names (each of which must), and none answers a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '@aws-sdk/client-cloudformation';
import {
  CreateChangeSetCommand,
  CreateGeneratedTemplateCommand,
  CreateStackCommand,
  CreateStackInstancesCommand,
  CreateStackSetCommand,
  DescribeChangeSetCommand,
  DetectStackDriftCommand,
  StartResourceScanCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { ADMIN, clientFor, waitForOperation } from './stackSetsHelpers.js';
import { NOT_SERVED } from '../../handlers/cloudformation/notImplemented.js';
import type { Action } from '../../handlers/cloudformation/context.js';

/**
 * The Actions that still answer NotImplemented: equal to handlers/cloudformation/notImplemented.ts's list. Serving one
 * means taking it out of both; this list ends empty.
 */
const STILL_NOT_SERVED: readonly Action[] = [];

const REGION = 'us-east-1';
const TEMPLATE = `Resources:
  Topic:
    Type: AWS::SNS::Topic
Outputs:
  TopicArn:
    Value: !Ref Topic
    Export:
      Name: every-export
`;
const CHANGED = TEMPLATE.replace('Resources:', 'Description: changed\nResources:');
const SET_TEMPLATE = 'Resources:\n  Param:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: v}\n';
const PRIVATE_TYPE = 'MyOrg::Every::Thing';
const HOOK_TYPE = 'MyOrg::Every::Hook';
const PUBLIC_TYPE = 'AWSSamples::EC2::ImportKeyPair';
// The publisher of AWS's sample public extensions (AWSSamples::…).
const PUBLISHER_ID = '408988dff9e863704bcc72e7e13f8d645cee8311';
const NO_SUCH_ID = '11111111-2222-3333-4444-555555555555';

/** What the inputs name: the fixture the test builds before it calls anything. */
interface Fixture {
  stackId: string;
  changeSetId: string;
  setOperationId: string;
  driftDetectionId: string;
  resourceScanId: string;
}

type Input = Record<string, unknown>;

/** A valid input per Action, total over the model (a new Action does not compile until it has a row). */
const INPUTS: { readonly [A in Action]: (f: Fixture) => Input } = {
  ActivateOrganizationsAccess: () => ({}),
  ActivateType: () => ({ Type: 'RESOURCE', TypeName: PUBLIC_TYPE, PublisherId: PUBLISHER_ID }),
  BatchDescribeTypeConfigurations: () => ({
    TypeConfigurationIdentifiers: [{ Type: 'RESOURCE', TypeName: 'AWS::SNS::Topic' }],
  }),
  CancelUpdateStack: () => ({ StackName: 'every-stack' }),
  ContinueUpdateRollback: () => ({ StackName: 'every-stack' }),
  CreateChangeSet: () => ({ StackName: 'every-stack', ChangeSetName: 'every-created', TemplateBody: CHANGED }),
  CreateGeneratedTemplate: () => ({ GeneratedTemplateName: 'every-generated-2' }),
  CreateStack: () => ({ StackName: 'every-created', TemplateBody: TEMPLATE.replace('every-export', 'every-export-2') }),
  CreateStackInstances: () => ({ StackSetName: 'every-set', Accounts: [ADMIN], Regions: ['eu-west-1'] }),
  CreateStackRefactor: () => ({
    StackDefinitions: [{ StackName: 'every-stack', TemplateBody: TEMPLATE }],
  }),
  CreateStackSet: () => ({ StackSetName: 'every-set-2', TemplateBody: SET_TEMPLATE }),
  DeactivateOrganizationsAccess: () => ({}),
  DeactivateType: () => ({ Type: 'RESOURCE', TypeName: PUBLIC_TYPE }),
  DeleteChangeSet: () => ({ StackName: 'every-stack', ChangeSetName: 'every-doomed' }),
  DeleteGeneratedTemplate: () => ({ GeneratedTemplateName: 'every-generated-doomed' }),
  DeleteStack: () => ({ StackName: 'every-doomed' }),
  DeleteStackInstances: () => ({
    StackSetName: 'every-set-doomed',
    Accounts: [ADMIN],
    Regions: [REGION],
    RetainStacks: false,
  }),
  DeleteStackSet: () => ({ StackSetName: 'every-set-empty' }),
  DeregisterType: () => ({ Type: 'RESOURCE', TypeName: PRIVATE_TYPE }),
  DescribeAccountLimits: () => ({}),
  DescribeChangeSet: (f) => ({ ChangeSetName: f.changeSetId }),
  DescribeChangeSetHooks: (f) => ({ ChangeSetName: f.changeSetId }),
  DescribeEvents: () => ({ StackName: 'every-stack' }),
  DescribeGeneratedTemplate: () => ({ GeneratedTemplateName: 'every-generated' }),
  DescribeOrganizationsAccess: () => ({}),
  DescribePublisher: () => ({}),
  DescribeResourceScan: (f) => ({ ResourceScanId: f.resourceScanId }),
  DescribeStackDriftDetectionStatus: (f) => ({ StackDriftDetectionId: f.driftDetectionId }),
  DescribeStackEvents: () => ({ StackName: 'every-stack' }),
  DescribeStackInstance: () => ({
    StackSetName: 'every-set',
    StackInstanceAccount: ADMIN,
    StackInstanceRegion: REGION,
  }),
  DescribeStackRefactor: () => ({ StackRefactorId: NO_SUCH_ID }),
  DescribeStackResource: () => ({ StackName: 'every-stack', LogicalResourceId: 'Topic' }),
  DescribeStackResourceDrifts: () => ({ StackName: 'every-stack' }),
  DescribeStackResources: () => ({ StackName: 'every-stack' }),
  DescribeStackSet: () => ({ StackSetName: 'every-set' }),
  DescribeStackSetOperation: (f) => ({ StackSetName: 'every-set', OperationId: f.setOperationId }),
  DescribeStacks: () => ({ StackName: 'every-stack' }),
  DescribeType: () => ({ Type: 'RESOURCE', TypeName: 'AWS::SNS::Topic' }),
  DescribeTypeRegistration: () => ({ RegistrationToken: NO_SUCH_ID }),
  DetectStackDrift: () => ({ StackName: 'every-stack' }),
  DetectStackResourceDrift: () => ({ StackName: 'every-stack', LogicalResourceId: 'Topic' }),
  DetectStackSetDrift: () => ({ StackSetName: 'every-set' }),
  EstimateTemplateCost: () => ({ TemplateBody: TEMPLATE }),
  ExecuteChangeSet: () => ({ StackName: 'every-executed', ChangeSetName: 'every-execute' }),
  ExecuteStackRefactor: () => ({ StackRefactorId: NO_SUCH_ID }),
  GetGeneratedTemplate: () => ({ GeneratedTemplateName: 'every-generated' }),
  GetHookResult: () => ({ HookResultId: NO_SUCH_ID }),
  GetStackPolicy: () => ({ StackName: 'every-stack' }),
  GetTemplate: () => ({ StackName: 'every-stack' }),
  GetTemplateSummary: () => ({ StackName: 'every-stack' }),
  ImportStacksToStackSet: (f) => ({ StackSetName: 'every-set-import', StackIds: [f.stackId] }),
  ListChangeSets: () => ({ StackName: 'every-stack' }),
  ListExports: () => ({}),
  ListGeneratedTemplates: () => ({}),
  ListHookResults: (f) => ({ TargetType: 'CHANGE_SET', TargetId: f.changeSetId }),
  ListImports: () => ({ ExportName: 'every-export' }),
  ListResourceScanRelatedResources: (f) => ({
    ResourceScanId: f.resourceScanId,
    Resources: [{ ResourceType: 'AWS::SNS::Topic', ResourceIdentifier: { TopicArn: 'arn:aws:sns:us-east-1:1:t' } }],
  }),
  ListResourceScanResources: (f) => ({ ResourceScanId: f.resourceScanId }),
  ListResourceScans: () => ({}),
  ListStackInstanceResourceDrifts: (f) => ({
    StackSetName: 'every-set',
    StackInstanceAccount: ADMIN,
    StackInstanceRegion: REGION,
    OperationId: f.setOperationId,
  }),
  ListStackInstances: () => ({ StackSetName: 'every-set' }),
  ListStackRefactorActions: () => ({ StackRefactorId: NO_SUCH_ID }),
  ListStackRefactors: () => ({}),
  ListStackResources: () => ({ StackName: 'every-stack' }),
  ListStackSetAutoDeploymentTargets: () => ({ StackSetName: 'every-set' }),
  ListStackSetOperationResults: (f) => ({ StackSetName: 'every-set', OperationId: f.setOperationId }),
  ListStackSetOperations: () => ({ StackSetName: 'every-set' }),
  ListStackSets: () => ({}),
  ListStacks: () => ({}),
  ListTypeRegistrations: () => ({ Type: 'RESOURCE', TypeName: PRIVATE_TYPE }),
  ListTypeVersions: () => ({ Type: 'RESOURCE', TypeName: 'AWS::SNS::Topic' }),
  ListTypes: () => ({ Visibility: 'PUBLIC' }),
  PublishType: () => ({ Type: 'RESOURCE', TypeName: PRIVATE_TYPE }),
  RecordHandlerProgress: () => ({ BearerToken: NO_SUCH_ID, OperationStatus: 'SUCCESS' }),
  RegisterPublisher: () => ({ AcceptTermsAndConditions: true }),
  RegisterType: () => ({
    Type: 'RESOURCE',
    TypeName: PRIVATE_TYPE,
    SchemaHandlerPackage: 's3://every-bucket/every-handler.zip',
  }),
  // SetAlias before RemoveAlias, so the alias RemoveAlias takes exists.
  SetAlias: () => ({ StackName: 'every-stack', AliasName: 'EveryAlias' }),
  RemoveAlias: () => ({ AliasName: 'EveryAlias' }),
  RollbackStack: () => ({ StackName: 'every-stack' }),
  SetStackPolicy: () => ({
    StackName: 'every-stack',
    StackPolicyBody: '{"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"}]}',
  }),
  SetTypeConfiguration: () => ({
    Type: 'HOOK',
    TypeName: HOOK_TYPE,
    Configuration: '{"CloudFormationConfiguration":{}}',
  }),
  SetTypeDefaultVersion: () => ({ Type: 'RESOURCE', TypeName: PRIVATE_TYPE, VersionId: '00000001' }),
  SignalResource: () => ({ StackName: 'every-stack', LogicalResourceId: 'Topic', UniqueId: 'i-1', Status: 'SUCCESS' }),
  StartResourceScan: () => ({}),
  StopStackSetOperation: (f) => ({ StackSetName: 'every-set', OperationId: f.setOperationId }),
  TestType: () => ({ Type: 'RESOURCE', TypeName: PRIVATE_TYPE }),
  UpdateGeneratedTemplate: () => ({ GeneratedTemplateName: 'every-generated', RefreshAllResources: true }),
  UpdateStack: () => ({ StackName: 'every-stack', TemplateBody: CHANGED }),
  UpdateStackInstances: () => ({
    StackSetName: 'every-set',
    Accounts: [ADMIN],
    Regions: [REGION],
    ParameterOverrides: [],
  }),
  UpdateStackSet: () => ({ StackSetName: 'every-set', TemplateBody: SET_TEMPLATE.replace('Value: v', 'Value: w') }),
  UpdateTerminationProtection: () => ({ StackName: 'every-stack', EnableTerminationProtection: false }),
  ValidateTemplate: () => ({ TemplateBody: TEMPLATE }),
};

type CommandClass = new (input: Input) => Parameters<CloudFormationClient['send']>[0];

/** Every *Command the SDK exports, by its Action's name. */
const COMMANDS = new Map(
  Object.entries(sdk)
    .filter(([name, value]) => /^[A-Z]\w*Command$/.test(name) && typeof value === 'function')
    .map(([name, value]) => [name.slice(0, -'Command'.length), value as unknown as CommandClass]),
);

let server: TestServer;
let cfn: CloudFormationClient;
let fixture: Fixture;

async function stack(name: string, body = TEMPLATE): Promise<string> {
  const { StackId } = await cfn.send(new CreateStackCommand({ StackName: name, TemplateBody: body }));
  await waitForStack(cfn, StackId!);
  return StackId!;
}

async function changeSet(StackName: string, ChangeSetName: string, TemplateBody = CHANGED): Promise<string> {
  const { Id } = await cfn.send(new CreateChangeSetCommand({ StackName, ChangeSetName, TemplateBody }));
  for (;;) {
    const { Status } = await cfn.send(new DescribeChangeSetCommand({ ChangeSetName: Id }));
    if (Status !== 'CREATE_PENDING' && Status !== 'CREATE_IN_PROGRESS') return Id!;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function stackSet(name: string, regions: string[]): Promise<string | undefined> {
  await cfn.send(new CreateStackSetCommand({ StackSetName: name, TemplateBody: SET_TEMPLATE }));
  if (!regions.length) return undefined;
  const { OperationId } = await cfn.send(
    new CreateStackInstancesCommand({ StackSetName: name, Accounts: [ADMIN], Regions: regions }),
  );
  await waitForOperation(cfn, name, OperationId!);
  return OperationId!;
}

beforeAll(async () => {
  server = await startServer();
  cfn = clientFor(server, ADMIN, REGION);
  const stackId = await stack('every-stack');
  await stack('every-doomed', TEMPLATE.replace('every-export', 'every-export-doomed'));
  await stack('every-imported', TEMPLATE.replace('every-export', 'every-export-imported'));
  const changeSetId = await changeSet('every-stack', 'every-change');
  await changeSet('every-stack', 'every-doomed');
  await stack('every-executed', TEMPLATE.replace('every-export', 'every-export-executed'));
  await changeSet('every-executed', 'every-execute', CHANGED.replace('every-export', 'every-export-executed'));
  const setOperationId = (await stackSet('every-set', [REGION]))!;
  await stackSet('every-set-doomed', [REGION]);
  await stackSet('every-set-empty', []);
  await stackSet('every-set-import', []);
  const { StackDriftDetectionId } = await cfn.send(new DetectStackDriftCommand({ StackName: 'every-stack' }));
  const { ResourceScanId } = await cfn.send(new StartResourceScanCommand({}));
  for (const name of ['every-generated', 'every-generated-doomed'])
    await cfn.send(new CreateGeneratedTemplateCommand({ GeneratedTemplateName: name }));
  fixture = {
    stackId,
    changeSetId,
    setOperationId,
    driftDetectionId: StackDriftDetectionId!,
    resourceScanId: ResourceScanId!,
  };
}, 60_000);
afterAll(() => server.close());

describe('every Action of the SDK model', () => {
  it('STILL_NOT_SERVED is the list handlers/cloudformation/notImplemented.ts answers NotImplemented for', () => {
    expect([...STILL_NOT_SERVED].sort()).toEqual(Object.keys(NOT_SERVED).sort());
  });

  it('the SDK exports a *Command for every Action of the model, and no other', () => {
    expect([...COMMANDS.keys()].sort()).toEqual(Object.keys(INPUTS).sort());
  });

  // One after the other, in INPUTS's order; the calls that delete or stop something have fixtures of their own.
  it.each(Object.keys(INPUTS) as Action[])('%s with valid input answers as served', async (action) => {
    const Command = COMMANDS.get(action)!;
    const error = await cfn.send(new Command(INPUTS[action](fixture))).then(
      () => undefined,
      (err: unknown) => err as { name: string; message: string; $metadata?: { httpStatusCode?: number } },
    );
    if (STILL_NOT_SERVED.includes(action)) {
      expect(error?.name, `${action} is served now: take it out of STILL_NOT_SERVED`).toBe('NotImplemented');
      return;
    }
    if (error === undefined) return;
    expect(error.name, `${action}: ${error.message}`).not.toBe('NotImplemented');
    expect(error.$metadata?.httpStatusCode ?? 0, `${action}: ${error.name} ${error.message}`).toBeLessThan(500);
  });
});
