// `{{resolve:ssm:name:version}}` reads the value of that version of an SSM parameter: every change of an
// AWS::SSM::Parameter's value is a new version, as PutParameter makes one.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/dynamic-references-ssm.html
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CreateStackCommand, DescribeStacksCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const parameter = (value: string) =>
  `Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Name: /app/setting\n      Type: String\n      Value: ${value}\n`;
const reader = (ref: string) =>
  `Resources:\n  R:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: '{{resolve:ssm:${ref}}}'\nOutputs:\n  Seen:\n    Value: !GetAtt R.Value\n`;

it('resolves each version of a parameter, the latest without a version, and refuses a version that does not exist', async () => {
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: 'owner', TemplateBody: parameter('first') }),
  );
  await waitForStack(server.client, StackId!);
  await server.client.send(new UpdateStackCommand({ StackName: 'owner', TemplateBody: parameter('second') }));
  expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
  const seen: Record<string, string | undefined> = {};
  for (const [name, ref] of [
    ['v1', '/app/setting:1'],
    ['v2', '/app/setting:2'],
    ['latest', '/app/setting'],
  ]) {
    const created = await server.client.send(
      new CreateStackCommand({ StackName: `reader-${name}`, TemplateBody: reader(ref) }),
    );
    await waitForStack(server.client, created.StackId!);
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: `reader-${name}` }));
    seen[name] = Stacks![0].Outputs?.[0]?.OutputValue;
  }
  expect(seen).toEqual({ v1: 'first', v2: 'second', latest: 'second' });
  expect(
    await awsErrorOf(
      server.client.send(new CreateStackCommand({ StackName: 'reader-v3', TemplateBody: reader('/app/setting:3') })),
    ),
  ).toMatchObject({
    code: 'ValidationError',
    message: 'Parameters: [ssm:/app/setting:3] cannot be found.',
  });
});
