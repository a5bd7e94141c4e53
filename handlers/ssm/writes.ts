// SSM writes: PutParameter, DeleteParameter, DeleteParameters, LabelParameterVersion. A parameter put here is the
// world row that `{{resolve:ssm:…}}` and SSM parameter types read; one a stack made drifts when it is overwritten.
// https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_PutParameter.html
import { findRow, nameOf, splitSelector, versionCount, writeVersion, PARAMETER_TYPE } from './parameters.js';
import { echo } from '../../domain/errors.js';
import { parameterNotFound, ssmError, ssmValidation, type SsmContext, type SsmInputOf } from './context.js';

const TYPES = ['SecureString', 'StringList', 'String'];
const DATA_TYPES = ['text', 'aws:ec2:image', 'aws:ssm:integration'];
const NAME = /^[a-zA-Z0-9_.\-/]+$/;

function checkName(name: string): void {
  const first = name.replace(/^\//, '').split('/')[0];
  if (/^(aws|ssm)/i.test(first)) {
    const path = name.split('/').length > 2;
    throw ssmError(
      'ValidationException',
      path
        ? 'Parameter name: can\'t be prefixed with "ssm" (case-insensitive). If formed as a path, it can consist of sub-paths divided by slash symbol; each sub-path can be formed as a mix of letters, numbers and the following 3 symbols .-_'
        : 'Parameter name: can\'t be prefixed with "aws" or "ssm" (case-insensitive).',
    );
  }
  if (!NAME.test(name) || name.includes('//') || (name.includes('/') && !name.startsWith('/'))) {
    throw ssmError('ValidationException', 'Parameter name must be a fully qualified name.');
  }
  if (name.split('/').length - 1 > 15) {
    throw ssmError(
      'HierarchyLevelLimitExceededException',
      'Parameter path: the parameter hierarchy is too deep. The maximum number of levels is 15.',
    );
  }
}

function checkPutInput(input: SsmInputOf<'PutParameter'>, exists: boolean): void {
  const value = input.Value;
  if (value === '')
    throw ssmValidation([
      "Value '' at 'value' failed to satisfy constraint: Member must have length greater than or equal to 1",
    ]);
  if (input.Overwrite === true && input.Tags !== undefined) {
    throw ssmError(
      'ValidationException',
      "Invalid request: tags and overwrite can't be used together. To create a parameter with tags, please remove overwrite flag. To update tags for an existing parameter, please use AddTagsToResource or RemoveTagsFromResource.",
    );
  }
  if (input.Type === undefined && !exists)
    throw ssmError('ValidationException', 'A parameter type is required when you create a parameter.');
  if (input.Type !== undefined && !TYPES.includes(input.Type)) {
    throw ssmValidation([
      `Value '${echo(input.Type)}' at 'type' failed to satisfy constraint: Member must satisfy enum value set: [${TYPES.join(', ')}]`,
    ]);
  }
  if (input.DataType !== undefined && !DATA_TYPES.includes(input.DataType)) {
    throw ssmError(
      'ValidationException',
      `The following data type is not supported: ${echo(input.DataType)} (Data type names are all lowercase.)`,
    );
  }
  if (input.Tier === 'Standard' && value.length > 4096) {
    throw ssmError(
      'ValidationException',
      'Standard tier parameters support a maximum parameter value of 4096 characters. To create a larger parameter value, upgrade the parameter to use the advanced-parameter tier. For more information, see https://docs.aws.amazon.com/systems-manager/latest/userguide/parameter-store-advanced-parameters.html',
    );
  }
}

function checkPattern(pattern: unknown, value: string): void {
  if (typeof pattern !== 'string') return;
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    throw ssmError('InvalidAllowedPatternException', 'The allowed pattern is not a valid regular expression.');
  }
  if (!re.test(value))
    throw ssmError(
      'ParameterPatternMismatchException',
      `Parameter value, cannot be validated against allowedPattern: ${echo(pattern)}`,
    );
}

