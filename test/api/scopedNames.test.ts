// A name unique only within its parent is the physical id and the Ref, as AWS shows both: an AWS::ApiGateway::Stage's
// `Prod`, an AWS::Route53::RecordSet's domain name. Two APIs' `Prod` stages and an A and an AAAA record of one name
// coexist in one account, are updated in place and deleted with their stacks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackResourcesCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const API_WITH_STAGE = (description: string) => `Resources:
  Api:
    Type: AWS::ApiGateway::RestApi
    Properties: { Name: api }
  Deployment:
    Type: AWS::ApiGateway::Deployment
    Properties: { RestApiId: !Ref Api }
  Stage:
    Type: AWS::ApiGateway::Stage
    Properties: { RestApiId: !Ref Api, DeploymentId: !Ref Deployment, StageName: Prod, Description: ${description} }
Outputs:
  Stage: { Value: !Ref Stage }
`;

async function resources(stack: string) {
  const { StackResources } = await server.client.send(new DescribeStackResourcesCommand({ StackName: stack }));
  return Object.fromEntries(StackResources!.map((r) => [r.LogicalResourceId, r.PhysicalResourceId]));
}

async function settle(stackId: string, status: string) {
  const stack = await waitForStack(server.client, stackId);
  expect(stack.StackStatus, stack.StackStatusReason).toBe(status);
  return stack;
}

describe('names unique within their parent', () => {
  it("a stage's physical id is its name, which two APIs of one account both use", async () => {
    const ids: string[] = [];
    for (const name of ['shop', 'blog']) {
      const { StackId } = await server.client.send(
        new CreateStackCommand({ StackName: name, TemplateBody: API_WITH_STAGE('v1') }),
      );
      const stack = await settle(StackId!, 'CREATE_COMPLETE');
      expect(stack.Outputs).toEqual([expect.objectContaining({ OutputKey: 'Stage', OutputValue: 'Prod' })]);
      expect((await resources(name)).Stage).toBe('Prod');
      ids.push(StackId!);
    }
    await server.client.send(new UpdateStackCommand({ StackName: 'shop', TemplateBody: API_WITH_STAGE('v2') }));
    await settle(ids[0]!, 'UPDATE_COMPLETE');
    expect((await resources('shop')).Stage).toBe('Prod');
    for (const id of ids) {
      await server.client.send(new DeleteStackCommand({ StackName: id }));
      await settle(id, 'DELETE_COMPLETE');
    }
    // both stages left the account: the same stacks deploy again
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'shop', TemplateBody: API_WITH_STAGE('v3') }),
    );
    await settle(StackId!, 'CREATE_COMPLETE');
  });

  it("a record set's physical id is its name, for an A and an AAAA record of that name", async () => {
    const record = (type: string, value: string) =>
      `{ Type: AWS::Route53::RecordSet, Properties: { HostedZoneName: example.org., Name: api.example.org., Type: ${type}, TTL: "60", ResourceRecords: ["${value}"] } }`;
    const body = `Resources:\n  A4: ${record('A', '192.0.2.1')}\n  A6: ${record('AAAA', '2001:db8::1')}\n`;
    const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'dns-ids', TemplateBody: body }));
    await settle(StackId!, 'CREATE_COMPLETE');
    expect(await resources('dns-ids')).toEqual({ A4: 'api.example.org.', A6: 'api.example.org.' });
    await server.client.send(new DeleteStackCommand({ StackName: StackId }));
    await settle(StackId!, 'DELETE_COMPLETE');
  });
});
