// Runs boto3_transcript.py (Debian's python3-boto3) against a live cfn-local and asserts on the JSON it prints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '../helpers/server.js';
import { PYTHON, boto3Available, gate, run } from './clients.js';

const SCRIPT = fileURLToPath(new URL('./boto3_transcript.py', import.meta.url));
const TEMPLATE = fileURLToPath(new URL('./fixtures/app.yaml', import.meta.url));
const boto3 = gate('boto3 transcript', await boto3Available());

describe.skipIf(boto3.skip)(boto3.title, () => {
  let server: TestServer;
  let seen: any;

  beforeAll(async () => {
    server = await startServer();
    const result = await run(PYTHON, [SCRIPT, server.endpoint, TEMPLATE]);
    if (result.code !== 0) throw new Error(`boto3_transcript.py exited ${result.code}:\n${result.stderr}`);
    seen = JSON.parse(result.stdout);
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
  });

  it('create_stack returns the stack ARN and the stack_create_complete waiter succeeds', () => {
    expect(seen.create.StackId).toMatch(
      /^arn:aws:cloudformation:us-east-1:000000000000:stack\/demo-boto3\/[0-9a-f-]{36}$/,
    );
    expect(seen.describe.StackStatus).toBe('CREATE_COMPLETE');
  });

  it('describe_stacks parses timestamps and shows parameters and resolved outputs', () => {
    expect(seen.describe.CreationTimeIsDatetime).toBe(true);
    expect(seen.describe.Parameters).toEqual([{ ParameterKey: 'Env', ParameterValue: 'dev' }]);
    expect(seen.describe.Outputs).toEqual({
      QueueUrl: 'https://sqs.us-east-1.amazonaws.com/000000000000/demo-boto3-dev-jobs',
      QueueArn: 'arn:aws:sqs:us-east-1:000000000000:demo-boto3-dev-jobs',
      TopicArn: 'arn:aws:sns:us-east-1:000000000000:demo-boto3-dev-events',
    });
  });

  it('describe_stack_events lists stack and resource events newest first', () => {
    const events: { LogicalResourceId: string; ResourceStatus: string; ResourceType: string; Timestamp: string }[] =
      seen.events;
    const times = events.map((e) => Date.parse(e.Timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(events[0]).toMatchObject({
      LogicalResourceId: 'demo-boto3',
      ResourceStatus: 'CREATE_COMPLETE',
      ResourceType: 'AWS::CloudFormation::Stack',
    });
    // CreateStack (no change set): the first event is CREATE_IN_PROGRESS, with no REVIEW_IN_PROGRESS (LocalStack's cfn/api/test_stacks.py::test_list_events_after_deployment snapshot).
    expect(events.at(-1)).toMatchObject({ LogicalResourceId: 'demo-boto3', ResourceStatus: 'CREATE_IN_PROGRESS' });
    expect(events.filter((e) => e.LogicalResourceId === 'Queue').map((e) => e.ResourceStatus)).toEqual([
      'CREATE_COMPLETE',
      'CREATE_IN_PROGRESS',
      'CREATE_IN_PROGRESS',
    ]);
  });

  it('get_template returns the YAML body as submitted', () => {
    expect(seen.templateIdentical).toBe(true);
  });

  it('update_stack and the stack_update_complete waiter reach UPDATE_COMPLETE with new outputs', () => {
    expect(seen.update.StackStatus).toBe('UPDATE_COMPLETE');
    expect(seen.update.Outputs.QueueUrl).toBe('https://sqs.us-east-1.amazonaws.com/000000000000/demo-boto3-prod-jobs');
  });

  it('a duplicate create_stack raises AlreadyExistsException "Stack [demo-boto3] already exists"', () => {
    expect(seen.duplicate).toEqual({
      Code: 'AlreadyExistsException',
      Message: 'Stack [demo-boto3] already exists',
      HTTPStatusCode: 400,
    });
  });

  it('after delete and the stack_delete_complete waiter, describe_stacks raises ValidationError', () => {
    expect(seen.notFound).toEqual({
      Code: 'ValidationError',
      Message: 'Stack with id demo-boto3 does not exist',
      HTTPStatusCode: 400,
    });
  });
});
