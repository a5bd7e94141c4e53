// API Gateway (REST APIs) in the backend: AWS::ApiGateway::RestApi (with an OpenAPI Body) and
// AWS::ApiGateway::Resource. Methods are in apigatewayMethod.ts, deployments and stages in apigatewayStage.ts.
import { parse as parseYaml } from 'yaml';
import { family, ignoringMissing } from './family.js';
import type { BackendCall, BackendOps } from './provider.js';
import { jsonText, num, strings, tagMap } from './values.js';
import { rowOf } from '../worldRows.js';

export const apigateway = family('apigateway', (m) => m.APIGatewayClient);
const { sdk, client } = apigateway;

type Obj = Record<string, unknown>;

const isTrue = (v: unknown) => v === true || v === 'true';

/** One JSON-patch operation of API Gateway's Update* calls. */
export interface PatchOperation {
  op: 'replace' | 'add' | 'remove';
  path: string;
  value?: string;
}

/** A replace of `path` when the value changed, a remove when it is gone (API Gateway's patch operations). */
export function changed(path: string, now: unknown, before: unknown): PatchOperation[] {
  if (JSON.stringify(now) === JSON.stringify(before)) return [];
  if (now === undefined || now === null) return [{ op: 'replace', path, value: '' }];
  return [{ op: 'replace', path, value: typeof now === 'object' ? JSON.stringify(now) : String(now) }];
}

/** A key in a patch path: `/` is written `~1` and `~` `~0` (JSON Pointer). */
export const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The properties of the resource as the stack last wrote them: a delete's request may carry none. */
export const propertiesOf = (call: BackendCall): Obj =>
  rowOf(call.world, { ...call.req, physicalId: call.physicalId })?.properties ?? call.req.properties;

/** The API's name when the template gives none: the definition's `info.title`, as API Gateway's import takes it. */
function titleOf(body: unknown): string | undefined {
  try {
    const doc = (typeof body === 'string' ? parseYaml(body) : body) as { info?: { title?: unknown } } | undefined;
    return typeof doc?.info?.title === 'string' ? doc.info.title : undefined;
  } catch {
    return undefined;
  }
}

async function putBody(call: BackendCall, id: string): Promise<void> {
  const p = call.req.properties;
  // the OpenAPI definition, given as an object or as its JSON or YAML text
  const text = jsonText(p.Body);
  if (text === undefined) return;
  const m = await sdk();
  await (
    await client(call)
  ).send(
    new m.PutRestApiCommand({
      restApiId: id,
      mode: (p.Mode as 'merge' | 'overwrite' | undefined) ?? 'overwrite',
      failOnWarnings: isTrue(p.FailOnWarnings),
      parameters: p.Parameters as Record<string, string> | undefined,
      body: new TextEncoder().encode(text),
    }),
  );
}

async function rootResourceId(call: BackendCall, id: string): Promise<string | undefined> {
  const m = await sdk();
  const got = await (await client(call)).send(new m.GetResourcesCommand({ restApiId: id, limit: 500 }));
  return got.items?.find((r) => r.path === '/')?.id;
}

const endpointTypes = (p: Obj) => strings((p.EndpointConfiguration as Obj | undefined)?.Types);

