// API Gateway in the backend: AWS::ApiGateway::Deployment (with the stage its StageName makes) and
// AWS::ApiGateway::Stage (variables, method settings, access logs, tracing, caching). A stage's physical id and Ref
// are its name; the account keeps it under `<api id>|<name>` (worldIdOf), since a name is unique only in its API.
import { apigateway, changed, pointer, propertiesOf, type PatchOperation } from './apigateway.js';
import { ignoringMissing } from './family.js';
import type { BackendCall, BackendOps } from './provider.js';
import { tagMap } from './values.js';

const { sdk, client } = apigateway;

type Obj = Record<string, unknown>;

const isTrue = (v: unknown) => v === true || v === 'true';
const bool = (v: unknown) => (v === undefined ? undefined : isTrue(v));

function variables(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== 'object') return undefined;
  return Object.fromEntries(Object.entries(value as Obj).map(([k, v]) => [k, String(v)]));
}

/** CloudFormation's method setting properties → the paths of UpdateStage's patch operations. */
const METHOD_SETTINGS: Readonly<Record<string, string>> = {
  MetricsEnabled: 'metrics/enabled',
  LoggingLevel: 'logging/loglevel',
  DataTraceEnabled: 'logging/dataTrace',
  ThrottlingBurstLimit: 'throttling/burstLimit',
  ThrottlingRateLimit: 'throttling/rateLimit',
  CachingEnabled: 'caching/enabled',
  CacheTtlInSeconds: 'caching/ttlInSeconds',
  CacheDataEncrypted: 'caching/dataEncrypted',
};

/** `ResourcePath: /items/{id}`, `HttpMethod: GET` → `/~1items~1{id}/GET/…`; `/*` stays `*`, as the API names it. */
function methodSettings(settings: unknown): PatchOperation[] {
  const out: PatchOperation[] = [];
  for (const s of Array.isArray(settings) ? (settings as Obj[]) : []) {
    const resource = String(s.ResourcePath ?? '/*');
    const at = `/${resource === '/*' ? '*' : pointer(resource)}/${String(s.HttpMethod ?? '*')}`;
    for (const [property, path] of Object.entries(METHOD_SETTINGS)) {
      if (s[property] !== undefined) out.push({ op: 'replace', path: `${at}/${path}`, value: String(s[property]) });
    }
  }
  return out;
}

function accessLog(now: unknown, before: unknown): PatchOperation[] {
  const n = (now ?? {}) as Obj;
  const b = (before ?? {}) as Obj;
  if (JSON.stringify(n) === JSON.stringify(b)) return [];
  if (!n.DestinationArn) return b.DestinationArn ? [{ op: 'remove', path: '/accessLogSettings' }] : [];
  return [
    { op: 'replace', path: '/accessLogSettings/destinationArn', value: String(n.DestinationArn) },
    ...(n.Format ? [{ op: 'replace' as const, path: '/accessLogSettings/format', value: String(n.Format) }] : []),
  ];
}

function variableChanges(now: unknown, before: unknown): PatchOperation[] {
  const n = variables(now) ?? {};
  const b = variables(before) ?? {};
  return [
    ...Object.entries(n)
      .filter(([k, v]) => b[k] !== v)
      .map(([k, v]) => ({ op: 'replace' as const, path: `/variables/${pointer(k)}`, value: v })),
    ...Object.keys(b)
      .filter((k) => !(k in n))
      .map((k) => ({ op: 'remove' as const, path: `/variables/${pointer(k)}` })),
  ];
}

async function updateStage(call: BackendCall, restApiId: string, stageName: string, ops: PatchOperation[]) {
  if (ops.length === 0) return;
  const m = await sdk();
  await (await client(call)).send(new m.UpdateStageCommand({ restApiId, stageName, patchOperations: ops }));
}

const stageNameOf = (call: BackendCall, p: Obj) => (p.StageName as string | undefined) ?? call.name;

