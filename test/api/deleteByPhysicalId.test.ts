// A delete never re-resolves the template: AWS deletes by physical id, so a stack whose `{{resolve:ssm:…}}`
// parameter (or secret) is gone still deletes, and no failure leaves a resource *_IN_PROGRESS without a reason.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/dynamic-references.html
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStackCommand, DeleteStackCommand, ListStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { eventLines } from '../helpers/events.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const owner = (name: string) =>
  `Resources:\n  Source:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Name: ${name}\n      Type: String\n      Value: secret-value\n`;
const reader = (name: string) => `
Resources:
  Reader:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: '{{resolve:ssm:${name}}}'
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: '{{resolve:ssm:${name}}}'
`;

async function run(send: Promise<{ StackId?: string }>, id?: string) {
  const { StackId } = await send;
  return waitForStack(server.client, (StackId ?? id)!);
}

async function removeSource(name: string) {
  const res = await fetch(`${server.endpoint}/_cfn-local/world/${encodeURIComponent(name)}?type=AWS::SSM::Parameter`, {
    method: 'DELETE',
  });
  expect(res.status).toBe(200);
}

describe("DeleteStack after a dynamic reference's parameter is gone", () => {
  it('deletes every resource by its physical id and reaches DELETE_COMPLETE', async () => {
    await run(server.client.send(new CreateStackCommand({ StackName: 'src1', TemplateBody: owner('/refs/one') })));
    const created = await run(
      server.client.send(new CreateStackCommand({ StackName: 'rd1', TemplateBody: reader('/refs/one') })),
    );
    expect(created.StackStatus).toBe('CREATE_COMPLETE');
    await removeSource('/refs/one');
    await server.client.send(new DeleteStackCommand({ StackName: 'rd1' }));
    const deleted = await waitForStack(server.client, created.StackId!);
    expect(deleted.StackStatus).toBe('DELETE_COMPLETE');
    const lines = await eventLines(server.client, created.StackId!);
    expect(lines.filter((l) => l.endsWith('DELETE_COMPLETE'))).toEqual(
      expect.arrayContaining(['Reader DELETE_COMPLETE', 'Topic DELETE_COMPLETE', 'rd1 DELETE_COMPLETE']),
    );
  });

  it("a reference built by Fn::Sub that does not resolve fails the resource with AWS's reason, nothing left in progress", async () => {
    const body = `
Parameters:
  Name:
    Type: String
    Default: /refs/never
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: !Sub '{{resolve:ssm:\${Name}}}'
`;
    const stack = await run(server.client.send(new CreateStackCommand({ StackName: 'rd2', TemplateBody: body })));
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const lines = await eventLines(server.client, stack.StackId!, true);
    expect(lines).toContain('Topic CREATE_FAILED: Parameters: [ssm:/refs/never] cannot be found.');
    const { StackResourceSummaries } = await server.client.send(
      new ListStackResourcesCommand({ StackName: stack.StackId! }),
    );
    expect(StackResourceSummaries!.filter((r) => r.ResourceStatus!.endsWith('_IN_PROGRESS'))).toEqual([]);
  });
});
