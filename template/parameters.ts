// Parameter values for one operation: given ∪ previous ∪ defaults, typed and checked against the constraints
// with AWS's messages; AWS-specific types checked against the simulated account; SSM types resolved from it.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/parameters-section-structure.html
import { echo, validationError } from '../domain/errors.js';
import type { ParameterDef } from './model.js';
import type { ParameterValue } from './intrinsics/context.js';

export interface GivenParameter {
  ParameterKey?: string;
  ParameterValue?: string;
  UsePreviousValue?: boolean;
}

export interface ResolvedParameter {
  key: string;
  /** The value as a string, as DescribeStacks shows it (before NoEcho masking). */
  raw: string;
  value: ParameterValue;
  resolvedValue?: string;
  noEcho: boolean;
}

/** Looks an SSM parameter up in the simulated account (for AWS::SSM::Parameter::Value<…> types). */
export type SsmLookup = (name: string) => string | undefined;

/** What parameter resolution may read from the simulated account. */
export interface ParameterWorld {
  ssm?: SsmLookup;
  /** Whether a physical resource of a type with this id (or name) exists; undefined when unknown. */
  exists?: (type: string, id: string) => boolean | undefined;
  availabilityZones?: () => string[];
  /** ResolvedValue of SSM-typed parameters from when a stored template was deployed (rollback, recovery). */
  previouslyResolved?: Map<string, string>;
}

/**
 * AWS-specific parameter types → the world type whose physical id (or name) a value must be. AMIs are not
 * resources of the simulated account, so image ids are only checked for shape.
 */
export const AWS_SPECIFIC_TYPES: Record<string, string | undefined> = {
  'AWS::EC2::AvailabilityZone::Name': undefined,
  'AWS::EC2::Image::Id': undefined,
  'AWS::EC2::Instance::Id': 'AWS::EC2::Instance',
  'AWS::EC2::KeyPair::KeyName': 'AWS::EC2::KeyPair',
  'AWS::EC2::SecurityGroup::GroupName': 'AWS::EC2::SecurityGroup',
  'AWS::EC2::SecurityGroup::Id': 'AWS::EC2::SecurityGroup',
  'AWS::EC2::Subnet::Id': 'AWS::EC2::Subnet',
  'AWS::EC2::Volume::Id': 'AWS::EC2::Volume',
  'AWS::EC2::VPC::Id': 'AWS::EC2::VPC',
  'AWS::Route53::HostedZone::Id': 'AWS::Route53::HostedZone',
};
const SSM_VALUE = /^AWS::SSM::Parameter::Value<(.+)>$/;
// List<String> is missing from AWS's documentation but accepted: a run recorded against AWS passes `foo,bar` and
// reads `foo|bar` back through `!Join ["|", !Ref P]` (LocalStack's AWS-validated parameter tests).
const SIMPLE_TYPES = new Set([
  'String',
  'Number',
  'List<Number>',
  'List<String>',
  'CommaDelimitedList',
  'AWS::SSM::Parameter::Name',
]);
const LIST = /^List<(.+)>$/;

const isAwsSpecific = (t: string) => Object.hasOwn(AWS_SPECIFIC_TYPES, t);

export function isKnownParameterType(type: string): boolean {
  if (SIMPLE_TYPES.has(type) || isAwsSpecific(type)) return true;
  const list = LIST.exec(type);
  if (list) return isAwsSpecific(list[1]);
  const ssm = SSM_VALUE.exec(type);
  if (!ssm) return false;
  const inner = ssm[1];
  return (
    inner === 'String' ||
    inner === 'List<String>' ||
    inner === 'CommaDelimitedList' ||
    (isKnownParameterType(inner) && !SSM_VALUE.test(inner) && !SIMPLE_TYPES.has(inner))
  );
}

const isListType = (type: string) =>
  type === 'CommaDelimitedList' ||
  type.startsWith('List<') ||
  /^AWS::SSM::Parameter::Value<(List<.*>|CommaDelimitedList)>$/.test(type);

export const MAX_PARAMETER_VALUE_BYTES = 4096;

export function resolveParameters(
  declared: Record<string, ParameterDef>,
  given: GivenParameter[] = [],
  previous: Map<string, string> = new Map(),
  world: ParameterWorld = {},
): ResolvedParameter[] {
  for (const def of Object.values(declared)) {
    if (typeof def.Type !== 'string' || !isKnownParameterType(def.Type)) {
      throw validationError(`Template format error: Unrecognized parameter type: ${echo(def.Type)}`);
    }
  }
  const undeclared = given.map((g) => g.ParameterKey ?? '').filter((k) => !Object.hasOwn(declared, k));
  if (undeclared.length)
    throw validationError(`Parameters: [${undeclared.map(echo).join(', ')}] do not exist in the template`);
  const byKey = new Map(given.map((g) => [g.ParameterKey as string, g]));
  const raw = new Map<string, string>();
  const missing: string[] = [];
  for (const [name, def] of Object.entries(declared)) {
    const g = byKey.get(name);
    if (g?.UsePreviousValue && g.ParameterValue !== undefined) {
      throw validationError(
        `Invalid input for parameter key ${name}. Cannot specify usePreviousValue as true and non empty value for a parameter key in the same request`,
      );
    }
    const value = g?.UsePreviousValue ? previous.get(name) : (g?.ParameterValue ?? defaultOf(def));
    if (g?.UsePreviousValue && value === undefined) {
      throw validationError(
        `Invalid input for parameter key ${name}. Cannot specify usePreviousValue as true for a parameter key not in the previous template`,
      );
    }
    if (value === undefined) missing.push(name);
    else raw.set(name, value);
  }
  if (missing.length) throw validationError(`Parameters: [${missing.map(echo).join(', ')}] must have values`);
  // AWS CloudFormation quotas: "Parameter value: 4,096 bytes" (bytes of UTF-8, not characters).
  for (const [name, value] of raw) {
    if (Buffer.byteLength(value) > MAX_PARAMETER_VALUE_BYTES) {
      throw validationError(`Parameter '${name}' must contain at most ${MAX_PARAMETER_VALUE_BYTES} bytes`);
    }
  }
  const unfetched = Object.entries(declared)
    .filter(([name, def]) => SSM_VALUE.test(def.Type) && ssmValue(name, raw.get(name)!, world) === undefined)
    .map(([name]) => raw.get(name)!);
  if (unfetched.length)
    throw validationError(`Unable to fetch parameters [${unfetched.join(',')}] from parameter store for this account.`);
  return Object.entries(declared).map(([name, def]) => typed(name, def, raw.get(name) as string, world));
}

