// --backend <url>, API Gateway's REST APIs: a RestApi, its Resource, Methods, a Deployment and a Stage made,
// changed, replaced and deleted in a moto_server this file starts; Ref and GetAtt are moto's ids (a stage's Ref its
// name), and the API is read through cfn-local's one endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStackCommand, DeleteStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  APIGatewayClient,
  DeleteRestApiCommand,
  GetDeploymentsCommand,
  GetMethodCommand,
  GetResourcesCommand,
  GetRestApiCommand,
  GetRestApisCommand,
  GetStageCommand,
  UpdateRestApiCommand,
} from '@aws-sdk/client-api-gateway';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { clientConfig, startMoto, type TestMoto } from '../helpers/moto.js';
import { eventsOf } from './worldHelpers.js';
import { providerFor } from '../../resources/registry.js';
import type { ResourceRequest, WorldAccess } from '../../resources/provider.js';

let moto: TestMoto;
let server: TestServer;
beforeAll(async () => {
  moto = await startMoto();
  server = await startServer({ backend: moto.url });
});
afterAll(async () => {
  await server.close();
  await moto.close();
});

// a loaded machine (other builds on the same 2 cores) takes seconds over a stack of a dozen backend calls
const WAIT_MS = 60_000;
const TEST_MS = 180_000;

async function createStack(s: TestServer, name: string, body: string) {
  const { StackId } = await s.client.send(new CreateStackCommand({ StackName: name, TemplateBody: body }));
  return { id: StackId!, stack: await waitForStack(s.client, StackId!, WAIT_MS) };
}

async function deleteStack(s: TestServer, id: string) {
  await s.client.send(new DeleteStackCommand({ StackName: id }));
  return waitForStack(s.client, id, WAIT_MS);
}

const ref = (logical: string) => ({ Ref: logical });
const att = (logical: string, attribute: string) => ({ 'Fn::GetAtt': [logical, attribute] });
const outputsOf = (outputs: { OutputKey?: string; OutputValue?: string }[] | undefined) =>
  Object.fromEntries((outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!]));

interface Version {
  description: string;
  /** The deployment's logical id: the CDK renames it when the API changes, so the stage moves to a new one. */
  deployment: string;
  greeting: string;
  variables: Record<string, string>;
}

const mockGet = (greeting: string) => ({
  Type: 'AWS::ApiGateway::Method',
  Properties: {
    RestApiId: ref('Api'),
    ResourceId: ref('Items'),
    HttpMethod: 'GET',
    AuthorizationType: 'NONE',
    MethodResponses: [{ StatusCode: '200' }],
    Integration: {
      Type: 'MOCK',
      RequestTemplates: { 'application/json': '{"statusCode": 200}' },
      IntegrationResponses: [{ StatusCode: '200', ResponseTemplates: { 'application/json': greeting } }],
    },
  },
});

const API_APP = (v: Version) =>
  JSON.stringify({
    Resources: {
      Api: {
        Type: 'AWS::ApiGateway::RestApi',
        Properties: { Name: 'orders-api', Description: v.description, Tags: [{ Key: 'app', Value: 'orders' }] },
      },
      Items: {
        Type: 'AWS::ApiGateway::Resource',
        Properties: { RestApiId: ref('Api'), ParentId: att('Api', 'RootResourceId'), PathPart: 'items' },
      },
      Get: mockGet(v.greeting),
      Post: {
        Type: 'AWS::ApiGateway::Method',
        Properties: {
          RestApiId: ref('Api'),
          ResourceId: ref('Items'),
          HttpMethod: 'POST',
          AuthorizationType: 'NONE',
          Integration: { Type: 'MOCK' },
        },
      },
      [v.deployment]: {
        Type: 'AWS::ApiGateway::Deployment',
        DependsOn: ['Get', 'Post'],
        Properties: { RestApiId: ref('Api'), Description: v.deployment },
      },
      Stage: {
        Type: 'AWS::ApiGateway::Stage',
        Properties: {
          RestApiId: ref('Api'),
          StageName: 'prod',
          DeploymentId: ref(v.deployment),
          Variables: v.variables,
          MethodSettings: [{ ResourcePath: '/*', HttpMethod: '*', MetricsEnabled: true }],
        },
      },
    },
    Outputs: Object.fromEntries(
      Object.entries({
        Api: ref('Api'),
        ApiId: att('Api', 'RestApiId'),
        Root: att('Api', 'RootResourceId'),
        Items: ref('Items'),
        ItemsId: att('Items', 'ResourceId'),
        Get: ref('Get'),
        Deployment: ref(v.deployment),
        DeploymentId: att(v.deployment, 'DeploymentId'),
        Stage: ref('Stage'),
      }).map(([k, value]) => [k, { Value: value }]),
    ),
  });

const FIRST: Version = { description: 'v1', deployment: 'DeploymentA', greeting: '{"hi": 1}', variables: { a: '1' } };
const SECOND: Version = { description: 'v2', deployment: 'DeploymentB', greeting: '{"hi": 2}', variables: { b: '2' } };

