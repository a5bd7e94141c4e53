// AWS::Serverless::Application with a template URL: the SAM translator turns it into an AWS::CloudFormation::Stack,
// and the child (a SAM template itself) is a real nested stack whose own transform runs too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
  DeleteStackCommand,
  type Capability,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { samGate } from '../helpers/sam.js';
import { changeSet, deploy, execute, params } from './changeSetsHelpers.js';

const Bucket = 'sam-apps';
const CHILD = `Transform: AWS::Serverless-2016-10-31
Parameters:
  Greeting: { Type: String }
Resources:
  Greeter:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Handler: index.handler
      InlineCode: "def handler(event, context): return 'hi'"
      Environment: { Variables: { GREETING: !Ref Greeting } }
Outputs:
  FunctionName: { Value: !Ref Greeter }
  Greeting: { Value: !Ref Greeting }
`;
const parent = (location: unknown) => `Transform: AWS::Serverless-2016-10-31
Parameters:
  Greeting: { Type: String, Default: hello }
Resources:
  Greeter:
    Type: AWS::Serverless::Application
    Properties:
      Location: ${JSON.stringify(location)}
      Parameters: { Greeting: !Ref Greeting }
Outputs:
  ChildFunction: { Value: !GetAtt Greeter.Outputs.FunctionName }
  ChildGreeting: { Value: !GetAtt Greeter.Outputs.Greeting }
`;
const APP = parent(`https://${Bucket}.s3.amazonaws.com/apps/greeter.yaml`);
const CAPABILITIES = { Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_AUTO_EXPAND'] as Capability[] };
const gate = await samGate('AWS::Serverless::Application as a nested stack');

describe.skipIf(gate.skip)(gate.title, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    const s3 = s3Client(server.endpoint);
    await s3.send(new CreateBucketCommand({ Bucket }));
    await s3.send(new PutObjectCommand({ Bucket, Key: 'apps/greeter.yaml', Body: CHILD }));
  });
  afterAll(() => server.close());

  const childOf = async (stackName: string) => {
    const { StackResourceSummaries } = await server.client.send(
      new ListStackResourcesCommand({ StackName: stackName }),
    );
    const app = StackResourceSummaries!.find((r) => r.LogicalResourceId === 'Greeter')!;
    const [child] = (await server.client.send(new DescribeStacksCommand({ StackName: app.PhysicalResourceId })))
      .Stacks!;
    return { app, child };
  };

  it('deploys the application as a nested stack whose SAM template is transformed in turn', async () => {
    const { stack } = await deploy(server.client, 'sam-parent', APP, { ...CAPABILITIES });
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const { app, child } = await childOf('sam-parent');
    expect(app.ResourceType).toBe('AWS::CloudFormation::Stack');
    expect(child.StackStatus).toBe('CREATE_COMPLETE');
    expect(child.ParentId).toBe(stack.StackId);
    expect(child.StackName).toMatch(/^sam-parent-Greeter-[A-Z0-9]{13}$/);
    const { StackResourceSummaries: generated } = await server.client.send(
      new ListStackResourcesCommand({ StackName: child.StackId }),
    );
    expect(generated!.map((r) => `${r.LogicalResourceId} ${r.ResourceType}`).sort()).toEqual([
      'Greeter AWS::Lambda::Function',
      'GreeterRole AWS::IAM::Role',
    ]);
    const outputs = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey, o.OutputValue]));
    expect(outputs.ChildGreeting).toBe('hello');
    expect(outputs.ChildFunction).toBe(generated!.find((r) => r.LogicalResourceId === 'Greeter')!.PhysicalResourceId);
    const processed = await server.client.send(
      new GetTemplateCommand({ StackName: child.StackId, TemplateStage: 'Processed' }),
    );
    expect(JSON.parse(processed.TemplateBody!).Resources.Greeter.Type).toBe('AWS::Lambda::Function');
  });

  it('an update of the parent updates the child through its transform', async () => {
    const { id, stackId } = await changeSet(server.client, 'sam-parent', APP, {
      ...CAPABILITIES,
      Parameters: params({ Greeting: 'hey' }),
    });
    const stack = await execute(server.client, id, stackId);
    expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
    expect(stack.Outputs!.find((o) => o.OutputKey === 'ChildGreeting')!.OutputValue).toBe('hey');
    const { child } = await childOf('sam-parent');
    expect(child.StackStatus).toBe('UPDATE_COMPLETE');
  });

  it('a child with a transform needs CAPABILITY_AUTO_EXPAND, in the embedded stack failure', async () => {
    const { stack } = await deploy(server.client, 'sam-no-expand', APP, { Capabilities: ['CAPABILITY_IAM'] });
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: stack.StackId }));
    const failed = StackEvents!.find((e) => e.LogicalResourceId === 'Greeter' && e.ResourceStatus === 'CREATE_FAILED');
    expect(failed?.ResourceStatusReason).toBe('Requires capabilities : [CAPABILITY_AUTO_EXPAND]');
  });

  it('a child template whose transform fails fails the parent resource with the translator message', async () => {
    const s3 = s3Client(server.endpoint);
    const broken = CHILD.replace(/ +InlineCode:.*\n/, '');
    await s3.send(new PutObjectCommand({ Bucket, Key: 'apps/broken.yaml', Body: broken }));
    const { stack } = await deploy(
      server.client,
      'sam-broken',
      parent(`https://${Bucket}.s3.amazonaws.com/apps/broken.yaml`),
      {
        ...CAPABILITIES,
      },
    );
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: stack.StackId }));
    const failed = StackEvents!.find((e) => e.LogicalResourceId === 'Greeter' && e.ResourceStatus === 'CREATE_FAILED');
    expect(failed?.ResourceStatusReason).toContain('Transform AWS::Serverless-2016-10-31 failed with:');
    expect(failed?.ResourceStatusReason).toContain("Only one of 'InlineCode' or 'CodeUri' can be set.");
  });

  it('deleting the parent deletes the application stack', async () => {
    const { child } = await childOf('sam-parent');
    await server.client.send(new DeleteStackCommand({ StackName: 'sam-parent' }));
    const deleted = await waitForStack(server.client, child.StackId!);
    expect(deleted.StackStatus).toBe('DELETE_COMPLETE');
  });

  it('an application from the Serverless Application Repository fails the change set, naming the fix', async () => {
    const sar = {
      ApplicationId: 'arn:aws:serverlessrepo:us-east-1:123456789012:applications/x',
      SemanticVersion: '1.0.0',
    };
    const { described } = await changeSet(server.client, 'sam-sar', parent(sar), {
      ...CAPABILITIES,
      ChangeSetType: 'CREATE',
    });
    expect(described.Status).toBe('FAILED');
    expect(described.StatusReason).toContain('Transform AWS::Serverless-2016-10-31 failed with:');
    expect(described.StatusReason).toContain('give its Location as a template URL');
  });
});