function ssmValue(key: string, name: string, world: ParameterWorld): string | undefined {
  return world.previouslyResolved?.get(key) ?? world.ssm?.(name);
}

function defaultOf(def: ParameterDef): string | undefined {
  if (def.Default === undefined || def.Default === null) return undefined;
  return Array.isArray(def.Default) ? def.Default.join(',') : String(def.Default);
}

function typed(name: string, def: ParameterDef, raw: string, world: ParameterWorld): ResolvedParameter {
  const noEcho = def.NoEcho === true || def.NoEcho === 'true';
  const ssmType = SSM_VALUE.exec(def.Type);
  if (ssmType) {
    const resolved = ssmValue(name, raw, world)!;
    const value = isListType(def.Type) ? resolved.split(',') : resolved;
    return { key: name, raw, value, resolvedValue: resolved, noEcho };
  }
  const value: ParameterValue = isListType(def.Type)
    ? raw === ''
      ? []
      : raw.split(',').map((v) => (def.Type === 'CommaDelimitedList' ? v : v.trim()))
    : raw;
  checkConstraints(name, def, value);
  checkExists(name, def.Type, value, world);
  return { key: name, raw, value, noEcho };
}

/** AWS checks that an AWS-specific value names something that exists in the account. */
function checkExists(name: string, type: string, value: ParameterValue, world: ParameterWorld): void {
  const itemType = LIST.exec(type)?.[1] ?? type;
  if (!isAwsSpecific(itemType)) return;
  for (const item of Array.isArray(value) ? value : [value]) {
    if (item === '') continue;
    const worldType = AWS_SPECIFIC_TYPES[itemType];
    const found =
      itemType === 'AWS::EC2::AvailabilityZone::Name'
        ? world.availabilityZones?.().includes(item)
        : worldType
          ? world.exists?.(worldType, item)
          : undefined;
    if (found === false) {
      throw validationError(
        `Parameter validation failed: parameter value ${item} for parameter name ${name} does not exist.`,
      );
    }
  }
}

function checkConstraints(name: string, def: ParameterDef, value: ParameterValue): void {
  const items = Array.isArray(value) ? value : [value];
  const numeric = def.Type === 'Number' || def.Type === 'List<Number>';
  for (const item of items) {
    if (numeric && (item.trim() === '' || !Number.isFinite(Number(item)))) {
      throw validationError(`Parameter '${name}' must be a number.`);
    }
    // With a ConstraintDescription AWS leaves the name unquoted: "Parameter InstanceType failed to satisfy
    // constraint: must be a valid EC2 instance type." (public AWS output, quoted in CloudFormation messages).
    const fail = (message: string) =>
      validationError(
        def.ConstraintDescription
          ? `Parameter ${name} failed to satisfy constraint: ${def.ConstraintDescription}`
          : message,
      );
    if (def.AllowedValues && !def.AllowedValues.map(String).includes(item)) {
      throw fail(`Parameter '${name}' must be one of AllowedValues`);
    }
    if (def.AllowedPattern !== undefined && !matchesPattern(def.AllowedPattern, item)) {
      throw fail(`Parameter '${name}' must match pattern ${def.AllowedPattern}`);
    }
    if (def.MinLength !== undefined && item.length < Number(def.MinLength)) {
      throw fail(`Parameter '${name}' must contain at least ${def.MinLength} characters`);
    }
    if (def.MaxLength !== undefined && item.length > Number(def.MaxLength)) {
      throw fail(`Parameter '${name}' must contain at most ${def.MaxLength} characters`);
    }
    if (def.MinValue !== undefined && Number(item) < Number(def.MinValue)) {
      throw fail(`Parameter '${name}' must be a number not less than ${def.MinValue}`);
    }
    if (def.MaxValue !== undefined && Number(item) > Number(def.MaxValue)) {
      throw fail(`Parameter '${name}' must be a number not greater than ${def.MaxValue}`);
    }
  }
}

/** AllowedPattern is a Java regex over the whole value; one AWS could not compile refuses the template. */
function matchesPattern(pattern: string, value: string): boolean {
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    try {
      re = new RegExp(`^(?:${pattern})$`);
    } catch {
      throw validationError(
        `Template format error: AllowedPattern ${echo(pattern)} is not a valid regular expression.`,
      );
    }
  }
  return re.test(value);
}
