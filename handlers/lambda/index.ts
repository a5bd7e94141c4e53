// Lambda's control plane over the world's AWS::Lambda::Function rows: what `cdk deploy --hotswap` and `cdk watch`
// call. A function changed here differs from its template, as on AWS. Invoke is server/services/lambda.ts's.
// https://docs.aws.amazon.com/lambda/latest/api/API_Operations.html
import { createHash } from 'node:crypto';
import { ServiceError, validationText } from '../../domain/serviceErrors.js';
import { constraintProblems, type Constraints } from '../../domain/constraints.js';
import {
  FUNCTION_TYPE,
  checkRevision,
  configurationOf,
  findFunction,
  saveFunction,
  sha256,
  type LambdaAction,
  type LambdaContext,
  type LambdaInputOf,
} from './functions.js';
import { getAlias, publishVersion, qualifiedConfiguration, updateAlias } from './versions.js';
import { listTags, tagResource, untagResource } from './tags.js';
import { NOT_IMPLEMENTED, rowOf, type DecodedHandler, type NotImplemented } from '../actionTable.js';
import { NOT_SERVED } from './notImplemented.js';

export type { LambdaContext } from './functions.js';
type LambdaOutput = Record<string, unknown> | undefined;
type LambdaHandler<A extends LambdaAction> = (
  ctx: LambdaContext,
  input: LambdaInputOf<A>,
) => LambdaOutput | Promise<LambdaOutput>;

/** The model's ranges Lambda enforces, per Action and member, checked before the handler (checkRanges). */
const RANGES: { readonly [A in LambdaAction]?: Constraints<LambdaInputOf<A>> } = {
  ListFunctions: { MaxItems: { minValue: 1, maxValue: 10000 } },
  UpdateFunctionConfiguration: {
    Timeout: { minValue: 1, maxValue: 900 },
    MemorySize: { minValue: 128, maxValue: 32768 },
  },
};

/** https://docs.aws.amazon.com/lambda/latest/api/API_GetFunctionConfiguration.html */
export function getFunctionConfiguration(ctx: LambdaContext, input: LambdaInputOf<'GetFunctionConfiguration'>) {
  const { row, qualifier } = findFunction(ctx, input.FunctionName);
  return qualifiedConfiguration(ctx, row, input.Qualifier ?? qualifier);
}

/** https://docs.aws.amazon.com/lambda/latest/api/API_GetFunction.html */
export function getFunction(ctx: LambdaContext, input: LambdaInputOf<'GetFunction'>) {
  const { row, qualifier } = findFunction(ctx, input.FunctionName);
  const Configuration = qualifiedConfiguration(ctx, row, input.Qualifier ?? qualifier);
  const tags = (row.properties.Tags ?? []) as { Key: string; Value: string }[];
  const code = (row.properties.Code ?? {}) as Record<string, unknown>;
  const Code =
    typeof code.ImageUri === 'string'
      ? { RepositoryType: 'ECR', ImageUri: code.ImageUri, ResolvedImageUri: code.ImageUri }
      : {
          RepositoryType: 'S3',
          Location: `https://awslambda-${ctx.caller.region}-tasks.s3.${ctx.caller.region}.amazonaws.com/snapshots/${ctx.caller.account}/${row.physicalId}`,
        };
  return {
    Configuration,
    Code,
    Tags: Array.isArray(tags) ? Object.fromEntries(tags.map((t) => [t.Key, t.Value])) : undefined,
  };
}

/** https://docs.aws.amazon.com/lambda/latest/api/API_ListFunctions.html */
export function listFunctions(ctx: LambdaContext, input: LambdaInputOf<'ListFunctions'>) {
  const size = input.MaxItems ?? 50;
  const rows = ctx.store.world
    .list({ type: FUNCTION_TYPE, account: ctx.caller.account, region: ctx.caller.region })
    .sort((a, b) => a.physicalId.localeCompare(b.physicalId));
  const marker = input.Marker;
  const start = marker === undefined ? 0 : rows.findIndex((r) => r.physicalId > marker);
  const page = start === -1 ? [] : rows.slice(start, start + size);
  const more = start !== -1 && start + size < rows.length;
  return {
    Functions: page.map((r) => configurationOf(ctx, r)),
    NextMarker: more ? page.at(-1)!.physicalId : undefined,
  };
}

const s3Refusal = (code: string, message: string) =>
  new ServiceError(
    'InvalidParameterValueException',
    `Error occurred while GetObject. S3 Error Code: ${code}. S3 Error Message: ${message}`,
    400,
    { Type: 'User' },
  );

/** The hash and size of an S3 object of the account, as Lambda reads a zip from S3; AWS's refusal when it is missing. */
async function s3Code(ctx: LambdaContext, bucket: string, key: string): Promise<{ sha: string; size: number }> {
  if (!ctx.store.world.byNameInAccount(ctx.caller.account, 'AWS::S3::Bucket', bucket))
    throw s3Refusal('NoSuchBucket', 'The specified bucket does not exist');
  const object = ctx.store.objects.get(ctx.caller.account, bucket, key);
  if (!object) throw s3Refusal('NoSuchKey', 'The specified key does not exist.');
  const hash = createHash('sha256');
  for await (const chunk of ctx.store.bodies.read(object.bodyId)) hash.update(chunk as Buffer);
  return { sha: hash.digest('base64'), size: object.size };
}

