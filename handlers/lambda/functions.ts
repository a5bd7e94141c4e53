// Lambda functions as world rows: finding one by name, ARN or partial ARN (with a qualifier), and showing its
// configuration as Lambda's FunctionConfiguration from the row's properties and what the control plane changed.
import type { LambdaActions } from '../../generated/lambda.js';
import { createHash, randomUUID } from 'node:crypto';
import type { Store } from '../../storage/index.js';
import type { WorldResource } from '../../storage/world.js';
import type { Caller } from '../../state-machine/engine.js';
import { ServiceError } from '../../domain/serviceErrors.js';
import { partitionOf } from '../../resources/regions.js';

export const FUNCTION_TYPE = 'AWS::Lambda::Function';

export interface LambdaContext {
  store: Store;
  caller: Caller;
  now: Date;
  /** A Lambda-compatible endpoint that Invoke is forwarded to (--lambda-endpoint). */
  lambdaEndpoint?: string;
}

/** Every Lambda Action of the model, and the input the model gives it (generated/lambda.ts). */
export type LambdaAction = keyof LambdaActions;
export type LambdaInputOf<A extends LambdaAction> = LambdaActions[A]['input'];

export const functionArn = (caller: Caller, name: string) =>
  `arn:${partitionOf(caller.region)}:lambda:${caller.region}:${caller.account}:function:${name}`;

/** `name`, `name:qualifier`, `123456789012:function:name[:q]` or a full ARN, split into name and qualifier. */
export function splitFunctionName(value: string): { name: string; qualifier?: string } {
  const parts = value.split(':');
  if (value.startsWith('arn:') && parts[5] === 'function') return { name: parts[6] ?? '', qualifier: parts[7] };
  if (/^\d{12}$/.test(parts[0]) && parts[1] === 'function') return { name: parts[2] ?? '', qualifier: parts[3] };
  return { name: parts[0], qualifier: parts[1] };
}

export const notFound = (caller: Caller, name: string, qualifier?: string) =>
  new ServiceError(
    'ResourceNotFoundException',
    `Function not found: ${functionArn(caller, name)}${qualifier ? `:${qualifier}` : ''}`,
    404,
    { Type: 'User' },
  );

/** The function row, or Lambda's ResourceNotFoundException. */
export function findFunction(ctx: LambdaContext, functionName: string): { row: WorldResource; qualifier?: string } {
  const { name, qualifier } = splitFunctionName(functionName);
  const row =
    ctx.store.world.get(ctx.caller.account, ctx.caller.region, FUNCTION_TYPE, name) ??
    ctx.store.world.byName(ctx.caller.account, ctx.caller.region, FUNCTION_TYPE, name);
  if (!row) throw notFound(ctx.caller, name, qualifier);
  return { row, qualifier };
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('base64');

/** Code hash and size: what the control plane recorded, else derived from the template's Code property. */
function codeIdentity(row: WorldResource): { CodeSha256: string; CodeSize: number } {
  const recorded = row.state.lambda;
  if (recorded?.codeSha256) return { CodeSha256: recorded.codeSha256, CodeSize: recorded.codeSize ?? 0 };
  const code = (row.properties.Code ?? {}) as Record<string, unknown>;
  const identity = typeof code.ZipFile === 'string' ? code.ZipFile : JSON.stringify(code);
  return { CodeSha256: sha256(identity), CodeSize: Buffer.byteLength(identity) };
}

/** AWS's LastModified format: `2026-12-01T18:40:00.000+0000`. */
export const lambdaTime = (date: Date) => date.toISOString().replace('Z', '+0000');

/** The row as Lambda's FunctionConfiguration of `$LATEST`. */
export function configurationOf(ctx: Pick<LambdaContext, 'caller'>, row: WorldResource): Record<string, unknown> {
  const p = row.properties;
  const name = row.physicalId;
  const image = (p.PackageType ??
    ((p.Code as Record<string, unknown> | undefined)?.ImageUri ? 'Image' : 'Zip')) as string;
  return {
    FunctionName: name,
    FunctionArn: functionArn(ctx.caller, name),
    Runtime: image === 'Image' ? undefined : p.Runtime,
    Role: p.Role,
    Handler: image === 'Image' ? undefined : p.Handler,
    ...codeIdentity(row),
    Description: p.Description ?? '',
    Timeout: p.Timeout ?? 3,
    MemorySize: p.MemorySize ?? 128,
    LastModified: row.state.lambda?.lastModified ?? lambdaTime(new Date(row.createdAt)),
    Version: '$LATEST',
    VpcConfig: p.VpcConfig ? { ...p.VpcConfig, VpcId: 'vpc-00000000' } : undefined,
    Environment: p.Environment ? { Variables: (p.Environment as Record<string, unknown>).Variables ?? {} } : undefined,
    DeadLetterConfig: p.DeadLetterConfig,
    KMSKeyArn: p.KmsKeyArn,
    TracingConfig: { Mode: (p.TracingConfig as Record<string, unknown> | undefined)?.Mode ?? 'PassThrough' },
    RevisionId: row.state.lambda?.revisionId ?? revisionOf(row),
    Layers: (p.Layers as string[] | undefined)?.map((Arn) => ({ Arn, CodeSize: 0 })),
    State: 'Active',
    LastUpdateStatus: 'Successful',
    PackageType: image,
    Architectures: p.Architectures ?? ['x86_64'],
    EphemeralStorage: p.EphemeralStorage ?? { Size: 512 },
    SnapStart: { ApplyOn: 'None', OptimizationStatus: 'Off' },
    LoggingConfig: { LogFormat: 'Text', LogGroup: `/aws/lambda/${name}`, ...(p.LoggingConfig as object | undefined) },
  };
}

/** A stable revision for rows the control plane has not touched yet (a new one is made on every change). */
const revisionOf = (row: WorldResource) => {
  const hex = createHash('sha256').update(`${row.physicalId}|${row.createdAt}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/** Refuses a stale RevisionId as Lambda does. */
export function checkRevision(current: string, given: string | undefined, what = 'GetFunction'): void {
  if (given !== undefined && given !== current) {
    throw new ServiceError(
      'PreconditionFailedException',
      `The Revision Id provided does not match the latest Revision Id. Call the ${what} API to retrieve the latest Revision Id`,
      412,
      { Type: 'User' },
    );
  }
}

/** Writes changed properties and control-plane state, with a new revision and modification time. */
export function saveFunction(
  ctx: LambdaContext,
  row: WorldResource,
  properties: Record<string, unknown>,
  code?: { sha: string; size: number; zip?: { placeholder: string; base64: string } },
) {
  const lambda = {
    ...row.state.lambda,
    revisionId: randomUUID(),
    lastModified: lambdaTime(ctx.now),
    ...(code ? { codeSha256: code.sha, codeSize: code.size, zip: code.zip } : {}),
  };
  const updated = { ...row, properties, state: { ...row.state, lambda } };
  ctx.store.world.put(updated);
  return updated;
}

export { sha256 };
