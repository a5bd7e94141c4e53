// Dynamic references `{{resolve:ssm:…}}`, `{{resolve:ssm-secure:…}}` and `{{resolve:secretsmanager:…}}`: values
// read from the simulated account. Literal SSM references are checked at the call (AWS refuses the call when the
// parameter is missing); every reference is resolved when the resource's properties are evaluated.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/dynamic-references.html
import { validationError } from '../domain/errors.js';
import { TemplateError } from './intrinsics/context.js';

export interface DynamicSources {
  /** The value of an SSM parameter by name (or ARN), at a version when one is given, or undefined. */
  ssm(name: string, version?: number): string | undefined;
  /** The SecretString of a Secrets Manager secret by name or ARN, or undefined. */
  secret(id: string): string | undefined;
}

const REFERENCE = /\{\{resolve:(ssm|ssm-secure|secretsmanager):([^{}]*)\}\}/g;
const VERSIONED = /^(.*?)(?::(\d+))?$/;

/** `name[:version]`; a parameter ARN keeps its colons. */
function ssmParts(spec: string): { name: string; version?: number } {
  let rest = spec;
  if (spec.startsWith('arn:')) {
    const at = spec.indexOf(':parameter/');
    rest = at < 0 ? spec : spec.slice(at + ':parameter'.length);
  }
  const [, name, version] = VERSIONED.exec(rest)! as (string | undefined)[] as [string, string, string | undefined];
  return { name, version: version === undefined ? undefined : Number(version) };
}

const ssmName = (spec: string) => ssmParts(spec).name;

/** `secret-id:SecretString:json-key:version-stage:version-id`; a secret ARN is its first seven fields. */
function secretParts(spec: string): { id: string; key?: string } {
  const fields = spec.split(':');
  const idLength = spec.startsWith('arn:') ? 7 : 1;
  const id = fields.slice(0, idLength).join(':');
  const [kind, key] = fields.slice(idLength) as (string | undefined)[];
  if (kind !== undefined && kind !== '' && kind !== 'SecretString') {
    throw new TemplateError(
      `Invalid dynamic reference {{resolve:secretsmanager:${spec}}}: only SecretString is supported.`,
      true,
    );
  }
  return { id, key: key || undefined };
}

function resolveOne(service: string, spec: string, sources: DynamicSources): string {
  if (service === 'secretsmanager') {
    const { id, key } = secretParts(spec);
    const secret = sources.secret(id);
    if (secret === undefined) {
      throw new TemplateError(
        "Secrets Manager can't find the specified secret. (Service: AWSSecretsManager; Status Code: 400; Error Code: ResourceNotFoundException)",
        true,
      );
    }
    if (key === undefined) return secret;
    let parsed: unknown;
    try {
      parsed = JSON.parse(secret);
    } catch {
      throw new TemplateError(`Could not parse SecretString JSON for secret ${id}`, true);
    }
    const value = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[key] : undefined;
    if (value === undefined)
      throw new TemplateError(`Could not find SecretString JSON key ${key} in secret ${id}`, true);
    return typeof value === 'string' ? value : JSON.stringify(value);
  }
  const { name, version } = ssmParts(spec);
  const value = sources.ssm(name, version);
  if (value === undefined)
    throw version === undefined ? missingSsm(service, spec) : missingVersion(service, name, version);
  return value;
}

const missingSsm = (service: string, spec: string) =>
  validationError(`Parameters: [${service}:${ssmName(spec)}] cannot be found.`);
const missingVersion = (service: string, name: string, version: number) =>
  validationError(`Parameters: [${service}:${name}:${version}] cannot be found.`);

/** Replaces every dynamic reference in a string with its value. */
export function resolveDynamicReferences(text: string, sources: DynamicSources): string {
  return text.replace(REFERENCE, (_, service: string, spec: string) => resolveOne(service, spec, sources));
}

/** At the call: every literal SSM reference in the values given must name an existing parameter. */
export function checkDynamicReferences(values: unknown[], sources: DynamicSources): void {
  const stack = [...values];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      for (const [, service, spec] of v.matchAll(REFERENCE)) {
        if (service === 'secretsmanager' || spec.includes('${')) continue;
        const { name, version } = ssmParts(spec);
        if (sources.ssm(name, version) === undefined)
          throw version === undefined ? missingSsm(service, spec) : missingVersion(service, name, version);
      }
    } else if (v !== null && typeof v === 'object') stack.push(...Object.values(v as Record<string, unknown>));
  }
}
