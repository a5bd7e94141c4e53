// Error messages repeat a caller's value at most MAX_ECHO characters (domain/errors.ts, echo): a multi-megabyte value
// of the wrong type, pattern or enum, or an unknown multi-megabyte name, comes back as a short AWS-shaped error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
  SignalResourceCommand,
} from '@aws-sdk/client-cloudformation';
import { MAX_ECHO } from '../../domain/errors.js';
import { MAX_LISTED_PROBLEMS } from '../../domain/serviceErrors.js';
import { awsErrorOf } from '../helpers/errors.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const HUGE = 'x'.repeat(3 * 1024 * 1024);
const CUT = `${'x'.repeat(MAX_ECHO)}...`;
const TEMPLATE = 'Resources:\n  A:\n    Type: AWS::SQS::Queue\n';

describe('through the SDK', () => {
  it('cuts an unknown stack name in "does not exist"', async () => {
    const err = await awsErrorOf(server.client.send(new DescribeStacksCommand({ StackName: HUGE })));
    expect(err).toEqual({ code: 'ValidationError', message: `Stack with id ${CUT} does not exist`, status: 400 });
  });

  it('cuts an unknown logical id in SignalResource', async () => {
    await server.client.send(new CreateStackCommand({ StackName: 'echo-signal', TemplateBody: TEMPLATE }));
    const send = server.client.send(
      new SignalResourceCommand({
        StackName: 'echo-signal',
        LogicalResourceId: HUGE,
        UniqueId: 'i-1',
        Status: 'SUCCESS',
      }),
    );
    expect((await awsErrorOf(send)).message).toBe(`Resource ${CUT} does not exist for stack echo-signal`);
  });

  it('cuts a value outside its enum value set', async () => {
    const send = server.client.send(
      new CreateChangeSetCommand({
        StackName: 'echo-enum',
        ChangeSetName: 'cs',
        ChangeSetType: HUGE as 'CREATE',
        TemplateBody: TEMPLATE,
      }),
    );
    expect(await awsErrorOf(send)).toEqual({
      code: 'ValidationError',
      message: `1 validation error detected: Value '${CUT}' at 'changeSetType' failed to satisfy constraint: Member must satisfy enum value set: [UPDATE, IMPORT, CREATE]`,
      status: 400,
    });
  });

  it('cuts a value outside its enum in GetTemplate', async () => {
    const err = await awsErrorOf(
      server.client.send(new GetTemplateCommand({ StackName: 'any', TemplateStage: HUGE as 'Original' })),
    );
    expect(err.message).toBe(
      `1 validation error detected: Value '${CUT}' at 'templateStage' failed to satisfy constraint: Member must satisfy enum value set: [Original, Processed]`,
    );
  });

  it('cuts an undeclared parameter key', async () => {
    const send = server.client.send(
      new CreateStackCommand({
        StackName: 'echo-parameter',
        TemplateBody: TEMPLATE,
        Parameters: [{ ParameterKey: HUGE, ParameterValue: 'v' }],
      }),
    );
    expect(await awsErrorOf(send)).toEqual({
      code: 'ValidationError',
      message: `Parameters: [${CUT}] do not exist in the template`,
      status: 400,
    });
  });
});

describe('as raw HTTP', () => {
  async function send(body: string, headers: Record<string, string>) {
    const res = await fetch(server.endpoint, { method: 'POST', body, headers });
    return { status: res.status, text: await res.text() };
  }

  it('cuts a form value of the wrong type and keeps the XML envelope', async () => {
    const res = await send(`Action=CreateStack&Version=2010-05-15&StackName=s&TimeoutInMinutes=${HUGE}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(400);
    expect(res.text.length).toBeLessThan(MAX_ECHO + 1024);
    expect(res.text).toContain(
      `<Type>Sender</Type><Code>ValidationError</Code><Message>1 validation error detected: Value &apos;${CUT}&apos; at &apos;timeoutInMinutes&apos; failed to satisfy constraint: Member must be a number</Message>`,
    );
  });

  it('cuts a JSON value of the wrong type and keeps the JSON envelope', async () => {
    const res = await send(JSON.stringify({ StackName: 's', TimeoutInMinutes: HUGE }), {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'CloudFormation.CreateStack',
    });
    expect(res.status).toBe(400);
    expect(res.text.length).toBeLessThan(MAX_ECHO + 1024);
    expect(JSON.parse(res.text).message).toBe(
      `1 validation error detected: Value '"${'x'.repeat(MAX_ECHO - 1)}...' at 'timeoutInMinutes' failed to satisfy constraint: Member must be a number`,
    );
  });

  it('lists at most MAX_LISTED_PROBLEMS problems of a long list, with the true count', async () => {
    const res = await send(JSON.stringify({ StackName: 's', Parameters: Array(200_000).fill(1) }), {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'CloudFormation.CreateStack',
    });
    expect(res.status).toBe(400);
    const message: string = JSON.parse(res.text).message;
    expect(message).toMatch(/^200000 validation errors detected: Value '1' at 'parameters\.1\.member' failed/);
    expect(message.split('; ')).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(
      message.endsWith("Value '1' at 'parameters.100.member' failed to satisfy constraint: Member must be a structure"),
    ).toBe(true);
  });

  it('cuts an unknown stack name in ListChangeSets', async () => {
    const res = await send(`Action=ListChangeSets&Version=2010-05-15&StackName=${HUGE}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain(`<Message>Stack [${CUT}] does not exist</Message>`);
  });
});
