// SSM's ParameterStringFilter: which keys and options DescribeParameters and GetParametersByPath take, their
// refusals, and how a parameter matches.
// https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_ParameterStringFilter.html
import { echo } from '../../domain/errors.js';
import { ssmError } from './context.js';
import type { ParameterVersion } from './parameters.js';

export interface ParameterFilter {
  Key: string;
  Option?: string;
  Values?: string[];
}

const KEY = /^(tag:.+|Name|Type|KeyId|Path|Label|Tier|DataType)$/;
const TYPES = ['String', 'StringList', 'SecureString'];
const TIERS = ['Standard', 'Advanced', 'Intelligent-Tiering'];

function checkOne(f: ParameterFilter, byPath: boolean, seen: Set<string>): void {
  if (!KEY.test(f.Key)) {
    throw ssmError(
      'ValidationException',
      `1 validation error detected: Value '${echo(f.Key)}' at 'parameterFilters.1.member.key' failed to satisfy constraint: Member must satisfy regular expression pattern: tag:.+|Name|Type|KeyId|Path|Label|Tier|DataType`,
    );
  }
  if (byPath && ['Name', 'Path', 'Tier'].includes(f.Key)) {
    throw ssmError(
      'InvalidFilterKey',
      `The following filter key is not valid: ${echo(f.Key)}. Valid filter keys include: [Type, KeyId].`,
    );
  }
  if (!byPath && f.Key === 'Label') {
    throw ssmError(
      'InvalidFilterKey',
      'The following filter key is not valid: Label. Valid filter keys include: [Path, Name, Type, KeyId, Tier].',
    );
  }
  if (seen.has(f.Key)) {
    throw ssmError(
      'InvalidFilterKey',
      `The following filter is duplicated in the request: ${echo(f.Key)}. A request can contain only one occurrence of a specific filter.`,
    );
  }
  seen.add(f.Key);
  const option = f.Option ?? (f.Key === 'Path' ? 'OneLevel' : 'Equals');
  if (f.Key === 'Path' && !['Recursive', 'OneLevel'].includes(option)) {
    throw ssmError(
      'InvalidFilterOption',
      `The following filter option is not valid: ${echo(option)}. Valid options include: [Recursive, OneLevel].`,
    );
  }
  const options = f.Key === 'Name' ? ['Equals', 'BeginsWith', 'Contains'] : ['Equals', 'BeginsWith'];
  if (f.Key !== 'Path' && !options.includes(option)) {
    throw ssmError(
      'InvalidFilterOption',
      `The following filter option is not valid: ${echo(option)}. Valid options include: [${options.join(', ')}].`,
    );
  }
  const allowed = f.Key === 'Type' ? TYPES : f.Key === 'Tier' ? TIERS : undefined;
  const wrong = allowed && (f.Values ?? []).find((v) => !allowed.includes(v));
  if (wrong)
    throw ssmError(
      'InvalidFilterValue',
      `The following filter value is not valid: ${echo(wrong)}. Valid values include: [${allowed.join(', ')}].`,
    );
}

/** Refuses filters SSM refuses; `byPath` for GetParametersByPath, which takes fewer keys. */
export function checkFilters(filters: ParameterFilter[], byPath: boolean): void {
  const seen = new Set<string>();
  for (const f of filters) checkOne(f, byPath, seen);
}

const slashed = (name: string) => `/${name.replace(/^\//, '')}`;

function fieldOf(p: ParameterVersion, key: string): string[] {
  const props = p.row?.properties ?? {};
  if (key.startsWith('tag:')) {
    const tags = props.Tags as Record<string, string> | undefined;
    const tag = tags?.[key.slice(4)];
    return tag === undefined ? [] : [tag];
  }
  switch (key) {
    case 'Name':
      return [slashed(p.Name)];
    case 'Type':
      return [p.Type];
    case 'KeyId':
      return p.Type === 'SecureString' ? [String(props.KeyId ?? 'alias/aws/ssm')] : [];
    case 'Tier':
      return [String(props.Tier ?? 'Standard')];
    case 'DataType':
      return [p.DataType];
    case 'Label':
      return Object.keys(p.row?.state.labels ?? {});
    default:
      return [];
  }
}

function matchesPath(name: string, values: string[], recursive: boolean): boolean {
  const n = slashed(name);
  return values.some((v) => {
    const base = v === '/' ? '/' : `${slashed(v).replace(/\/$/, '')}/`;
    return n.startsWith(base) && (recursive || !n.slice(base.length).includes('/'));
  });
}

/** Whether one parameter passes every filter. */
export function matchesFilters(p: ParameterVersion, filters: ParameterFilter[]): boolean {
  return filters.every((f) => {
    const values = f.Values ?? [];
    if (f.Key === 'Path') return matchesPath(p.Name, values, f.Option === 'Recursive');
    const field = fieldOf(p, f.Key);
    if (field.length === 0) return false;
    if (values.length === 0) return true;
    const wanted = f.Key === 'Name' ? values.map((v) => (f.Option === 'Contains' ? v : slashed(v))) : values;
    const option = f.Option ?? 'Equals';
    return field.some((have) =>
      wanted.some((v) =>
        option === 'BeginsWith' ? have.startsWith(v) : option === 'Contains' ? have.includes(v) : have === v,
      ),
    );
  });
}