export const REST_API: BackendOps = {
  service: 'ApiGateway',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const endpoint = p.EndpointConfiguration as Obj | undefined;
    const api = await client(call);
    const made = await api.send(
      new m.CreateRestApiCommand({
        name: (p.Name as string | undefined) ?? titleOf(p.Body) ?? call.name,
        description: p.Description as string | undefined,
        version: p.Version as string | undefined,
        binaryMediaTypes: p.BinaryMediaTypes ? strings(p.BinaryMediaTypes) : undefined,
        minimumCompressionSize: num(p.MinimumCompressionSize),
        apiKeySource: p.ApiKeySourceType as 'HEADER' | 'AUTHORIZER' | undefined,
        endpointConfiguration: endpoint
          ? {
              types: endpointTypes(p) as ('EDGE' | 'REGIONAL' | 'PRIVATE')[],
              vpcEndpointIds: endpoint.VpcEndpointIds ? strings(endpoint.VpcEndpointIds) : undefined,
            }
          : undefined,
        policy: jsonText(p.Policy),
        disableExecuteApiEndpoint:
          p.DisableExecuteApiEndpoint === undefined ? undefined : isTrue(p.DisableExecuteApiEndpoint),
        cloneFrom: p.CloneFrom as string | undefined,
        tags: tagMap(p.Tags),
      }),
    );
    const id = made.id!;
    try {
      await putBody(call, id);
    } catch (err) {
      // a definition the backend refuses leaves no API behind, as CloudFormation's failed create leaves none
      await ignoringMissing(() => api.send(new m.DeleteRestApiCommand({ restApiId: id })));
      throw err;
    }
    const root = made.rootResourceId ?? (await rootResourceId(call, id));
    return { physicalId: id, attributes: { RestApiId: id, ...(root ? { RootResourceId: root } : {}) } };
  },
  async update(call) {
    const m = await sdk();
    const p = call.req.properties;
    const before = call.req.previousProperties ?? {};
    const ops: PatchOperation[] = [
      ...changed('/name', p.Name, before.Name),
      ...changed('/description', p.Description, before.Description),
      ...changed('/apiKeySource', p.ApiKeySourceType, before.ApiKeySourceType),
      ...changed('/minimumCompressionSize', p.MinimumCompressionSize, before.MinimumCompressionSize),
      ...changed('/disableExecuteApiEndpoint', p.DisableExecuteApiEndpoint, before.DisableExecuteApiEndpoint),
      ...(jsonText(p.Policy) === jsonText(before.Policy)
        ? []
        : [{ op: 'replace' as const, path: '/policy', value: jsonText(p.Policy) ?? '' }]),
      ...binaryMediaTypes(strings(p.BinaryMediaTypes), strings(before.BinaryMediaTypes)),
    ];
    if (ops.length > 0)
      await (await client(call)).send(new m.UpdateRestApiCommand({ restApiId: call.physicalId, patchOperations: ops }));
    if (jsonText(p.Body) !== jsonText(before.Body)) await putBody(call, call.physicalId);
  },
  async delete(call) {
    const m = await sdk();
    const api = await client(call);
    // moto 5.2 answers a DeleteRestApi of an unknown id with a 500, its GetRestApi with API Gateway's NotFound
    await api.send(new m.GetRestApiCommand({ restApiId: call.physicalId }));
    await api.send(new m.DeleteRestApiCommand({ restApiId: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const api = await (await client(call)).send(new m.GetRestApiCommand({ restApiId: call.physicalId }));
    return {
      Name: api.name,
      Description: api.description || undefined,
      ApiKeySourceType: api.apiKeySource,
      BinaryMediaTypes: api.binaryMediaTypes?.length ? api.binaryMediaTypes : undefined,
      MinimumCompressionSize: api.minimumCompressionSize,
      EndpointConfiguration: api.endpointConfiguration?.types ? { Types: api.endpointConfiguration.types } : undefined,
      DisableExecuteApiEndpoint: api.disableExecuteApiEndpoint,
      Policy: api.policy ? parsePolicy(api.policy) : undefined,
      Tags: api.tags ? Object.entries(api.tags).map(([Key, Value]) => ({ Key, Value })) : undefined,
    };
  },
};

/** API Gateway answers a policy as JSON text, escaped once more. */
function parsePolicy(text: string): unknown {
  try {
    const once = JSON.parse(text.includes('\\"') ? `"${text}"` : text) as unknown;
    return typeof once === 'string' ? JSON.parse(once) : once;
  } catch {
    return text;
  }
}

function binaryMediaTypes(now: string[], before: string[]): PatchOperation[] {
  return [
    ...now
      .filter((t) => !before.includes(t))
      .map((t) => ({ op: 'add' as const, path: `/binaryMediaTypes/${pointer(t)}`, value: t })),
    ...before
      .filter((t) => !now.includes(t))
      .map((t) => ({ op: 'remove' as const, path: `/binaryMediaTypes/${pointer(t)}`, value: t })),
  ];
}

export const API_RESOURCE: BackendOps = {
  service: 'ApiGateway',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const made = await (
      await client(call)
    ).send(
      new m.CreateResourceCommand({
        restApiId: String(p.RestApiId),
        parentId: String(p.ParentId),
        pathPart: String(p.PathPart),
      }),
    );
    return { physicalId: made.id!, attributes: { ResourceId: made.id } };
  },
  async delete(call) {
    const m = await sdk();
    const restApiId = String(propertiesOf(call).RestApiId);
    await (await client(call)).send(new m.DeleteResourceCommand({ restApiId, resourceId: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const restApiId = String(propertiesOf(call).RestApiId);
    const got = await (await client(call)).send(new m.GetResourceCommand({ restApiId, resourceId: call.physicalId }));
    return { RestApiId: restApiId, ParentId: got.parentId, PathPart: got.pathPart };
  },
};