/** The new Code property and its hash and size, from UpdateFunctionCode's source members. */
async function newCode(
  ctx: LambdaContext,
  input: LambdaInputOf<'UpdateFunctionCode'>,
): Promise<{
  code: Record<string, unknown>;
  sha: string;
  size: number;
  zip?: { placeholder: string; base64: string };
}> {
  if (input.ZipFile !== undefined) {
    const sha = sha256(input.ZipFile);
    // The Code property names the zip; the bytes stay in the row's state for the runtime (runtime/code.ts).
    const placeholder = `(${input.ZipFile.length} bytes from UpdateFunctionCode, ${sha})`;
    const zip = { placeholder, base64: Buffer.from(input.ZipFile).toString('base64') };
    return { code: { ZipFile: placeholder }, sha, size: input.ZipFile.length, zip };
  }
  if (input.ImageUri !== undefined) return { code: { ImageUri: input.ImageUri }, sha: sha256(input.ImageUri), size: 0 };
  if (input.S3Bucket !== undefined && input.S3Key !== undefined) {
    const code = {
      S3Bucket: input.S3Bucket,
      S3Key: input.S3Key,
      ...(input.S3ObjectVersion ? { S3ObjectVersion: input.S3ObjectVersion } : {}),
    };
    return { code, ...(await s3Code(ctx, input.S3Bucket, input.S3Key)) };
  }
  throw new ServiceError('InvalidParameterValueException', 'Please provide a source for function code.', 400, {
    Type: 'User',
  });
}

/** https://docs.aws.amazon.com/lambda/latest/api/API_UpdateFunctionCode.html */
export async function updateFunctionCode(ctx: LambdaContext, input: LambdaInputOf<'UpdateFunctionCode'>) {
  const { row } = findFunction(ctx, input.FunctionName);
  checkRevision(String(configurationOf(ctx, row).RevisionId), input.RevisionId);
  const { code, sha, size, zip } = await newCode(ctx, input);
  if (input.DryRun === true) return { ...configurationOf(ctx, row), CodeSha256: sha, CodeSize: size };
  const properties = {
    ...row.properties,
    Code: code,
    ...(input.Architectures ? { Architectures: input.Architectures } : {}),
  };
  const saved = saveFunction(ctx, row, properties, { sha, size, zip });
  return input.Publish === true ? publishVersion(ctx, { FunctionName: saved.physicalId }) : configurationOf(ctx, saved);
}

// UpdateFunctionConfiguration's members that are the AWS::Lambda::Function properties of the same name.
const CONFIGURATION_MEMBERS = [
  'Role',
  'Handler',
  'Description',
  'Timeout',
  'MemorySize',
  'VpcConfig',
  'Environment',
  'Runtime',
  'DeadLetterConfig',
  'TracingConfig',
  'Layers',
  'FileSystemConfigs',
  'ImageConfig',
  'EphemeralStorage',
  'SnapStart',
  'LoggingConfig',
] as const;

/** https://docs.aws.amazon.com/lambda/latest/api/API_UpdateFunctionConfiguration.html */
export function updateFunctionConfiguration(ctx: LambdaContext, input: LambdaInputOf<'UpdateFunctionConfiguration'>) {
  const { row } = findFunction(ctx, input.FunctionName);
  checkRevision(String(configurationOf(ctx, row).RevisionId), input.RevisionId);
  const properties = { ...row.properties };
  for (const member of CONFIGURATION_MEMBERS) if (input[member] !== undefined) properties[member] = input[member];
  if (input.KMSKeyArn !== undefined) properties.KmsKeyArn = input.KMSKeyArn;
  return configurationOf(ctx, saveFunction(ctx, row, properties));
}

/** Total over the model's actions: the served ones here, the others NOT_IMPLEMENTED (notImplemented.ts). */
export const LAMBDA_ACTIONS: { readonly [A in LambdaAction]: LambdaHandler<A> | NotImplemented } = {
  ...NOT_SERVED,
  GetFunction: getFunction,
  GetFunctionConfiguration: getFunctionConfiguration,
  ListFunctions: listFunctions,
  UpdateFunctionCode: updateFunctionCode,
  UpdateFunctionConfiguration: updateFunctionConfiguration,
  PublishVersion: publishVersion,
  GetAlias: getAlias,
  UpdateAlias: updateAlias,
  TagResource: tagResource,
  UntagResource: untagResource,
  ListTags: listTags,
};

const RANGES_BY_NAME: Readonly<Record<string, Constraints<Record<string, unknown>> | undefined>> = RANGES;

/** The handler of `action` behind RANGES' check; NOT_IMPLEMENTED, or undefined for an action the model lacks. */
export function lambdaHandlerOf(action: string): DecodedHandler<LambdaContext> | NotImplemented | undefined {
  const handler = rowOf(LAMBDA_ACTIONS, action);
  if (handler === undefined || handler === NOT_IMPLEMENTED) return handler;
  const rules = RANGES_BY_NAME[action];
  return async (ctx, input) => {
    const problems = rules ? constraintProblems(rules, input) : [];
    if (problems.length > 0) throw new ServiceError('ValidationException', validationText(problems));
    return handler(ctx, input);
  };
}