/** https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_PutParameter.html */
export function putParameter(ctx: SsmContext, input: SsmInputOf<'PutParameter'>) {
  const name = input.Name;
  checkName(name);
  const existing = findRow(ctx.store, ctx.caller, name);
  checkPutInput(input, existing !== undefined);
  if (existing && input.Overwrite !== true) {
    throw ssmError(
      'ParameterAlreadyExists',
      'The parameter already exists. To overwrite this value, set the overwrite option in the request to true.',
    );
  }
  checkPattern(input.AllowedPattern ?? existing?.properties.AllowedPattern, input.Value);
  const properties: Record<string, unknown> = { Value: input.Value };
  for (const key of ['Type', 'Description', 'AllowedPattern', 'Tier', 'DataType', 'KeyId', 'Policies'] as const) {
    if (input[key] !== undefined) properties[key] = input[key];
  }
  if (!existing) properties.Tier ??= 'Standard';
  if (input.Tags !== undefined) properties.Tags = Object.fromEntries(input.Tags.map((t) => [t.Key, t.Value]));
  const version = writeVersion(
    ctx.store,
    ctx.caller,
    existing,
    existing ? nameOf(existing) : name,
    properties,
    ctx.now,
  );
  return { Version: version, Tier: String(properties.Tier ?? existing?.properties.Tier ?? 'Standard') };
}

function remove(ctx: SsmContext, name: string): boolean {
  const row = findRow(ctx.store, ctx.caller, name);
  if (!row) return false;
  ctx.store.world.remove(row.account, row.region, PARAMETER_TYPE, row.physicalId);
  return true;
}

/** https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_DeleteParameter.html */
export function deleteParameter(ctx: SsmContext, input: SsmInputOf<'DeleteParameter'>) {
  const name = input.Name;
  if (!remove(ctx, name)) throw parameterNotFound(name);
  return {};
}

/** https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_DeleteParameters.html */
export function deleteParameters(ctx: SsmContext, input: SsmInputOf<'DeleteParameters'>) {
  const names = input.Names;
  if (names.length > 10) {
    throw ssmValidation([
      `Value '${echo(`[${names.join(', ')}]`)}' at 'names' failed to satisfy constraint: Member must have length less than or equal to 10`,
    ]);
  }
  const DeletedParameters: string[] = [];
  const InvalidParameters: string[] = [];
  for (const name of names) (remove(ctx, name) ? DeletedParameters : InvalidParameters).push(name);
  return { DeletedParameters, InvalidParameters };
}

const LABEL = /^[a-zA-Z0-9_.-]{1,100}$/;

/** https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_LabelParameterVersion.html */
export function labelParameterVersion(ctx: SsmContext, input: SsmInputOf<'LabelParameterVersion'>) {
  const name = splitSelector(input.Name).name;
  const row = findRow(ctx.store, ctx.caller, name);
  if (!row) throw parameterNotFound(input.Name);
  const version = input.ParameterVersion ?? versionCount(row);
  if (version < 1 || version > versionCount(row)) {
    throw ssmError(
      'ParameterVersionNotFound',
      `Systems Manager could not find version ${version} of ${echo(name)}. Verify the version and try again.`,
    );
  }
  const labels = { ...(row.state.labels ?? {}) };
  const InvalidLabels: string[] = [];
  for (const label of input.Labels) {
    if (!LABEL.test(label) || /^(aws|ssm)/i.test(label) || /^\d/.test(label)) InvalidLabels.push(label);
    else labels[label] = version;
  }
  if (Object.values(labels).filter((v) => v === version).length > 10) {
    throw ssmError(
      'ParameterVersionLabelLimitExceeded',
      'A parameter version can have maximum 10 labels.Move one or more labels to another version and try again.',
    );
  }
  ctx.store.world.put({ ...row, state: { ...row.state, labels } });
  return { InvalidLabels, ParameterVersion: version };
}
