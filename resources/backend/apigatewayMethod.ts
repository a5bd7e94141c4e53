// API Gateway in the backend: AWS::ApiGateway::Method, with its integration, method responses and integration
// responses. A method has no id of its own: its physical id is `RestApiId|ResourceId|HttpMethod`, as Cloud
// Control's identifier, and an in-place update puts the method again.
import { apigateway, propertiesOf } from './apigateway.js';
import type { BackendCall, BackendOps } from './provider.js';
import { num, strings } from './values.js';

const { sdk, client } = apigateway;

type Obj = Record<string, unknown>;
type Flags = Record<string, boolean>;
type Texts = Record<string, string>;

/** A method's address in its API. */
interface Address {
  restApiId: string;
  resourceId: string;
  httpMethod: string;
}

const addressOf = (p: Obj): Address => ({
  restApiId: String(p.RestApiId),
  resourceId: String(p.ResourceId),
  httpMethod: String(p.HttpMethod),
});

/** `method.request.querystring.q: true` in the template may come as the text `'true'`. */
function flags(value: unknown): Flags | undefined {
  if (!value || typeof value !== 'object') return undefined;
  return Object.fromEntries(Object.entries(value as Obj).map(([k, v]) => [k, v === true || v === 'true']));
}

function texts(value: unknown): Texts | undefined {
  if (!value || typeof value !== 'object') return undefined;
  return Object.fromEntries(Object.entries(value as Obj).map(([k, v]) => [k, String(v)]));
}

const list = (value: unknown): Obj[] => (Array.isArray(value) ? (value as Obj[]) : []);

async function putMethod(call: BackendCall, at: Address): Promise<void> {
  const m = await sdk();
  const api = await client(call);
  const p = call.req.properties;
  await api.send(
    new m.PutMethodCommand({
      ...at,
      authorizationType: (p.AuthorizationType as string | undefined) ?? 'NONE',
      authorizerId: p.AuthorizerId as string | undefined,
      apiKeyRequired:
        p.ApiKeyRequired === undefined ? undefined : p.ApiKeyRequired === true || p.ApiKeyRequired === 'true',
      operationName: p.OperationName as string | undefined,
      requestParameters: flags(p.RequestParameters),
      requestModels: texts(p.RequestModels),
      requestValidatorId: p.RequestValidatorId as string | undefined,
      authorizationScopes: p.AuthorizationScopes ? strings(p.AuthorizationScopes) : undefined,
    }),
  );
  // a method response must exist before the integration response of its status code
  for (const r of list(p.MethodResponses)) {
    await api.send(
      new m.PutMethodResponseCommand({
        ...at,
        statusCode: String(r.StatusCode),
        responseParameters: flags(r.ResponseParameters),
        responseModels: texts(r.ResponseModels),
      }),
    );
  }
  const integration = p.Integration as Obj | undefined;
  if (!integration) return;
  await api.send(
    new m.PutIntegrationCommand({
      ...at,
      type: String(integration.Type) as 'AWS' | 'AWS_PROXY' | 'HTTP' | 'HTTP_PROXY' | 'MOCK',
      integrationHttpMethod: integration.IntegrationHttpMethod as string | undefined,
      uri: integration.Uri as string | undefined,
      credentials: integration.Credentials as string | undefined,
      requestParameters: texts(integration.RequestParameters),
      requestTemplates: texts(integration.RequestTemplates),
      passthroughBehavior: integration.PassthroughBehavior as string | undefined,
      cacheNamespace: integration.CacheNamespace as string | undefined,
      cacheKeyParameters: integration.CacheKeyParameters ? strings(integration.CacheKeyParameters) : undefined,
      contentHandling: integration.ContentHandling as 'CONVERT_TO_BINARY' | 'CONVERT_TO_TEXT' | undefined,
      timeoutInMillis: num(integration.TimeoutInMillis),
      connectionType: integration.ConnectionType as 'INTERNET' | 'VPC_LINK' | undefined,
      connectionId: integration.ConnectionId as string | undefined,
    }),
  );
  for (const r of list(integration.IntegrationResponses)) {
    await api.send(
      new m.PutIntegrationResponseCommand({
        ...at,
        statusCode: String(r.StatusCode),
        selectionPattern: r.SelectionPattern as string | undefined,
        responseParameters: texts(r.ResponseParameters),
        responseTemplates: texts(r.ResponseTemplates),
        contentHandling: r.ContentHandling as 'CONVERT_TO_BINARY' | 'CONVERT_TO_TEXT' | undefined,
      }),
    );
  }
}

async function deleteMethod(call: BackendCall, at: Address): Promise<void> {
  const m = await sdk();
  await (await client(call)).send(new m.DeleteMethodCommand(at));
}

export const API_METHOD: BackendOps = {
  service: 'ApiGateway',
  async create(call) {
    const at = addressOf(call.req.properties);
    await putMethod(call, at);
    return { physicalId: `${at.restApiId}|${at.resourceId}|${at.httpMethod}`, attributes: {} };
  },
  async update(call) {
    // the address is create-only (a change replaces the method): the same method, put again as the template says
    const at = addressOf(call.req.properties);
    await deleteMethod(call, at);
    await putMethod(call, at);
  },
  async delete(call) {
    await deleteMethod(call, addressOf(propertiesOf(call)));
  },
  async read(call) {
    const m = await sdk();
    const at = addressOf(propertiesOf(call));
    const got = await (await client(call)).send(new m.GetMethodCommand(at));
    const i = got.methodIntegration;
    return {
      RestApiId: at.restApiId,
      ResourceId: at.resourceId,
      HttpMethod: got.httpMethod,
      AuthorizationType: got.authorizationType,
      ApiKeyRequired: got.apiKeyRequired,
      MethodResponses: Object.values(got.methodResponses ?? {}).map((r) => ({ StatusCode: r.statusCode })),
      Integration: i
        ? {
            Type: i.type,
            IntegrationHttpMethod: i.httpMethod,
            Uri: i.uri,
            IntegrationResponses: Object.values(i.integrationResponses ?? {}).map((r) => ({
              StatusCode: r.statusCode,
            })),
          }
        : undefined,
    };
  },
};
