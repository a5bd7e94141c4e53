// Step Functions executions of a stack's state machines run in cfn-local, their Lambda tasks in its runtime: Retry
// and Catch over the functions' own errors, the lambda:invoke integration, StopExecution, and AWS's refusals.
// docs/lambda-runtime.md, "Step Functions"
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateStackCommand, DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import {
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  ListExecutionsCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
  type DescribeExecutionCommandOutput,
} from '@aws-sdk/client-sfn';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';

let server: TestServer;
let sfn: SFNClient;
let machines: Record<string, string>;
const counter = join(mkdtempSync(join(tmpdir(), 'cfn-local-sfn-')), 'count');

const fn = (name: string, code: string) => `
  ${name}:
    Type: AWS::Lambda::Function
    Properties:
      Runtime: nodejs20.x
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Environment: { Variables: { COUNTER: ${counter} } }
      Code:
        ZipFile: |
          ${code}`;

const TEMPLATE = `Resources:
${fn(
  'NotYet',
  "const fs = require('fs'); class NotYet extends Error { constructor(m) { super(m); this.name = 'NotYet'; } } exports.handler = async (event) => { const n = (fs.existsSync(process.env.COUNTER) ? Number(fs.readFileSync(process.env.COUNTER, 'utf8')) : 0) + 1; fs.writeFileSync(process.env.COUNTER, String(n)); if (n < 3) throw new NotYet('attempt ' + n); return { attempts: n }; };",
)}
${fn('Doubler', 'exports.handler = async (event) => ({ doubled: event.value * 2 });')}
${fn('Refuses', "exports.handler = async () => { throw new RangeError('no way'); };")}
  Flow:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      RoleArn: arn:aws:iam::000000000000:role/states
      DefinitionString: !Sub |
        {"StartAt": "Ready", "States": {
          "Ready": {"Type": "Task", "Resource": "\${NotYet.Arn}", "ResultPath": "$.ready", "Next": "Double",
            "Retry": [{"ErrorEquals": ["NotYet"], "IntervalSeconds": 1, "MaxAttempts": 4, "BackoffRate": 1}]},
          "Double": {"Type": "Task", "Resource": "arn:aws:states:::lambda:invoke",
            "Parameters": {"FunctionName": "\${Doubler.Arn}", "Payload": {"value.$": "$.value"}},
            "ResultSelector": {"doubled.$": "$.Payload.doubled", "status.$": "$.StatusCode"},
            "ResultPath": "$.double", "End": true}}}
  Caught:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      RoleArn: arn:aws:iam::000000000000:role/states
      Definition:
        StartAt: Try
        States:
          Try: { Type: Task, Resource: '\${refuses}', Catch: [{ ErrorEquals: [RangeError], ResultPath: $.err, Next: Report }], Next: Report }
          Report: { Type: Pass, End: true }
      DefinitionSubstitutions: { refuses: !GetAtt Refuses.Arn }
  Uncaught:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      RoleArn: arn:aws:iam::000000000000:role/states
      DefinitionString: !Sub '{"StartAt": "Try", "States": {"Try": {"Type": "Task", "Resource": "\${Refuses.Arn}", "End": true}}}'
  Fans:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      RoleArn: arn:aws:iam::000000000000:role/states
      DefinitionString: !Sub |
        {"StartAt": "Each", "States": {"Each": {"Type": "Map", "ItemsPath": "$.items", "End": true,
          "ItemProcessor": {"StartAt": "Double", "States": {
            "Double": {"Type": "Task", "Resource": "\${Doubler.Arn}", "End": true}}}}}}
  Waits:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      RoleArn: arn:aws:iam::000000000000:role/states
      DefinitionString: '{"StartAt": "Long", "States": {"Long": {"Type": "Wait", "Seconds": 600, "End": true}}}'
`;

/** DescribeExecution until the execution has ended. */
async function ended(executionArn: string): Promise<DescribeExecutionCommandOutput> {
  for (;;) {
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    if (described.status !== 'RUNNING') return described;
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  server = await startServer();
  sfn = new SFNClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'flows', TemplateBody: TEMPLATE }));
  const stack = await waitForStack(server.client, StackId!);
  expect(stack.StackStatus).toBe('CREATE_COMPLETE');
  const { StackResources } = await server.client.send(new DescribeStackResourcesCommand({ StackName: 'flows' }));
  machines = Object.fromEntries(
    StackResources!
      .filter((r) => r.ResourceType === 'AWS::StepFunctions::StateMachine')
      .map((r) => [r.LogicalResourceId!, r.PhysicalResourceId!]),
  );
});
afterAll(async () => {
  await server.close();
});

