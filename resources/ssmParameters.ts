// The one lookup of SSM parameters: the account's own (`AWS::SSM::Parameter` rows of the world, with their version
// history) and AWS's public ones (`/aws/service/…`, in every account and region). SSM parameter types,
// `{{resolve:ssm:…}}` and the SSM API all read through it, so they agree on every value.
import type { WorldResource } from '../storage/world.js';
import {
  isPublicParameterName,
  publicParameter,
  publicParametersUnder,
  type PublicEntry,
} from './publicParameters/index.js';
import { partitionOf } from './regions.js';

/** A parameter as SSM's GetParameter shows it. */
export interface SsmParameterView {
  Name: string;
  Type: 'String' | 'StringList' | 'SecureString';
  Value: string;
  Version: number;
  DataType: string;
  ARN: string;
  LastModifiedDate: string;
}

/** What the lookup reads: the world rows of one account and region. */
export interface SsmWorld {
  get(account: string, region: string, type: string, physicalId: string): WorldResource | undefined;
  byName(account: string, region: string, type: string, name: string): WorldResource | undefined;
  list(filter: { type?: string; account?: string; region?: string }): WorldResource[];
}

export interface SsmScope {
  account: string;
  region: string;
}

const TYPE = 'AWS::SSM::Parameter';
// Public parameters carry no account in their ARN, and AWS has been updating them for years.
const PUBLIC_VERSION = 100;
const PUBLIC_MODIFIED = '2025-01-15T00:00:00.000Z';

const asText = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value ?? ''));
const arnOf = (scope: SsmScope, account: string, name: string) =>
  `arn:${partitionOf(scope.region)}:ssm:${scope.region}:${account}:parameter${name.startsWith('/') ? '' : '/'}${name}`;

function fromPublic(scope: SsmScope, entry: PublicEntry): SsmParameterView {
  return {
    Name: entry.name,
    Type: 'String',
    Value: entry.value,
    Version: PUBLIC_VERSION,
    DataType: entry.dataType,
    ARN: arnOf(scope, '', entry.name),
    LastModifiedDate: PUBLIC_MODIFIED,
  };
}

function fromRow(scope: SsmScope, row: WorldResource, version?: number): SsmParameterView | undefined {
  // rows made before versions were kept (or over the control API) have one version: the current value
  const versions = row.state.versions ?? [asText(row.properties.Value)];
  const at = version ?? versions.length;
  const value = versions[at - 1] as string | undefined;
  if (value === undefined) return undefined;
  const name = String(row.properties.Name ?? row.name ?? row.physicalId);
  const type =
    row.properties.Type === 'StringList' || row.properties.Type === 'SecureString' ? row.properties.Type : 'String';
  return {
    Name: name,
    Type: type,
    Value: value,
    Version: at,
    DataType: typeof row.properties.DataType === 'string' ? row.properties.DataType : 'text',
    ARN: arnOf(scope, scope.account, name),
    LastModifiedDate: row.createdAt,
  };
}

/**
 * The parameter of this name (or ARN) in the account and region, at a version when one is given; undefined when
 * there is none. Public parameters have one version, the current one.
 */
export function readSsmParameter(
  world: SsmWorld,
  scope: SsmScope,
  nameOrArn: string,
  version?: number,
): SsmParameterView | undefined {
  const name = parameterName(nameOrArn);
  const entry = publicParameter(scope.region, name);
  if (entry) return version === undefined || version === PUBLIC_VERSION ? fromPublic(scope, entry) : undefined;
  if (isPublicParameterName(name)) return undefined;
  // an ARN's `parameter/x` names `x` as well as `/x`
  const names = nameOrArn.startsWith('arn:') ? [name, name.slice(1)] : [name];
  const row = names
    .map((n) => world.get(scope.account, scope.region, TYPE, n) ?? world.byName(scope.account, scope.region, TYPE, n))
    .find(Boolean);
  return row ? fromRow(scope, row, version) : undefined;
}

/** The parameters under a path, as GetParametersByPath lists them (sorted by name). */
export function ssmParametersByPath(
  world: SsmWorld,
  scope: SsmScope,
  path: string,
  recursive: boolean,
): SsmParameterView[] {
  if (isPublicParameterName(path.endsWith('/') ? path : `${path}/`)) {
    return publicParametersUnder(scope.region, path, recursive).map((e) => fromPublic(scope, e));
  }
  const prefix = path === '/' ? '/' : path.endsWith('/') ? path : `${path}/`;
  return world
    .list({ type: TYPE, account: scope.account, region: scope.region })
    .flatMap((row) => fromRow(scope, row) ?? [])
    .filter((p) => p.Name.startsWith(prefix) && (recursive || !p.Name.slice(prefix.length).includes('/')))
    .sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
}

/** A parameter ARN (`arn:aws:ssm:<region>:<account>:parameter/<name>`) → its name; a name stays as it is. */
export function parameterName(nameOrArn: string): string {
  if (!nameOrArn.startsWith('arn:')) return nameOrArn;
  const at = nameOrArn.indexOf(':parameter/');
  return at < 0 ? nameOrArn : nameOrArn.slice(at + ':parameter'.length);
}

/**
 * SSM's refusal of a name reserved for AWS (`aws…` or `ssm…`, any case, as the first path segment), as PutParameter
 * answers it (ValidationException); undefined for a name a user may write.
 * https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_PutParameter.html
 */
export function reservedParameterNameMessage(name: string): string | undefined {
  const first = name.replace(/^\//, '').split('/')[0];
  if (!/^(aws|ssm)/i.test(first)) return undefined;
  return 'Parameter name: can\'t be prefixed with "aws" or "ssm" (case-insensitive). If formed as a path, it can consist of sub-paths divided by slash symbol; each sub-path can be formed as a mix of letters, numbers and the following 3 symbols .-_';
}
