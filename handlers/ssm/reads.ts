// SSM reads: GetParameter, GetParameters, GetParametersByPath, GetParameterHistory, DescribeParameters.
// https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_Operations.html
import { echo } from '../../domain/errors.js';
import {
  allRows,
  findRow,
  nameOf,
  parameterArn,
  publicUnder,
  publicVersion,
  splitSelector,
  versionCount,
  versionOf,
  type ParameterVersion,
} from './parameters.js';
import {
  checkMaxResults,
  page,
  parameterNotFound,
  ssmError,
  ssmValidation,
  type SsmContext,
  type SsmInputOf,
} from './context.js';
import { matchesFilters, checkFilters } from './filters.js';
import type { Parameter } from '../../generated/ssm.js';

/** What GetParameter answers for a SecureString read without WithDecryption: a stand-in ciphertext. */
const cipherText = (value: string) => Buffer.from(`cfn-local:kms:alias/aws/ssm:${value}`).toString('base64');

function shown(p: ParameterVersion, decrypt: boolean, selector?: string) {
  const value = p.Type === 'SecureString' && !decrypt ? cipherText(p.Value) : p.Value;
  return {
    Name: p.Name,
    Type: p.Type,
    Value: value,
    Version: p.Version,
    Selector: selector === undefined ? undefined : `:${selector}`,
    LastModifiedDate: p.LastModifiedDate,
    ARN: p.ARN,
    DataType: p.DataType,
  };
}

/** The version a name (with an optional `:version` or `:label` selector) points at; throws SSM's refusals. */
export function resolveSelector(ctx: SsmContext, nameOrArn: string): { version: ParameterVersion; selector?: string } {
  const { name, selector } = splitSelector(nameOrArn);
  const row = findRow(ctx.store, ctx.caller, name);
  if (!row) {
    const found = publicVersion(
      ctx.store,
      ctx.caller,
      name,
      selector !== undefined && /^\d+$/.test(selector) ? Number(selector) : undefined,
    );
    if (found && (selector === undefined || /^\d+$/.test(selector))) return { version: found, selector };
    throw parameterNotFound(nameOrArn);
  }
  if (selector === undefined) return { version: versionOf(ctx.caller, row)! };
  const number = /^\d+$/.test(selector) ? Number(selector) : row.state.labels?.[selector];
  const version = number === undefined ? undefined : versionOf(ctx.caller, row, number);
  if (!version) {
    if (/^\d+$/.test(selector)) {
      throw ssmError(
        'ParameterVersionNotFound',
        `Systems Manager could not find version ${selector} of ${name}. Verify the version and try again.`,
      );
    }
    throw parameterNotFound(nameOrArn);
  }
  return { version, selector };
}

/** https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_GetParameter.html */
export function getParameter(ctx: SsmContext, input: SsmInputOf<'GetParameter'>) {
  const { version, selector } = resolveSelector(ctx, input.Name);
  return { Parameter: shown(version, input.WithDecryption === true, selector) };
}

/** https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_GetParameters.html */
export function getParameters(ctx: SsmContext, input: SsmInputOf<'GetParameters'>) {
  const names = input.Names;
  if (names.length > 10) {
    throw ssmValidation([
      `Value '${echo(`[${names.join(', ')}]`)}' at 'names' failed to satisfy constraint: Member must have length less than or equal to 10`,
    ]);
  }
  const Parameters: Parameter[] = [];
  const InvalidParameters: string[] = [];
  for (const name of [...new Set(names)]) {
    try {
      const { version, selector } = resolveSelector(ctx, name);
      Parameters.push(shown(version, input.WithDecryption === true, selector));
    } catch {
      InvalidParameters.push(name);
    }
  }
  return { Parameters, InvalidParameters };
}

/** https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_GetParametersByPath.html */
export function getParametersByPath(ctx: SsmContext, input: SsmInputOf<'GetParametersByPath'>) {
  const path = input.Path;
  const size = checkMaxResults('GetParametersByPath', input.MaxResults);
  const filters = input.ParameterFilters ?? [];
  checkFilters(filters, true);
  const prefix = path.endsWith('/') ? path : `${path}/`;
  const recursive = input.Recursive === true;
  const own = () =>
    allRows(ctx.store, ctx.caller)
      .map((row) => versionOf(ctx.caller, row)!)
      .filter((p) => p.Name.startsWith(prefix) && (recursive || !p.Name.slice(prefix.length).includes('/')));
  const matching = (publicUnder(ctx.store, ctx.caller, path, recursive) ?? own()).filter((p) =>
    matchesFilters(p, filters),
  );
  const { items, next } = page(matching, input.NextToken, size);
  return { Parameters: items.map((p) => shown(p, input.WithDecryption === true)), NextToken: next };
}

/** https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_GetParameterHistory.html */
export function getParameterHistory(ctx: SsmContext, input: SsmInputOf<'GetParameterHistory'>) {
  const name = input.Name;
  const row = findRow(ctx.store, ctx.caller, splitSelector(name).name);
  if (!row) throw parameterNotFound(name);
  const size = checkMaxResults('GetParameterHistory', input.MaxResults);
  const all = Array.from({ length: versionCount(row) }, (_, i) => versionOf(ctx.caller, row, i + 1)!);
  const { items, next } = page(all, input.NextToken, size);
  return {
    Parameters: items.map((p) => ({
      ...metadata(ctx, p),
      Value: shown(p, input.WithDecryption === true).Value,
      Labels: p.Labels,
    })),
    NextToken: next,
  };
}

/** A stored property as the model's string member: stacks write properties as their template gave them. */
const textOf = (value: unknown) => (value === undefined || value === null ? undefined : String(value));

function metadata(ctx: SsmContext, p: ParameterVersion) {
  const props = p.row?.properties ?? {};
  return {
    Name: p.Name,
    ARN: parameterArn(ctx.caller, p.Name),
    Type: p.Type,
    KeyId: p.Type === 'SecureString' ? String(props.KeyId ?? 'alias/aws/ssm') : undefined,
    LastModifiedDate: p.LastModifiedDate,
    LastModifiedUser: `arn:aws:iam::${ctx.caller.account}:root`,
    Description: textOf(props.Description),
    AllowedPattern: textOf(props.AllowedPattern),
    Version: p.Version,
    Tier: String(props.Tier ?? 'Standard'),
    Policies: [],
    DataType: p.DataType,
  };
}

/** https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_DescribeParameters.html */
export function describeParameters(ctx: SsmContext, input: SsmInputOf<'DescribeParameters'>) {
  const size = checkMaxResults('DescribeParameters', input.MaxResults);
  if (input.Filters !== undefined && input.ParameterFilters !== undefined) {
    throw ssmError('ValidationException', 'You can use either Filters or ParameterFilters in a single request.');
  }
  const legacy = (input.Filters ?? []).map((f) => ({
    Key: f.Key,
    Option: f.Key === 'Name' ? 'BeginsWith' : 'Equals',
    Values: f.Values,
  }));
  const filters = [...(input.ParameterFilters ?? []), ...legacy];
  checkFilters(filters, false);
  const matching = allRows(ctx.store, ctx.caller)
    .filter((row) => matchesFilters(versionOf(ctx.caller, row)!, filters))
    .sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
  const { items, next } = page(matching, input.NextToken, size);
  return { Parameters: items.map((row) => metadata(ctx, versionOf(ctx.caller, row)!)), NextToken: next };
}
