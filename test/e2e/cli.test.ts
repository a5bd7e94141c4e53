// Drives the README transcript with Debian's AWS CLI v2 against a live cfn-local: deploy, describe, update, delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DescribeChangeSetCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '../helpers/server.js';
import { awsCliAvailable, awsCloudFormation, gate, json, type RunResult } from './clients.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const TEMPLATE = readFileSync(`${FIXTURES}app.yaml`, 'utf8');
const DEV_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/000000000000/demo-dev-jobs';
const cli = gate('AWS CLI v2 transcript', await awsCliAvailable());

describe.skipIf(cli.skip)(cli.title, () => {
  let server: TestServer;
  const aws = (...args: string[]): Promise<RunResult> => awsCloudFormation(server.endpoint, args, FIXTURES);
  const outputsOf = (stack: any): Record<string, string> =>
    Object.fromEntries(stack.Outputs.map((o: any) => [o.OutputKey, o.OutputValue]));
  const describeDemo = async () => json(await aws('describe-stacks', '--stack-name', 'demo')).Stacks[0];
  // Checks that are not steps of the transcript go through the SDK: each CLI start costs about a second.
  const sdkDescribeDemo = async () =>
    (await server.client.send(new DescribeStacksCommand({ StackName: 'demo' }))).Stacks![0];
  let stackId = '';

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
  });

  it('deploy creates the stack through a change set and reports success', async () => {
    const result = await aws(
      'deploy',
      '--template-file',
      'app.yaml',
      '--stack-name',
      'demo',
      '--parameter-overrides',
      'Env=dev',
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Successfully created/updated stack - demo');
    // The id lets the concurrent CLI checks below compare ARNs without depending on each other.
    stackId = (await sdkDescribeDemo()).StackId!;
  });

  // Read-only calls after the first deploy run side by side: each CLI start costs about a second.
  describe.concurrent('after the first deploy', () => {
    it('describe-stacks shows CREATE_COMPLETE with the parameter and outputs resolved', async ({ expect }) => {
      const stack = await describeDemo();
      expect(stack.StackId).toBe(stackId);
      expect(stackId).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:stack\/demo\/[0-9a-f-]{36}$/);
      expect(stack.StackStatus).toBe('CREATE_COMPLETE');
      // Created through the CLI's change set: AWS shows its ChangeSetId and a LastUpdatedTime (LocalStack's cfn/api/test_stacks.py::test_stack_lifecycle snapshot).
      expect(stack.ChangeSetId).toMatch(
        /^arn:aws:cloudformation:us-east-1:000000000000:changeSet\/awscli-cloudformation-package-deploy-\d+\//,
      );
      expect(stack.LastUpdatedTime).toBeDefined();
      expect(stack.Parameters).toEqual([{ ParameterKey: 'Env', ParameterValue: 'dev' }]);
      expect(outputsOf(stack)).toEqual({
        QueueUrl: DEV_QUEUE_URL,
        QueueArn: 'arn:aws:sqs:us-east-1:000000000000:demo-dev-jobs',
        TopicArn: 'arn:aws:sns:us-east-1:000000000000:demo-dev-events',
      });
      expect(stack.Outputs.find((o: any) => o.OutputKey === 'QueueArn').ExportName).toBe('demo-QueueArn');
    });

    it('describe-stack-events lists stack and resource events newest first', async ({ expect }) => {
      const { StackEvents: events } = json(await aws('describe-stack-events', '--stack-name', 'demo'));
      const times = events.map((e: any) => Date.parse(e.Timestamp));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      const line = (e: any) => `${e.LogicalResourceId} ${e.ResourceStatus}`;
      expect(line(events[0])).toBe('demo CREATE_COMPLETE');
      // A create through a change set starts in REVIEW_IN_PROGRESS (LocalStack's cfn/api/test_stacks.py::test_list_events_after_deployment snapshot).
      expect(events.slice(-2).map(line)).toEqual(['demo CREATE_IN_PROGRESS', 'demo REVIEW_IN_PROGRESS']);
      expect(events[0]).toMatchObject({
        ResourceType: 'AWS::CloudFormation::Stack',
        PhysicalResourceId: stackId,
        StackName: 'demo',
      });
      for (const logicalId of ['Queue', 'Topic', 'QueueArnParameter']) {
        const mine = events.filter((e: any) => e.LogicalResourceId === logicalId).map((e: any) => e.ResourceStatus);
        expect(mine).toEqual(['CREATE_COMPLETE', 'CREATE_IN_PROGRESS', 'CREATE_IN_PROGRESS']);
      }
    });

    it('list-stack-resources lists every resource CREATE_COMPLETE with its physical id', async ({ expect }) => {
      const { StackResourceSummaries: summaries } = json(await aws('list-stack-resources', '--stack-name', 'demo'));
      const byId = Object.fromEntries(summaries.map((s: any) => [s.LogicalResourceId, s]));
      expect(Object.keys(byId).sort()).toEqual(['Queue', 'QueueArnParameter', 'Topic']);
      expect(byId.Queue).toMatchObject({
        ResourceType: 'AWS::SQS::Queue',
        PhysicalResourceId: DEV_QUEUE_URL,
        ResourceStatus: 'CREATE_COMPLETE',
      });
      expect(byId.Topic).toMatchObject({ ResourceType: 'AWS::SNS::Topic', ResourceStatus: 'CREATE_COMPLETE' });
      expect(byId.QueueArnParameter.PhysicalResourceId).toMatch(/^CFN-QueueArnParameter-[A-Za-z0-9]{12}$/);
    });

    it('get-template returns the YAML body byte-identical', async ({ expect }) => {
      const template = json(await aws('get-template', '--stack-name', 'demo'));
      expect(template.TemplateBody).toBe(TEMPLATE);
      expect(template.StagesAvailable).toEqual(['Original', 'Processed']);
    });

    it('create-stack with the same name fails with AlreadyExistsException', async ({ expect }) => {
      const result = await aws('create-stack', '--stack-name', 'demo', '--template-body', 'file://app.yaml');
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(
        'An error occurred (AlreadyExistsException) when calling the CreateStack operation: Stack [demo] already exists',
      );
    });
  });

  it('update-stack then wait stack-update-complete reaches UPDATE_COMPLETE with the prod queue in the outputs', async () => {
    const update = json(
      await aws(
        'update-stack',
        '--stack-name',
        'demo',
        '--template-body',
        'file://app.yaml',
        '--parameters',
        'ParameterKey=Env,ParameterValue=prod',
      ),
    );
    expect(update.StackId).toBe(stackId);
    const wait = await aws('wait', 'stack-update-complete', '--stack-name', 'demo');
    expect(wait).toMatchObject({ code: 0, stderr: '' });
    const stack = await sdkDescribeDemo();
    expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
    // After UpdateStack (not a change set) AWS shows no ChangeSetId (LocalStack's cfn/api/test_stacks.py::test_stack_lifecycle snapshot).
    expect(stack.ChangeSetId).toBeUndefined();
    expect(outputsOf(stack).QueueUrl).toBe('https://sqs.us-east-1.amazonaws.com/000000000000/demo-prod-jobs');
  });

  it('deploy with nothing changed prints "No changes to deploy" and exits 0', async () => {
    const result = await aws(
      'deploy',
      '--template-file',
      'app.yaml',
      '--stack-name',
      'demo',
      '--parameter-overrides',
      'Env=prod',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No changes to deploy. Stack demo is up to date');
  });

  it('deploy --no-execute-changeset leaves an AVAILABLE change set and the stack untouched', async () => {
    // The CLI names its change set awscli-cloudformation-package-deploy-<epoch second>. The deploy before left its
    // empty change set FAILED under that name, and a second create of the same name in the same second is refused
    // with AlreadyExistsException (exit 254), as AWS refuses it: start in the next second.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
    const result = await aws(
      'deploy',
      '--template-file',
      'app.yaml',
      '--stack-name',
      'demo',
      '--parameter-overrides',
      'Env=dev',
      '--no-execute-changeset',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Changeset created successfully.');
    const changeSetId = /describe-change-set --change-set-name (\S+)/.exec(result.stdout)?.[1];
    expect(changeSetId).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:changeSet\//);
    const changeSet = await server.client.send(new DescribeChangeSetCommand({ ChangeSetName: changeSetId }));
    expect(changeSet).toMatchObject({ Status: 'CREATE_COMPLETE', ExecutionStatus: 'AVAILABLE', StackId: stackId });
    const queue = changeSet.Changes!.find((c) => c.ResourceChange!.LogicalResourceId === 'Queue');
    expect(queue!.ResourceChange).toMatchObject({ Action: 'Modify', Replacement: 'True' });
    const stack = await sdkDescribeDemo();
    expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
    expect(stack.Parameters).toEqual([{ ParameterKey: 'Env', ParameterValue: 'prod' }]);
  });

  it('delete-stack then wait stack-delete-complete succeeds', async () => {
    expect(await aws('delete-stack', '--stack-name', 'demo')).toMatchObject({ code: 0, stdout: '' });
    expect(await aws('wait', 'stack-delete-complete', '--stack-name', 'demo')).toMatchObject({ code: 0, stderr: '' });
  });

  it('describe-stacks after delete fails with ValidationError "Stack with id demo does not exist"', async () => {
    const result = await aws('describe-stacks', '--stack-name', 'demo');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'An error occurred (ValidationError) when calling the DescribeStacks operation: Stack with id demo does not exist',
    );
  });
});
