// The lifecycle's controls: ClientRequestToken idempotency, racing calls, stack policies, exports and imports,
// termination protection, and the awsJson protocol on a live server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CloudFormationClient,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  GetStackPolicyCommand,
  ListExportsCommand,
  ListImportsCommand,
  SetStackPolicyCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
} from '@aws-sdk/client-cloudformation';
import { AwsJson1_0Protocol } from '@aws-sdk/core/protocols';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { ManualTimers } from '../helpers/timers.js';
import { awsErrorOf } from '../helpers/errors.js';
import { allEvents, eventLines } from '../helpers/events.js';

let server: TestServer;
// A DelayMs holds its resource until the test moves these timers.
const timers = new ManualTimers();
beforeAll(async () => {
  server = await startServer({ timers });
});
afterAll(() => server.close());

const param = (id: string, value: string) =>
  `  ${id}:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: ${value}\n`;

describe('ClientRequestToken', () => {
  it('a retried CreateStack with the same token returns the same stack; every event carries the token', async () => {
    const input = {
      StackName: 'token',
      TemplateBody: `Resources:\n${param('A', 'a')}`,
      ClientRequestToken: 'create-1',
    };
    const first = await server.client.send(new CreateStackCommand(input));
    const again = await server.client.send(new CreateStackCommand(input));
    expect(again.StackId).toBe(first.StackId);
    await waitForStack(server.client, first.StackId!);
    const events = await allEvents(server.client, 'token');
    expect(events.length).toBeGreaterThan(3);
    expect(events.every((e) => e.ClientRequestToken === 'create-1')).toBe(true);
  });

  it('a retried UpdateStack with its token starts nothing new; a token of another action is refused', async () => {
    const update = {
      StackName: 'token',
      TemplateBody: `Resources:\n${param('A', 'b')}`,
      ClientRequestToken: 'update-1',
    };
    await server.client.send(new UpdateStackCommand(update));
    await waitForStack(server.client, 'token');
    await server.client.send(new UpdateStackCommand(update));
    const lines = await eventLines(server.client, 'token');
    expect(lines.filter((l) => l === 'token UPDATE_IN_PROGRESS')).toHaveLength(1);
    expect(
      await awsErrorOf(
        server.client.send(new DeleteStackCommand({ StackName: 'token', ClientRequestToken: 'update-1' })),
      ),
    ).toMatchObject({
      code: 'TokenAlreadyExistsException',
    });
  });
});

describe('racing calls on one stack', () => {
  it('two concurrent updates never both start: the second gets AWS\'s "is in UPDATE_IN_PROGRESS state"', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'race', TemplateBody: `Resources:\n${param('A', 'a')}` }),
    );
    await waitForStack(server.client, StackId!);
    // each update is held by its DelayMs until the test moves time, so the two calls overlap
    const slow = (n: number) =>
      `Resources:\n  A:\n    Type: AWS::SSM::Parameter\n    Metadata:\n      cfn-local:\n        DelayMs: 200\n    Properties:\n      Type: String\n      Value: v${n}\n`;
    const results = await Promise.allSettled(
      [1, 2].map((n) => server.client.send(new UpdateStackCommand({ StackName: 'race', TemplateBody: slow(n) }))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as Error).message).toBe(
      `Stack:${StackId} is in UPDATE_IN_PROGRESS state and can not be updated.`,
    );
    await timers.armed(200);
    await timers.advance(200);
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
  });
});

