// The SAM transform through AWS's translator, driven with the AWS SDK: change sets and stacks of a SAM app, AWS's
// translator errors, GetTemplate's stages, GetTemplateSummary and the capability rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CreateStackCommand,
  DescribeStackEventsCommand,
  type Capability,
  GetTemplateCommand,
  GetTemplateSummaryCommand,
  ListStackResourcesCommand,
  UpdateStackCommand,
  ValidateTemplateCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';
import { samGate } from '../helpers/sam.js';
import { changeSet, deploy } from './changeSetsHelpers.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/sam/', import.meta.url));
const APP = readFileSync(`${FIXTURES}app.yaml`, 'utf8');
const INVALID = readFileSync(`${FIXTURES}invalid.yaml`, 'utf8');
const SAM_ERROR =
  'Transform AWS::Serverless-2016-10-31 failed with: Invalid Serverless Application Specification document. ' +
  "Number of errors found: 1. Resource with id [Broken] is invalid. Only one of 'InlineCode' or 'CodeUri' can be set.";
const gate = await samGate('SAM transform');

describe.skipIf(gate.skip)(gate.title, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('CreateChangeSet shows the resources the translator generates, and executes to CREATE_COMPLETE', async () => {
    const { described, stack } = await deploy(server.client, 'sam-app', APP, { Capabilities: ['CAPABILITY_IAM'] });
    expect(described.Status).toBe('CREATE_COMPLETE');
    const changes = described
      .Changes!.map((c) => `${c.ResourceChange!.LogicalResourceId} ${c.ResourceChange!.ResourceType}`)
      .sort();
    expect(changes).toEqual(
      expect.arrayContaining([
        'HelloFunction AWS::Lambda::Function',
        'HelloFunctionRole AWS::IAM::Role',
        'Items AWS::DynamoDB::Table',
        'ServerlessRestApi AWS::ApiGateway::RestApi',
        'ServerlessRestApiProdStage AWS::ApiGateway::Stage',
        'HelloFunctionHelloPermissionProd AWS::Lambda::Permission',
      ]),
    );
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const { StackResourceSummaries: resources } = await server.client.send(
      new ListStackResourcesCommand({ StackName: 'sam-app' }),
    );
    expect(resources!.every((r) => r.ResourceStatus === 'CREATE_COMPLETE')).toBe(true);
    expect(resources!.find((r) => r.LogicalResourceId === 'Items')!.ResourceType).toBe('AWS::DynamoDB::Table');
    expect(stack.Outputs!.find((o) => o.OutputKey === 'ApiUrl')!.OutputValue).toMatch(
      /^https:\/\/\w+\.execute-api\.us-east-1\.amazonaws\.com\/Prod\/hello$/,
    );
  });

  it('GetTemplate returns the SAM template as written (Original) and the translator output as JSON (Processed)', async () => {
    const original = await server.client.send(new GetTemplateCommand({ StackName: 'sam-app' }));
    expect(original.TemplateBody).toBe(APP);
    expect(original.StagesAvailable).toEqual(['Original', 'Processed']);
    const processed = await server.client.send(
      new GetTemplateCommand({ StackName: 'sam-app', TemplateStage: 'Processed' }),
    );
    const doc = JSON.parse(processed.TemplateBody!);
    expect(doc.Transform).toBeUndefined();
    expect(doc.Globals).toBeUndefined();
    expect(doc.Resources.HelloFunction.Type).toBe('AWS::Lambda::Function');
    expect(doc.Resources.HelloFunction.Properties.Runtime).toBe('python3.12');
  });

  it('GetTemplate of a change set returns both stages too', async () => {
    const { id } = await changeSet(server.client, 'sam-app', APP, {
      Capabilities: ['CAPABILITY_IAM'],
      Parameters: [{ ParameterKey: 'Greeting', ParameterValue: 'hey' }],
    });
    const original = await server.client.send(new GetTemplateCommand({ ChangeSetName: id }));
    expect(original.TemplateBody).toBe(APP);
    const processed = await server.client.send(
      new GetTemplateCommand({ ChangeSetName: id, TemplateStage: 'Processed' }),
    );
    expect(JSON.parse(processed.TemplateBody!).Resources.Items.Type).toBe('AWS::DynamoDB::Table');
  });

  it('UpdateStack needs CAPABILITY_AUTO_EXPAND and updates the generated resources', async () => {
    const update = (Capabilities: Capability[]) =>
      server.client.send(
        new UpdateStackCommand({
          StackName: 'sam-app',
          TemplateBody: APP,
          Capabilities,
          Parameters: [{ ParameterKey: 'Greeting', ParameterValue: 'hey' }],
        }),
      );
    const err = await awsErrorOf(update(['CAPABILITY_IAM']));
    expect(err.message).toBe('Requires capabilities : [CAPABILITY_AUTO_EXPAND]');
    const { StackId } = await update(['CAPABILITY_IAM', 'CAPABILITY_AUTO_EXPAND']);
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
  });

  it("a SAM template whose translation fails makes a FAILED change set with the translator's reason", async () => {
    const { described } = await changeSet(server.client, 'sam-invalid', INVALID, { ChangeSetType: 'CREATE' });
    expect(described.Status).toBe('FAILED');
    expect(described.ExecutionStatus).toBe('UNAVAILABLE');
    expect(described.StatusReason).toBe(SAM_ERROR);
    expect(described.Changes).toEqual([]);
  });

  it('CreateStack of that template is accepted and rolls back with the reason', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({
        StackName: 'sam-invalid-stack',
        TemplateBody: INVALID,
        Capabilities: ['CAPABILITY_AUTO_EXPAND'],
      }),
    );
    const stack = await waitForStack(server.client, StackId!);
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: StackId }));
    const rollback = StackEvents!.find((e) => e.ResourceStatus === 'ROLLBACK_IN_PROGRESS')!;
    expect(rollback.ResourceStatusReason).toBe(`${SAM_ERROR}. Rollback requested by user.`);
  });

  it('CreateStack requires CAPABILITY_AUTO_EXPAND (and the generated role CAPABILITY_IAM)', async () => {
    const err = await awsErrorOf(
      server.client.send(new CreateStackCommand({ StackName: 'sam-caps', TemplateBody: APP })),
    );
    expect(err).toEqual({
      code: 'InsufficientCapabilitiesException',
      status: 400,
      message: 'Requires capabilities : [CAPABILITY_IAM, CAPABILITY_AUTO_EXPAND]',
    });
    const { StackId } = await server.client.send(
      new CreateStackCommand({
        StackName: 'sam-caps',
        TemplateBody: APP,
        Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_AUTO_EXPAND'],
      }),
    );
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
  });

  it('GetTemplateSummary and ValidateTemplate describe the template as written, asking for CAPABILITY_AUTO_EXPAND', async () => {
    const summary = await server.client.send(new GetTemplateSummaryCommand({ TemplateBody: APP }));
    expect(summary.DeclaredTransforms).toEqual(['AWS::Serverless-2016-10-31']);
    expect(summary.Capabilities).toEqual(['CAPABILITY_AUTO_EXPAND']);
    expect(summary.CapabilitiesReason).toBe(
      'The following transform(s) require capabilities: [AWS::Serverless-2016-10-31]',
    );
    expect(summary.ResourceTypes).toEqual(['AWS::Serverless::Function', 'AWS::Serverless::SimpleTable']);
    const validated = await server.client.send(new ValidateTemplateCommand({ TemplateBody: APP }));
    expect(validated.DeclaredTransforms).toEqual(['AWS::Serverless-2016-10-31']);
    expect(validated.Parameters!.map((p) => p.ParameterKey)).toEqual(['Greeting']);
  });
});