export const API_STAGE: BackendOps = {
  service: 'ApiGateway',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const restApiId = String(p.RestApiId);
    const stageName = stageNameOf(call, p);
    await (
      await client(call)
    ).send(
      new m.CreateStageCommand({
        restApiId,
        stageName,
        deploymentId: String(p.DeploymentId),
        description: p.Description as string | undefined,
        cacheClusterEnabled: bool(p.CacheClusterEnabled),
        cacheClusterSize: p.CacheClusterSize as never,
        variables: variables(p.Variables),
        tracingEnabled: bool(p.TracingEnabled),
        documentationVersion: p.DocumentationVersion as string | undefined,
        tags: tagMap(p.Tags),
      }),
    );
    await updateStage(call, restApiId, stageName, [
      ...methodSettings(p.MethodSettings),
      ...accessLog(p.AccessLogSetting, undefined),
    ]);
    return { physicalId: call.physicalId, attributes: {} };
  },
  async update(call) {
    const p = call.req.properties;
    const before = call.req.previousProperties ?? {};
    await updateStage(call, String(p.RestApiId), stageNameOf(call, p), [
      ...changed('/deploymentId', p.DeploymentId, before.DeploymentId),
      ...changed('/description', p.Description, before.Description),
      ...changed('/tracingEnabled', p.TracingEnabled, before.TracingEnabled),
      ...changed('/cacheClusterEnabled', p.CacheClusterEnabled, before.CacheClusterEnabled),
      ...changed('/cacheClusterSize', p.CacheClusterSize, before.CacheClusterSize),
      ...variableChanges(p.Variables, before.Variables),
      ...(JSON.stringify(p.MethodSettings) === JSON.stringify(before.MethodSettings)
        ? []
        : methodSettings(p.MethodSettings)),
      ...accessLog(p.AccessLogSetting, before.AccessLogSetting),
    ]);
  },
  async delete(call) {
    const m = await sdk();
    const p = propertiesOf(call);
    await (
      await client(call)
    ).send(new m.DeleteStageCommand({ restApiId: String(p.RestApiId), stageName: stageNameOf(call, p) }));
  },
  async read(call) {
    const m = await sdk();
    const p = propertiesOf(call);
    const s = await (
      await client(call)
    ).send(new m.GetStageCommand({ restApiId: String(p.RestApiId), stageName: stageNameOf(call, p) }));
    return {
      RestApiId: String(p.RestApiId),
      StageName: s.stageName,
      DeploymentId: s.deploymentId,
      Description: s.description || undefined,
      Variables: s.variables && Object.keys(s.variables).length > 0 ? s.variables : undefined,
      TracingEnabled: s.tracingEnabled,
      CacheClusterEnabled: s.cacheClusterEnabled,
    };
  },
};

/**
 * The deployment, found in its API's list: moto 5.2 answers a GetDeployment of an unknown id with a 500, where
 * API Gateway answers NotFoundException; the list is the same on both.
 */
async function deploymentOf(call: BackendCall, restApiId: string) {
  const m = await sdk();
  const api = await client(call);
  let position: string | undefined;
  do {
    const page = await api.send(new m.GetDeploymentsCommand({ restApiId, position, limit: 500 }));
    const found = page.items?.find((d) => d.id === call.physicalId);
    if (found) return found;
    position = page.position;
  } while (position);
  return undefined;
}

export const API_DEPLOYMENT: BackendOps = {
  service: 'ApiGateway',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const stage = (p.StageDescription ?? {}) as Obj;
    const made = await (
      await client(call)
    ).send(
      new m.CreateDeploymentCommand({
        restApiId: String(p.RestApiId),
        description: p.Description as string | undefined,
        stageName: p.StageName as string | undefined,
        stageDescription: p.StageName ? (stage.Description as string | undefined) : undefined,
        cacheClusterEnabled: p.StageName ? bool(stage.CacheClusterEnabled) : undefined,
        cacheClusterSize: p.StageName ? (stage.CacheClusterSize as never) : undefined,
        variables: p.StageName ? variables(stage.Variables) : undefined,
        tracingEnabled: p.StageName ? bool(stage.TracingEnabled) : undefined,
      }),
    );
    return { physicalId: made.id!, attributes: { DeploymentId: made.id } };
  },
  async delete(call) {
    const m = await sdk();
    const p = propertiesOf(call);
    const restApiId = String(p.RestApiId);
    const api = await client(call);
    // the stage the deployment made (StageName) goes with it while it still points at it, as CloudFormation's
    // handler does; a stage of the template that points at it is deleted before it (it depends on it)
    if (p.StageName) {
      const stageName = String(p.StageName);
      await ignoringMissing(async () => {
        const stage = await api.send(new m.GetStageCommand({ restApiId, stageName }));
        if (stage.deploymentId === call.physicalId) await api.send(new m.DeleteStageCommand({ restApiId, stageName }));
      });
    }
    if (!(await deploymentOf(call, restApiId))) return;
    await api.send(new m.DeleteDeploymentCommand({ restApiId, deploymentId: call.physicalId }));
  },
  async read(call) {
    const restApiId = String(propertiesOf(call).RestApiId);
    const got = await deploymentOf(call, restApiId);
    return got ? { RestApiId: restApiId, Description: got.description || undefined } : undefined;
  },
};