describe('stack policies', () => {
  const policy = JSON.stringify({
    Statement: [
      { Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*' },
      { Effect: 'Deny', Action: 'Update:*', Principal: '*', Resource: 'LogicalResourceId/Locked' },
    ],
  });

  it('SetStackPolicy/GetStackPolicy round-trip; an update the policy denies fails and rolls back', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({
        StackName: 'policy',
        TemplateBody: `Resources:\n${param('Locked', 'a')}${param('Free', 'a')}`,
      }),
    );
    await waitForStack(server.client, StackId!);
    expect(
      (await server.client.send(new GetStackPolicyCommand({ StackName: 'policy' }))).StackPolicyBody,
    ).toBeUndefined();
    await server.client.send(new SetStackPolicyCommand({ StackName: 'policy', StackPolicyBody: policy }));
    expect((await server.client.send(new GetStackPolicyCommand({ StackName: 'policy' }))).StackPolicyBody).toBe(policy);
    await server.client.send(
      new UpdateStackCommand({
        StackName: 'policy',
        TemplateBody: `Resources:\n${param('Locked', 'b')}${param('Free', 'b')}`,
      }),
    );
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(await eventLines(server.client, 'policy', true)).toContain(
      'Locked UPDATE_FAILED: Action denied by stack policy',
    );
  });

  it('StackPolicyDuringUpdateBody overrides the policy for one update', async () => {
    const allowAll = JSON.stringify({
      Statement: [{ Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*' }],
    });
    await server.client.send(
      new UpdateStackCommand({
        StackName: 'policy',
        TemplateBody: `Resources:\n${param('Locked', 'c')}${param('Free', 'c')}`,
        StackPolicyDuringUpdateBody: allowAll,
      }),
    );
    expect((await waitForStack(server.client, 'policy')).StackStatus).toBe('UPDATE_COMPLETE');
    expect((await server.client.send(new GetStackPolicyCommand({ StackName: 'policy' }))).StackPolicyBody).toBe(policy);
  });

  it.each([
    [
      'both a body and a URL',
      { StackPolicyBody: '{}', StackPolicyURL: 'https://s3.amazonaws.com/b/k' },
      'You cannot specify both StackPolicyURL and StackPolicyBody',
    ],
    ['a body that is not JSON', { StackPolicyBody: 'nope' }, 'Error validating stack policy: Invalid stack policy'],
    [
      'an action that is not Update:*',
      {
        StackPolicyBody: JSON.stringify({
          Statement: [{ Effect: 'Deny', Action: 'Delete:*', Principal: '*', Resource: '*' }],
        }),
      },
      'Error validating stack policy: Invalid stack policy',
    ],
  ])('SetStackPolicy refuses %s', async (_name, input, message) => {
    expect(
      await awsErrorOf(server.client.send(new SetStackPolicyCommand({ StackName: 'policy', ...input }))),
    ).toMatchObject({ code: 'ValidationError', message });
  });
});

describe('exports and imports', () => {
  it('ListExports shows {ExportingStackId, Name, Value}; ListImports names the importing stacks', async () => {
    const exporter = await server.client.send(
      new CreateStackCommand({
        StackName: 'exp',
        TemplateBody: `Resources:\n${param('A', 'a')}Outputs:\n  Out:\n    Value: exported-value\n    Export:\n      Name: the-export\n`,
      }),
    );
    await waitForStack(server.client, exporter.StackId!);
    const importer = await server.client.send(
      new CreateStackCommand({
        StackName: 'imp',
        TemplateBody: `Resources:\n  B:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: !ImportValue the-export\n`,
      }),
    );
    await waitForStack(server.client, importer.StackId!);
    const { Exports } = await server.client.send(new ListExportsCommand({}));
    expect(Exports).toContainEqual({ ExportingStackId: exporter.StackId, Name: 'the-export', Value: 'exported-value' });
    expect((await server.client.send(new ListImportsCommand({ ExportName: 'the-export' }))).Imports).toEqual(['imp']);
    expect(
      await awsErrorOf(server.client.send(new ListImportsCommand({ ExportName: 'no-such-export' }))),
    ).toMatchObject({ code: 'ValidationError' });
  });
});

describe('termination protection', () => {
  it('is shown by DescribeStacks and flipped by UpdateTerminationProtection without changing the status', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'tp', TemplateBody: `Resources:\n${param('A', 'a')}` }),
    );
    await waitForStack(server.client, StackId!);
    await server.client.send(
      new UpdateTerminationProtectionCommand({ StackName: 'tp', EnableTerminationProtection: true }),
    );
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'tp' }));
    expect(Stacks![0]).toMatchObject({ EnableTerminationProtection: true, StackStatus: 'CREATE_COMPLETE' });
  });
});

describe('the awsJson 1.0 protocol', () => {
  it('a client configured for awsJson creates and describes a stack, and gets AWS errors', async () => {
    const json = new CloudFormationClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      protocol: AwsJson1_0Protocol as never,
    } as never);
    const { StackId } = await json.send(
      new CreateStackCommand({ StackName: 'json', TemplateBody: `Resources:\n${param('A', 'a')}` }),
    );
    expect((await waitForStack(json, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
    expect(await awsErrorOf(json.send(new DescribeStacksCommand({ StackName: 'json-missing' })))).toMatchObject({
      message: 'Stack with id json-missing does not exist',
    });
  });
});
