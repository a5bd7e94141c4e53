// SSM parameters as world rows: the `AWS::SSM::Parameter` rows that stacks create, that `{{resolve:ssm:…}}` reads,
// and that the SSM API reads and writes (value history in state.versions, dates in state.versionDates, labels).
import type { Store } from '../../storage/index.js';
import type { WorldResource } from '../../storage/world.js';
import type { Caller } from '../../state-machine/engine.js';
import { partitionOf } from '../../resources/regions.js';
import { readSsmParameter, ssmParametersByPath, type SsmParameterView } from '../../resources/ssmParameters.js';
import { isPublicParameterName } from '../../resources/publicParameters/index.js';

export const PARAMETER_TYPE = 'AWS::SSM::Parameter';

/** One version of a parameter, as the SSM API shows it. */
export interface ParameterVersion {
  Name: string;
  Type: string;
  Value: string;
  Version: number;
  LastModifiedDate: Date;
  ARN: string;
  DataType: string;
  Labels: string[];
  /** The world row; absent for AWS's public parameters (`/aws/service/…`). */
  row?: WorldResource;
}

export const asText = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value ?? ''));

export function parameterArn(caller: Caller, name: string): string {
  return `arn:${partitionOf(caller.region)}:ssm:${caller.region}:${caller.account}:parameter${name.startsWith('/') ? '' : '/'}${name}`;
}

/** A name or ARN without its `:version` / `:label` selector, and that selector. */
export function splitSelector(nameOrArn: string): { name: string; selector?: string } {
  const start = nameOrArn.startsWith('arn:') ? nameOrArn.indexOf(':parameter/') + ':parameter/'.length : 0;
  const colon = nameOrArn.indexOf(':', Math.max(start, 0));
  const bare = colon === -1 ? nameOrArn : nameOrArn.slice(0, colon);
  const name = bare.startsWith('arn:') && start > 0 ? arnName(bare, start) : bare;
  return colon === -1 ? { name } : { name, selector: nameOrArn.slice(colon + 1) };
}

// `arn:…:parameter/a/b` names `/a/b`; `arn:…:parameter/a` names `a` (a name without a leading slash).
const arnName = (arn: string, start: number) => {
  const rest = arn.slice(start);
  return rest.includes('/') ? `/${rest}` : rest;
};

export function findRow(store: Store, caller: Caller, name: string): WorldResource | undefined {
  const { account, region } = caller;
  return (
    store.world.get(account, region, PARAMETER_TYPE, name) ??
    store.world.byName(account, region, PARAMETER_TYPE, name) ??
    (name.startsWith('/') ? undefined : store.world.get(account, region, PARAMETER_TYPE, `/${name}`))
  );
}

export function versionCount(row: WorldResource): number {
  return row.state.versions?.length ?? 1;
}

/** Version `version` (1-based) of the row, or undefined when it does not exist. */
export function versionOf(
  caller: Caller,
  row: WorldResource,
  version = versionCount(row),
): ParameterVersion | undefined {
  const values = row.state.versions ?? [asText(row.properties.Value)];
  const value = values[version - 1] as string | undefined;
  if (value === undefined) return undefined;
  const name = String(row.properties.Name ?? row.name ?? row.physicalId);
  const date = row.state.versionDates?.[version - 1] ?? row.createdAt;
  return {
    Name: name,
    Type: String(row.properties.Type ?? 'String'),
    Value: value,
    Version: version,
    LastModifiedDate: new Date(date),
    ARN: parameterArn(caller, name),
    DataType: typeof row.properties.DataType === 'string' ? row.properties.DataType : 'text',
    Labels: Object.entries(row.state.labels ?? {})
      .filter(([, v]) => v === version)
      .map(([label]) => label),
    row,
  };
}

/** Every parameter row of the caller's account and region, sorted by name. */
export function allRows(store: Store, caller: Caller): WorldResource[] {
  return store.world
    .list({ type: PARAMETER_TYPE, account: caller.account, region: caller.region })
    .sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
}

export const nameOf = (row: WorldResource) => String(row.properties.Name ?? row.name ?? row.physicalId);

/** Writes a new version (or the first one) of a parameter, keeping the history and labels. */
export function writeVersion(
  store: Store,
  caller: Caller,
  existing: WorldResource | undefined,
  name: string,
  properties: Record<string, unknown>,
  now: Date,
): number {
  const versions = existing ? [...(existing.state.versions ?? [asText(existing.properties.Value)])] : [];
  const dates = existing ? [...(existing.state.versionDates ?? [])] : [];
  while (dates.length < versions.length) dates.push(existing!.createdAt);
  versions.push(asText(properties.Value));
  dates.push(now.toISOString());
  const row: WorldResource = existing
    ? {
        ...existing,
        properties: { ...existing.properties, ...properties },
        state: { ...existing.state, versions, versionDates: dates },
      }
    : {
        account: caller.account,
        region: caller.region,
        type: PARAMETER_TYPE,
        physicalId: name,
        name,
        createdAt: now.toISOString(),
        properties: { Name: name, ...properties },
        attributes: { Type: properties.Type, Value: properties.Value },
        state: { versions, versionDates: dates },
      };
  row.attributes = { ...row.attributes, Type: row.properties.Type, Value: row.properties.Value };
  store.world.put(row);
  return versions.length;
}

const fromPublic = (view: SsmParameterView): ParameterVersion => ({
  ...view,
  LastModifiedDate: new Date(view.LastModifiedDate),
  Labels: [],
});

/** One of AWS's public parameters (`/aws/service/…`), read through the lookup the template language uses. */
export function publicVersion(
  store: Store,
  caller: Caller,
  name: string,
  version?: number,
): ParameterVersion | undefined {
  if (!isPublicParameterName(name)) return undefined;
  const view = readSsmParameter(store.world, caller, name, version);
  return view && fromPublic(view);
}

/** AWS's public parameters under a path, or undefined when the path is not theirs. */
export function publicUnder(
  store: Store,
  caller: Caller,
  path: string,
  recursive: boolean,
): ParameterVersion[] | undefined {
  if (!isPublicParameterName(path.endsWith('/') ? path : `${path}/`)) return undefined;
  return ssmParametersByPath(store.world, caller, path, recursive).map(fromPublic);
}
