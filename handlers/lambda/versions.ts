// Lambda versions and aliases as world rows (AWS::Lambda::Version, AWS::Lambda::Alias), whether a stack or the
// control plane made them: PublishVersion, GetAlias, UpdateAlias, and what a qualifier names.
// https://docs.aws.amazon.com/lambda/latest/api/API_PublishVersion.html
import { echo } from '../../domain/errors.js';
import { randomUUID } from 'node:crypto';
import type { WorldResource } from '../../storage/world.js';
import { ServiceError } from '../../domain/serviceErrors.js';
import {
  checkRevision,
  configurationOf,
  findFunction,
  functionArn,
  notFound,
  splitFunctionName,
  type LambdaContext,
  type LambdaInputOf,
} from './functions.js';

export const VERSION_TYPE = 'AWS::Lambda::Version';
export const ALIAS_TYPE = 'AWS::Lambda::Alias';

/** Rows of this type whose FunctionName property names the function (by name or ARN). */
function rowsFor(ctx: LambdaContext, type: string, name: string): WorldResource[] {
  return ctx.store.world
    .list({ type, account: ctx.caller.account, region: ctx.caller.region })
    .filter((r) => splitFunctionName(String(r.properties.FunctionName ?? '')).name === name);
}

const versionNumber = (row: WorldResource) => String(row.attributes.Version ?? '');

/** A published version's FunctionConfiguration, or undefined when the function has no such version. */
export function versionConfiguration(
  ctx: LambdaContext,
  fn: WorldResource,
  qualifier: string,
): Record<string, unknown> | undefined {
  const row = rowsFor(ctx, VERSION_TYPE, fn.physicalId).find((r) => versionNumber(r) === qualifier);
  if (!row) return undefined;
  return (
    row.state.lambda?.configuration ?? {
      ...configurationOf(ctx, fn),
      Version: qualifier,
      FunctionArn: `${functionArn(ctx.caller, fn.physicalId)}:${qualifier}`,
    }
  );
}

/** The configuration a qualifier names: `$LATEST`, a version number or an alias. */
export function qualifiedConfiguration(
  ctx: LambdaContext,
  fn: WorldResource,
  qualifier?: string,
): Record<string, unknown> {
  if (qualifier === undefined || qualifier === '$LATEST') return configurationOf(ctx, fn);
  const alias = rowsFor(ctx, ALIAS_TYPE, fn.physicalId).find((r) => r.properties.Name === qualifier);
  const found = versionConfiguration(ctx, fn, alias ? String(alias.properties.FunctionVersion) : qualifier);
  if (!found) throw notFound(ctx.caller, fn.physicalId, qualifier);
  return found;
}

/**
 * What runs for a qualifier: its configuration and the code it was published with (the function's own for
 * `$LATEST`, and for a version a stack published, which kept no copy of the code).
 */
export function qualifiedCode(
  ctx: LambdaContext,
  fn: WorldResource,
  qualifier?: string,
): {
  configuration: Record<string, unknown>;
  code: Record<string, unknown>;
  zip?: { placeholder: string; base64: string };
} {
  const configuration = qualifiedConfiguration(ctx, fn, qualifier);
  const version = String(configuration.Version);
  const row =
    version === '$LATEST'
      ? undefined
      : rowsFor(ctx, VERSION_TYPE, fn.physicalId).find((r) => versionNumber(r) === version);
  const snapshot = row?.state.lambda?.code;
  if (snapshot) return { configuration, code: snapshot.Code as Record<string, unknown>, zip: snapshot.zip as never };
  return { configuration, code: (fn.properties.Code ?? {}) as Record<string, unknown>, zip: fn.state.lambda?.zip };
}

