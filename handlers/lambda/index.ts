// Lambda's control plane over the world's AWS::Lambda::Function rows: what `cdk deploy --hotswap` and `cdk watch`
// call. A function changed here differs from its template, as on AWS. Invoke is server/services/lambda.ts's.
// https://docs.aws.amazon.com/lambda/latest/api/API_Operations.html
import { createHash } from 'node:crypto';
import { ServiceError, validationText } from '../../domain/serviceErrors.js';
import {
  FUNCTION_TYPE,
  checkRevision,
  configurationOf,
  findFunction,
  saveFunction,
  sha256,
  type LambdaContext,
  type LambdaInput,
} from './functions.js';
import { getAlias, publishVersion, qualifiedConfiguration, updateAlias } from './versions.js';

export type { LambdaContext } from './functions.js';
type LambdaOutput = Record<string, unknown> | undefined;
type LambdaHandler = (ctx: LambdaContext, input: LambdaInput) => LambdaOutput | Promise<LambdaOutput>;

/** https://docs.aws.amazon.com/lambda/latest/api/API_GetFunctionConfiguration.html */
export function getFunctionConfiguration(ctx: LambdaContext, input: LambdaInput) {
  const { row, qualifier } = findFunction(ctx, String(input.FunctionName));
  return qualifiedConfiguration(ctx, row, (input.Qualifier as string | undefined) ?? qualifier);
}

/** https://docs.aws.amazon.com/lambda/latest/api/API_GetFunction.html */
export function getFunction(ctx: LambdaContext, input: LambdaInput) {
  const { row, qualifier } = findFunction(ctx, String(input.FunctionName));
  const Configuration = qualifiedConfiguration(ctx, row, (input.Qualifier as string | undefined) ?? qualifier);
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
export function listFunctions(ctx: LambdaContext, input: LambdaInput) {
  const size = input.MaxItems === undefined ? 50 : Number(input.MaxItems);
  if (size < 1 || size > 10000) {
    throw new ServiceError(
      'ValidationException',
      validationText([
        `Value '${size}' at 'maxItems' failed to satisfy constraint: Member must have value ${size < 1 ? 'greater than or equal to 1' : 'less than or equal to 10000'}`,
      ]),
    );
  }
  const rows = ctx.store.world
    .list({ type: FUNCTION_TYPE, account: ctx.caller.account, region: ctx.caller.region })
    .sort((a, b) => a.physicalId.localeCompare(b.physicalId));
  const start = input.Marker === undefined ? 0 : rows.findIndex((r) => r.physicalId > String(input.Marker));
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
  input: LambdaInput,
): Promise<{ code: Record<string, unknown>; sha: string; size: number }> {
  if (input.ZipFile instanceof Buffer)
    return {
      code: { ZipFile: `(${input.ZipFile.length} bytes from UpdateFunctionCode)` },
      sha: sha256(input.ZipFile),
      size: input.ZipFile.length,
    };
  if (typeof input.ImageUri === 'string')
    return { code: { ImageUri: input.ImageUri }, sha: sha256(input.ImageUri), size: 0 };
  if (typeof input.S3Bucket === 'string' && typeof input.S3Key === 'string') {
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
export async function updateFunctionCode(ctx: LambdaContext, input: LambdaInput) {
  const { row } = findFunction(ctx, String(input.FunctionName));
  checkRevision(String(configurationOf(ctx, row).RevisionId), input.RevisionId);
  const { code, sha, size } = await newCode(ctx, input);
  if (input.DryRun === true) return { ...configurationOf(ctx, row), CodeSha256: sha, CodeSize: size };
  const properties = {
    ...row.properties,
    Code: code,
    ...(input.Architectures ? { Architectures: input.Architectures } : {}),
  };
  const saved = saveFunction(ctx, row, properties, { sha, size });
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

function checkConfiguration(input: LambdaInput): void {
  const problems: string[] = [];
  const range = (member: string, min: number, max: number) => {
    const v = input[member];
    if (typeof v !== 'number') return;
    const at = member[0].toLowerCase() + member.slice(1);
    if (v < min)
      problems.push(
        `Value '${v}' at '${at}' failed to satisfy constraint: Member must have value greater than or equal to ${min}`,
      );
    if (v > max)
      problems.push(
        `Value '${v}' at '${at}' failed to satisfy constraint: Member must have value less than or equal to ${max}`,
      );
  };
  range('Timeout', 1, 900);
  range('MemorySize', 128, 32768);
  if (problems.length > 0) throw new ServiceError('ValidationException', validationText(problems));
}

/** https://docs.aws.amazon.com/lambda/latest/api/API_UpdateFunctionConfiguration.html */
export function updateFunctionConfiguration(ctx: LambdaContext, input: LambdaInput) {
  checkConfiguration(input);
  const { row } = findFunction(ctx, String(input.FunctionName));
  checkRevision(String(configurationOf(ctx, row).RevisionId), input.RevisionId);
  const properties = { ...row.properties };
  for (const member of CONFIGURATION_MEMBERS) if (input[member] !== undefined) properties[member] = input[member];
  if (input.KMSKeyArn !== undefined) properties.KmsKeyArn = input.KMSKeyArn;
  return configurationOf(ctx, saveFunction(ctx, row, properties));
}

/** Lambda actions cfn-local serves (Invoke is forwarded by server/services/lambda.ts). */
export const LAMBDA_ACTIONS: Readonly<Record<string, LambdaHandler>> = {
  GetFunction: getFunction,
  GetFunctionConfiguration: getFunctionConfiguration,
  ListFunctions: listFunctions,
  UpdateFunctionCode: updateFunctionCode,
  UpdateFunctionConfiguration: updateFunctionConfiguration,
  PublishVersion: publishVersion,
  GetAlias: getAlias,
  UpdateAlias: updateAlias,
};
