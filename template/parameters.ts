// Parameter values for one operation: given ∪ previous ∪ defaults, typed and checked against the constraints
// with AWS's messages.
import { validationError } from '../server/protocol/errors.js';
import type { ParameterDef, TemplateModel } from './model.js';
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

const SSM_VALUE = /^AWS::SSM::Parameter::Value<(.+)>$/;
const SIMPLE_TYPES = new Set(['String', 'Number', 'List<Number>', 'CommaDelimitedList', 'AWS::SSM::Parameter::Name']);

function isKnownType(type: string): boolean {
  return SIMPLE_TYPES.has(type) || SSM_VALUE.test(type) || /^(List<)?AWS::[A-Za-z0-9]+::[A-Za-z0-9:]+>?$/.test(type);
}

const isListType = (type: string) =>
  type === 'CommaDelimitedList' || type.startsWith('List<') || /^AWS::SSM::Parameter::Value<(List<.*>|CommaDelimitedList)>$/.test(type);

export function resolveParameters(
  model: TemplateModel,
  given: GivenParameter[] = [],
  previous: Map<string, string> = new Map(),
  ssm: SsmLookup = () => undefined,
): ResolvedParameter[] {
  const declared = model.parameters;
  for (const [name, def] of Object.entries(declared)) {
    if (typeof def.Type !== 'string' || !isKnownType(def.Type)) {
      throw validationError(`Template format error: Unrecognized parameter type: ${String(def.Type)}`);
    }
  }
  const undeclared = given.map((g) => g.ParameterKey ?? '').filter((k) => !(k in declared));
  if (undeclared.length) throw validationError(`Parameters: [${undeclared.join(', ')}] do not exist in the template`);
  const byKey = new Map(given.map((g) => [g.ParameterKey as string, g]));
  const raw = new Map<string, string>();
  const missing: string[] = [];
  for (const [name, def] of Object.entries(declared)) {
    const g = byKey.get(name);
    const value = g?.UsePreviousValue ? previous.get(name) : g?.ParameterValue ?? defaultOf(def);
    if (g?.UsePreviousValue && value === undefined) {
      throw validationError(`Invalid input for parameter key ${name}. Cannot specify usePreviousValue as true for a parameter key not in the previous template`);
    }
    if (value === undefined) missing.push(name);
    else raw.set(name, value);
  }
  if (missing.length) throw validationError(`Parameters: [${missing.join(', ')}] must have values`);
  return Object.entries(declared).map(([name, def]) => typed(name, def, raw.get(name) as string, ssm));
}

function defaultOf(def: ParameterDef): string | undefined {
  if (def.Default === undefined || def.Default === null) return undefined;
  return Array.isArray(def.Default) ? def.Default.join(',') : String(def.Default);
}

function typed(name: string, def: ParameterDef, raw: string, ssm: SsmLookup): ResolvedParameter {
  const noEcho = def.NoEcho === true || def.NoEcho === 'true';
  const ssmType = SSM_VALUE.exec(def.Type);
  if (ssmType) {
    const resolved = ssm(raw);
    if (resolved === undefined) {
      throw validationError(`Parameter ${name} should either have input value or default value`);
    }
    const value = isListType(def.Type) ? resolved.split(',') : resolved;
    return { key: name, raw, value, resolvedValue: resolved, noEcho };
  }
  const value: ParameterValue = isListType(def.Type) ? (raw === '' ? [] : raw.split(',')) : raw;
  checkConstraints(name, def, value);
  return { key: name, raw, value, noEcho };
}

function checkConstraints(name: string, def: ParameterDef, value: ParameterValue): void {
  const items = Array.isArray(value) ? value : [value];
  const numeric = def.Type === 'Number' || def.Type === 'List<Number>';
  for (const item of items) {
    if (numeric && (item.trim() === '' || !Number.isFinite(Number(item)))) {
      throw validationError(`Parameter '${name}' must be a number.`);
    }
    const fail = (message: string) =>
      validationError(def.ConstraintDescription
        ? `Parameter '${name}' failed to satisfy constraint: ${def.ConstraintDescription}`
        : message);
    if (def.AllowedValues && !def.AllowedValues.map(String).includes(item)) {
      throw fail(`Parameter '${name}' must be one of AllowedValues`);
    }
    if (def.AllowedPattern !== undefined && !new RegExp(`^(?:${def.AllowedPattern})$`).test(item)) {
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
