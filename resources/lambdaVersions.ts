// AWS::Lambda::Version and AWS::Lambda::Alias. Publishing a version, as Lambda's PublishVersion does, is a snapshot: the version gets the
// next number and keeps the function's code and configuration as they were, so that Invoke with its Qualifier runs
// that code after the function has changed (handlers/lambda/versions.ts qualifiedCode reads the snapshot). An
// alias's Ref and AliasArn are its ARN, `…:function:<name>:<alias>`.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-lambda-version.html
import { randomUUID } from 'node:crypto';
import { genericProvider } from './genericProvider.js';
import type { Provider, ProviderResult, ResourceRequest, WorldAccess } from './provider.js';
import { FUNCTION_TYPE, configurationOf, splitFunctionName } from '../handlers/lambda/functions.js';
import { ALIAS_TYPE, VERSION_TYPE } from '../handlers/lambda/versions.js';

function functionNotFound(req: ResourceRequest, arn: string): ProviderResult {
  return {
    ok: false,
    code: 'NotFound',
    reason: `Resource handler returned message: "Function not found: ${arn} (Service: Lambda, Status Code: 404, Request ID: ${randomUUID()})" (RequestToken: ${req.requestToken}, HandlerErrorCode: NotFound)`,
  };
}

function publish(world: WorldAccess, req: ResourceRequest): ProviderResult {
  const { name } = splitFunctionName(String(req.properties.FunctionName ?? ''));
  const base = `arn:${req.partition}:lambda:${req.region}:${req.account}:function:`;
  const fn = world.get(FUNCTION_TYPE, name) ?? world.byName(FUNCTION_TYPE, name);
  if (!fn) return functionNotFound(req, `${base}${name}`);
  const published = (world.list?.(VERSION_TYPE) ?? []).filter(
    (v) => splitFunctionName(String(v.properties.FunctionName ?? '')).name === fn.physicalId,
  );
  const version = String(Math.max(0, ...published.map((v) => Number(v.attributes.Version) || 0)) + 1);
  const arn = `${base}${fn.physicalId}:${version}`;
  const latest = configurationOf({ caller: { account: req.account, region: req.region } }, fn);
  const configuration = {
    ...latest,
    Version: version,
    FunctionArn: arn,
    Description: req.properties.Description ?? latest.Description,
    RevisionId: randomUUID(),
  };
  const attributes = { Version: version, FunctionArn: arn };
  world.put({
    account: req.account,
    region: req.region,
    type: VERSION_TYPE,
    physicalId: arn,
    stackId: req.stackId,
    logicalId: req.logicalId,
    createdAt: world.now(),
    properties: req.properties,
    attributes,
    state: { lambda: { configuration, code: { Code: fn.properties.Code, zip: fn.state.lambda?.zip } } },
  });
  return { ok: true, physicalId: arn, ref: arn, attributes };
}

export const lambdaVersionProvider: Provider = {
  ...genericProvider,
  create: publish,
};

/** The alias row as the generic provider makes it, under its ARN. */
function createAlias(world: WorldAccess, req: ResourceRequest): ProviderResult {
  const { name } = splitFunctionName(String(req.properties.FunctionName ?? ''));
  const base = `arn:${req.partition}:lambda:${req.region}:${req.account}:function:`;
  const fn = world.get(FUNCTION_TYPE, name) ?? world.byName(FUNCTION_TYPE, name);
  if (!fn) return functionNotFound(req, `${base}${name}`);
  const arn = `${base}${fn.physicalId}:${String(req.properties.Name)}`;
  if (world.get(ALIAS_TYPE, arn)) {
    return {
      ok: false,
      code: 'AlreadyExists',
      reason: `Resource handler returned message: "Alias already exists: ${arn} (Service: Lambda, Status Code: 409, Request ID: ${randomUUID()})" (RequestToken: ${req.requestToken}, HandlerErrorCode: AlreadyExists)`,
    };
  }
  const attributes = { AliasArn: arn };
  world.put({
    account: req.account,
    region: req.region,
    type: ALIAS_TYPE,
    physicalId: arn,
    stackId: req.stackId,
    logicalId: req.logicalId,
    createdAt: world.now(),
    properties: req.properties,
    attributes,
    state: {},
  });
  return { ok: true, physicalId: arn, ref: arn, attributes };
}

export const lambdaAliasProvider: Provider = {
  ...genericProvider,
  create: createAlias,
};