/** The world as the engine's providers see it, for the account and region of the tests (the real store). */
function worldOf(s: TestServer): WorldAccess {
  const w = s.app.store.world;
  const [account, region] = ['000000000000', 'us-east-1'];
  return {
    get: (type, id) => w.get(account, region, type, id),
    byName: (type, name) => w.byName(account, region, type, name),
    put: (r) => w.put(r),
    remove: (type, id) => w.remove(account, region, type, id),
    now: () => new Date().toISOString(),
    random: () => '',
  };
}

function readRequest(type: string, physicalId: string): ResourceRequest {
  return {
    account: '000000000000',
    region: 'us-east-1',
    partition: 'aws',
    urlSuffix: 'amazonaws.com',
    stackName: 'read',
    stackId: 'read',
    logicalId: 'Read',
    type,
    properties: {},
    physicalId,
    requestToken: 'read',
    env: { backend: server.app.backend } as ResourceRequest['env'],
  };
}

describe('API Gateway REST APIs in the backend', () => {
  it(
    "are made in moto with its ids, read through cfn-local's endpoint, changed, replaced and deleted",
    async () => {
      const { id, stack } = await createStack(server, 'orders', API_APP(FIRST));
      expect(stack.StackStatus).toBe('CREATE_COMPLETE');
      const out = outputsOf(stack.Outputs);
      const api = new APIGatewayClient(clientConfig(server.endpoint));

      // Ref is the API's id, RootResourceId its `/` resource; a resource's Ref its id; a stage's Ref its name
      expect(out.ApiId).toBe(out.Api);
      const { items } = await api.send(new GetResourcesCommand({ restApiId: out.Api }));
      expect(items!.find((r) => r.path === '/')!.id).toBe(out.Root);
      expect(items!.find((r) => r.path === '/items')!.id).toBe(out.Items);
      expect(out.ItemsId).toBe(out.Items);
      expect(out.Get).toBe(`${out.Api}|${out.Items}|GET`);
      expect(out.Stage).toBe('prod');
      expect(out.DeploymentId).toBe(out.Deployment);

      const made = await api.send(new GetRestApiCommand({ restApiId: out.Api }));
      expect(made).toMatchObject({ name: 'orders-api', description: 'v1', tags: { app: 'orders' } });
      const listed = await api.send(new GetRestApisCommand({}));
      expect(listed.items!.map((a) => a.id)).toContain(out.Api);
      const get = await api.send(
        new GetMethodCommand({ restApiId: out.Api, resourceId: out.Items, httpMethod: 'GET' }),
      );
      expect(get.methodIntegration!.type).toBe('MOCK');
      expect(get.methodIntegration!.integrationResponses!['200'].responseTemplates).toEqual({
        'application/json': '{"hi": 1}',
      });
      const stage = await api.send(new GetStageCommand({ restApiId: out.Api, stageName: 'prod' }));
      expect(stage).toMatchObject({ deploymentId: out.Deployment, variables: { a: '1' } });
      expect(stage.methodSettings!['*/*'].metricsEnabled).toBe(true);

      // the API's description and the method in place; a new deployment, which the stage moves to, and the old one
      // deleted once the stage no longer points at it
      await server.client.send(new UpdateStackCommand({ StackName: id, TemplateBody: API_APP(SECOND) }));
      const updated = await waitForStack(server.client, id, WAIT_MS);
      expect(updated.StackStatus).toBe('UPDATE_COMPLETE');
      const after = outputsOf(updated.Outputs);
      expect(after.Api).toBe(out.Api);
      expect(after.Deployment).not.toBe(out.Deployment);
      expect((await api.send(new GetRestApiCommand({ restApiId: out.Api }))).description).toBe('v2');
      const moved = await api.send(new GetStageCommand({ restApiId: out.Api, stageName: 'prod' }));
      expect(moved).toMatchObject({ deploymentId: after.Deployment, variables: { b: '2' } });
      const deployments = await api.send(new GetDeploymentsCommand({ restApiId: out.Api }));
      expect(deployments.items!.map((d) => d.id)).toEqual([after.Deployment]);
      const changed = await api.send(
        new GetMethodCommand({ restApiId: out.Api, resourceId: out.Items, httpMethod: 'GET' }),
      );
      expect(changed.methodIntegration!.integrationResponses!['200'].responseTemplates).toEqual({
        'application/json': '{"hi": 2}',
      });

      // the provider's read answers what the backend holds, changed out of band
      await new APIGatewayClient(clientConfig(moto.url)).send(
        new UpdateRestApiCommand({
          restApiId: out.Api,
          patchOperations: [{ op: 'replace', path: '/description', value: 'changed by hand' }],
        }),
      );
      const read = await providerFor('AWS::ApiGateway::RestApi').read!(
        worldOf(server),
        readRequest('AWS::ApiGateway::RestApi', out.Api),
      );
      expect(read).toMatchObject({ Name: 'orders-api', Description: 'changed by hand' });

      expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
      await expect(
        new APIGatewayClient(clientConfig(moto.url)).send(new GetRestApiCommand({ restApiId: out.Api })),
      ).rejects.toMatchObject({ name: 'NotFoundException' });
    },
    TEST_MS,
  );

  it(
    "a deployment's own stage goes with it; an API deleted out of band counts as deleted",
    async () => {
      const body = JSON.stringify({
        Resources: {
          Api: { Type: 'AWS::ApiGateway::RestApi', Properties: { Name: 'staged-api' } },
          Any: {
            Type: 'AWS::ApiGateway::Method',
            Properties: {
              RestApiId: ref('Api'),
              ResourceId: att('Api', 'RootResourceId'),
              HttpMethod: 'ANY',
              AuthorizationType: 'NONE',
              Integration: { Type: 'MOCK' },
            },
          },
          Deployment: {
            Type: 'AWS::ApiGateway::Deployment',
            DependsOn: 'Any',
            Properties: { RestApiId: ref('Api'), StageName: 'dev', StageDescription: { Description: 'the dev stage' } },
          },
        },
        Outputs: { Api: { Value: ref('Api') }, Deployment: { Value: ref('Deployment') } },
      });
      const { id, stack } = await createStack(server, 'staged', body);
      expect(stack.StackStatus).toBe('CREATE_COMPLETE');
      const apiId = outputsOf(stack.Outputs).Api;
      const m = new APIGatewayClient(clientConfig(moto.url));
      // the stage the deployment's StageName made points at it, and goes with it
      const dev = await m.send(new GetStageCommand({ restApiId: apiId, stageName: 'dev' }));
      expect(dev.deploymentId).toBe(outputsOf(stack.Outputs).Deployment);
      expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');
      await expect(m.send(new GetRestApiCommand({ restApiId: apiId }))).rejects.toMatchObject({
        name: 'NotFoundException',
      });

      // made again, then the API removed behind the stack's back: every resource of it is gone, and the delete succeeds
      const again = await createStack(server, 'staged-again', body);
      const gone = outputsOf(again.stack.Outputs).Api;
      await m.send(new DeleteRestApiCommand({ restApiId: gone }));
      expect((await deleteStack(server, again.id)).StackStatus).toBe('DELETE_COMPLETE');
      const statuses = (await eventsOf(server.client, again.id)).map((e) => e.ResourceStatus);
      expect(statuses).not.toContain('DELETE_FAILED');
    },
    TEST_MS,
  );

  it(
    'an OpenAPI Body is put into the API; a definition the backend refuses fails the create and leaves no API',
    async () => {
      const integration = {
        type: 'aws_proxy',
        httpMethod: 'POST',
        uri: 'arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/arn:aws:lambda:us-east-1:000000000000:function:f/invocations',
      };
      const definition = (version: Record<string, string>) => ({
        ...version,
        info: { title: 'from-body', version: '1' },
        paths: { '/hello': { get: { responses: {}, 'x-amazon-apigateway-integration': integration } } },
      });
      const app = (version: Record<string, string>) =>
        JSON.stringify({
          Resources: { Api: { Type: 'AWS::ApiGateway::RestApi', Properties: { Body: definition(version) } } },
          Outputs: { Api: { Value: ref('Api') } },
        });
      const { id, stack } = await createStack(server, 'openapi', app({ openapi: '3.0.1' }));
      expect(stack.StackStatus).toBe('CREATE_COMPLETE');
      const apiId = outputsOf(stack.Outputs).Api;
      const m = new APIGatewayClient(clientConfig(moto.url));
      expect((await m.send(new GetRestApiCommand({ restApiId: apiId }))).name).toBe('from-body');
      const { items } = await m.send(new GetResourcesCommand({ restApiId: apiId }));
      expect(items!.map((r) => r.path).sort()).toEqual(['/', '/hello']);
      expect((await deleteStack(server, id)).StackStatus).toBe('DELETE_COMPLETE');

      // moto 5.2 imports OpenAPI 3 only: its refusal is the resource's reason, and the API it made is deleted
      const refused = await createStack(server, 'swagger', app({ swagger: '2.0' }));
      expect(refused.stack.StackStatus).toBe('ROLLBACK_COMPLETE');
      const failed = (await eventsOf(server.client, refused.id)).find((e) => e.ResourceStatus === 'CREATE_FAILED');
      expect(failed!.ResourceStatusReason).toMatch(
        /^Resource handler returned message: "Only OpenAPI 3\.x\.x are currently supported \(Service: ApiGateway, Status Code: 400, Request ID: .*\)" \(RequestToken: .*, HandlerErrorCode: InvalidRequest\)$/,
      );
      const names = (await m.send(new GetRestApisCommand({}))).items!.map((a) => a.name);
      expect(names).not.toContain('from-body');
    },
    TEST_MS,
  );
});