/** https://docs.aws.amazon.com/lambda/latest/api/API_PublishVersion.html */
export function publishVersion(ctx: LambdaContext, input: LambdaInputOf<'PublishVersion'>): Record<string, unknown> {
  const { row } = findFunction(ctx, input.FunctionName);
  const latest = configurationOf(ctx, row);
  checkRevision(String(latest.RevisionId), input.RevisionId);
  if (input.CodeSha256 !== undefined && input.CodeSha256 !== latest.CodeSha256) {
    throw new ServiceError(
      'InvalidParameterValueException',
      `CodeSHA256 (${echo(input.CodeSha256)}) is different from current CodeSHA256 in $LATEST (${String(latest.CodeSha256)}). Please try again with the CodeSHA256 in $LATEST.`,
      400,
      { Type: 'User' },
    );
  }
  const existing = rowsFor(ctx, VERSION_TYPE, row.physicalId);
  // Publishing unchanged code and configuration answers the version already published for it.
  const same = existing.find(
    (v) =>
      v.state.lambda?.configuration?.CodeSha256 === latest.CodeSha256 &&
      v.state.lambda?.configuration?.RevisionSource === latest.RevisionId,
  );
  if (same) return same.state.lambda!.configuration!;
  const number = String(existing.length + 1);
  const arn = `${functionArn(ctx.caller, row.physicalId)}:${number}`;
  const configuration = {
    ...latest,
    Version: number,
    FunctionArn: arn,
    RevisionId: randomUUID(),
    Description: input.Description ?? latest.Description,
    RevisionSource: latest.RevisionId,
  };
  ctx.store.world.put({
    account: ctx.caller.account,
    region: ctx.caller.region,
    type: VERSION_TYPE,
    physicalId: arn,
    createdAt: ctx.now.toISOString(),
    properties: { FunctionName: row.physicalId, Description: configuration.Description },
    attributes: { Version: number, FunctionArn: arn },
    state: { lambda: { configuration, code: { Code: row.properties.Code, zip: row.state.lambda?.zip } } },
  });
  return configuration;
}

function findAlias(
  ctx: LambdaContext,
  input: { FunctionName: string; Name: string },
): { fn: WorldResource; alias: WorldResource } {
  const { row: fn } = findFunction(ctx, input.FunctionName);
  const alias = rowsFor(ctx, ALIAS_TYPE, fn.physicalId).find((r) => r.properties.Name === input.Name);
  if (!alias) {
    throw new ServiceError(
      'ResourceNotFoundException',
      `Cannot find alias arn: ${functionArn(ctx.caller, fn.physicalId)}:${echo(input.Name)}`,
      404,
      { Type: 'User' },
    );
  }
  return { fn, alias };
}

function aliasConfiguration(ctx: LambdaContext, fn: WorldResource, alias: WorldResource): Record<string, unknown> {
  const p = alias.properties;
  return {
    AliasArn: `${functionArn(ctx.caller, fn.physicalId)}:${String(p.Name)}`,
    Name: p.Name,
    FunctionVersion: String(p.FunctionVersion),
    Description: p.Description ?? '',
    RoutingConfig: p.RoutingConfig,
    RevisionId:
      alias.state.lambda?.revisionId ?? `${alias.createdAt.replace(/\D/g, '').slice(0, 8)}-0000-4000-8000-000000000000`,
  };
}

/** https://docs.aws.amazon.com/lambda/latest/api/API_GetAlias.html */
export function getAlias(ctx: LambdaContext, input: LambdaInputOf<'GetAlias'>): Record<string, unknown> {
  const { fn, alias } = findAlias(ctx, input);
  return aliasConfiguration(ctx, fn, alias);
}

/** https://docs.aws.amazon.com/lambda/latest/api/API_UpdateAlias.html */
export function updateAlias(ctx: LambdaContext, input: LambdaInputOf<'UpdateAlias'>): Record<string, unknown> {
  const { fn, alias } = findAlias(ctx, input);
  checkRevision(String(aliasConfiguration(ctx, fn, alias).RevisionId), input.RevisionId, 'GetAlias');
  const version = input.FunctionVersion;
  if (version !== undefined && version !== '$LATEST' && !versionConfiguration(ctx, fn, version)) {
    throw notFound(ctx.caller, fn.physicalId, version);
  }
  const properties = { ...alias.properties };
  if (version !== undefined) properties.FunctionVersion = version;
  if (input.Description !== undefined) properties.Description = input.Description;
  if (input.RoutingConfig !== undefined) properties.RoutingConfig = input.RoutingConfig;
  const updated = { ...alias, properties, state: { ...alias.state, lambda: { revisionId: randomUUID() } } };
  ctx.store.world.put(updated);
  return aliasConfiguration(ctx, fn, updated);
}