describe('Step Functions executions', () => {
  it("retries a function's own error until it succeeds, then runs the lambda:invoke integration", async () => {
    expect(machines.Flow).toMatch(/^arn:aws:states:us-east-1:000000000000:stateMachine:/);
    const started = await sfn.send(
      new StartExecutionCommand({ stateMachineArn: machines.Flow, name: 'run-1', input: '{"value": 21}' }),
    );
    expect(started.executionArn).toBe(`${machines.Flow.replace(':stateMachine:', ':execution:')}:run-1`);
    const done = await ended(started.executionArn!);
    expect(done).toMatchObject({ status: 'SUCCEEDED', name: 'run-1', stateMachineArn: machines.Flow });
    expect(JSON.parse(done.output!)).toEqual({
      value: 21,
      ready: { attempts: 3 },
      double: { doubled: 42, status: 200 },
    });
    expect(readFileSync(counter, 'utf8')).toBe('3');
    expect(done.stopDate!.getTime()).toBeGreaterThanOrEqual(done.startDate!.getTime());
  });

  it('a caught error reaches the next state as Step Functions reports it: Error and the error document as Cause', async () => {
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: machines.Caught }));
    const done = await ended(executionArn!);
    expect(done.status).toBe('SUCCEEDED');
    const err = JSON.parse(done.output!).err;
    expect(err.Error).toBe('RangeError');
    expect(JSON.parse(err.Cause)).toMatchObject({ errorType: 'RangeError', errorMessage: 'no way' });
  });

  it('an uncaught function error fails the execution with its error and cause', async () => {
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: machines.Uncaught }));
    const done = await ended(executionArn!);
    expect(done).toMatchObject({ status: 'FAILED', error: 'RangeError' });
    expect(JSON.parse(done.cause!)).toMatchObject({ errorType: 'RangeError', errorMessage: 'no way' });
    expect(done.output).toBeUndefined();
  });

  it("a Map state's iterations run their Lambda task each", async () => {
    const { executionArn } = await sfn.send(
      new StartExecutionCommand({
        stateMachineArn: machines.Fans,
        input: JSON.stringify({ items: [{ value: 1 }, { value: 2 }, { value: 3 }] }),
      }),
    );
    const done = await ended(executionArn!);
    expect(done.status).toBe('SUCCEEDED');
    expect(JSON.parse(done.output!)).toEqual([{ doubled: 2 }, { doubled: 4 }, { doubled: 6 }]);
  });

  it('StopExecution aborts a running execution; ListExecutions lists it', async () => {
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: machines.Waits, name: 'w' }));
    expect((await sfn.send(new DescribeExecutionCommand({ executionArn }))).status).toBe('RUNNING');
    await sfn.send(new StopExecutionCommand({ executionArn, error: 'Bored', cause: 'waited enough' }));
    expect(await sfn.send(new DescribeExecutionCommand({ executionArn }))).toMatchObject({
      status: 'ABORTED',
      error: 'Bored',
      cause: 'waited enough',
    });
    const listed = await sfn.send(new ListExecutionsCommand({ stateMachineArn: machines.Waits }));
    expect(listed.executions!.map((e) => [e.name, e.status])).toEqual([['w', 'ABORTED']]);
  });

  it('DescribeStateMachine shows the definition with its substitutions filled in', async () => {
    const described = await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: machines.Caught }));
    expect(described.status).toBe('ACTIVE');
    expect(JSON.parse(described.definition!).States.Try.Resource).toMatch(
      /^arn:aws:lambda:us-east-1:000000000000:function:/,
    );
  });

  it('refuses as Step Functions does: an unknown machine or execution, a taken name, input that is not JSON', async () => {
    const unknown = 'arn:aws:states:us-east-1:000000000000:stateMachine:nope';
    expect(await awsErrorOf(sfn.send(new StartExecutionCommand({ stateMachineArn: unknown })))).toEqual({
      code: 'StateMachineDoesNotExist',
      message: `State Machine Does Not Exist: '${unknown}'`,
      status: 400,
    });
    const missing = 'arn:aws:states:us-east-1:000000000000:execution:nope:x';
    expect(await awsErrorOf(sfn.send(new DescribeExecutionCommand({ executionArn: missing })))).toEqual({
      code: 'ExecutionDoesNotExist',
      message: `Execution Does Not Exist: '${missing}'`,
      status: 400,
    });
    expect(
      (await awsErrorOf(sfn.send(new StartExecutionCommand({ stateMachineArn: machines.Waits, input: '{nope' })))).code,
    ).toBe('InvalidExecutionInput');
    expect(
      await awsErrorOf(sfn.send(new StartExecutionCommand({ stateMachineArn: machines.Uncaught, name: 'run 1' }))),
    ).toMatchObject({ code: 'InvalidName', message: "Invalid Name: 'run 1'" });
    const again = await sfn.send(new StartExecutionCommand({ stateMachineArn: machines.Waits, name: 'twice' }));
    // the same name and input while running is the same execution; other input is refused
    expect(
      (await sfn.send(new StartExecutionCommand({ stateMachineArn: machines.Waits, name: 'twice' }))).executionArn,
    ).toBe(again.executionArn);
    expect(
      await awsErrorOf(
        sfn.send(new StartExecutionCommand({ stateMachineArn: machines.Waits, name: 'twice', input: '{"a":1}' })),
      ),
    ).toMatchObject({ code: 'ExecutionAlreadyExists', message: `Execution Already Exists: '${again.executionArn}'` });
    await sfn.send(new StopExecutionCommand({ executionArn: again.executionArn }));
  });
});
