// The IaC generator's runs: a resource scan snapshots the account's resources (every world row of the account and
// region, Retain leftovers included, CloudFormation's own types and custom resources left out), and a generated
// template reads the chosen resources' actual properties. Both settle in the background on the app's timers.
import { v4 as uuidv4 } from 'uuid';
import { AwsError, echo, stackIdNotFound, validationError } from '../domain/errors.js';
import type {
  GeneratedResourceRecord,
  GeneratedTemplateRecord,
  ResourceScanRecord,
  Store,
  WorldResource,
} from '../storage/index.js';
import { identifierOf, logicalIdsFor, readResource } from '../resources/generator/template.js';
import { REAL_TIMERS, type Timers } from '../resources/timers.js';
import type { Caller } from './engine.js';
import type { Clock } from './transitions.js';

export interface GeneratorDeps {
  store: Store;
  clock: Clock;
  timers?: Timers;
}

/** Types a scan never lists: CloudFormation's own, and custom resources (they exist only in their stacks). */
const NOT_SCANNED = (type: string) => type.startsWith('AWS::CloudFormation::') || !type.startsWith('AWS::');

/** The next step of a run, in the background; a store closed meanwhile (the server stopping) ends the run. */
const later = (deps: GeneratorDeps, fn: () => void) =>
  (deps.timers ?? REAL_TIMERS).setTimeout(() => {
    try {
      fn();
    } catch {
      // the run stays where it was, as one interrupted by a stop would
    }
  }, 0);

/** `AWS::S3::*` matches every S3 type, as ScanFilters' Types do. */
const matches = (pattern: string, type: string) =>
  pattern.endsWith('*') ? type.startsWith(pattern.slice(0, -1)) : pattern === type;

export function startResourceScan(deps: GeneratorDeps, caller: Caller, scanFilters?: { Types?: string[] }[]): string {
  const { store } = deps;
  if (store.generator.scans(caller.account, caller.region).some((s) => s.status === 'IN_PROGRESS')) {
    throw new AwsError('ResourceScanInProgress', 'A resource scan is already in progress in this account and region.');
  }
  const types = scanFilters?.flatMap((f) => f.Types ?? []) ?? [];
  const live = (row: WorldResource) => {
    const stack = row.stackId ? store.stacks.byId(row.stackId) : undefined;
    return !!stack && stack.status !== 'DELETE_COMPLETE';
  };
  const resources = store.world
    .list({ account: caller.account, region: caller.region })
    .filter((row) => !NOT_SCANNED(row.type) && (!types.length || types.some((t) => matches(t, row.type))))
    .map((row) => ({
      ResourceType: row.type,
      ResourceIdentifier: identifierOf(row.type, row.physicalId),
      ManagedByStack: live(row),
      physicalId: row.physicalId,
      tags: tagsOf(row.properties.Tags),
    }));
  const scan: ResourceScanRecord = {
    id: `arn:aws:cloudformation:${caller.region}:${caller.account}:resourceScan/${uuidv4()}`,
    account: caller.account,
    region: caller.region,
    startedAt: deps.clock.now().toISOString(),
    status: 'IN_PROGRESS',
    scanFilters: scanFilters?.length ? scanFilters : undefined,
    resources,
  };
  store.generator.saveScan(scan);
  later(deps, () => {
    store.generator.saveScan({ ...scan, status: 'COMPLETE', endedAt: deps.clock.now().toISOString() });
  });
  return scan.id;
}

/** Tags as a list of Key/Value (a template may give a map, as SSM parameters' Tags are). */
function tagsOf(tags: unknown): { Key: string; Value: string }[] {
  if (Array.isArray(tags))
    return tags.map((t: { Key?: unknown; Value?: unknown }) => ({ Key: String(t.Key), Value: String(t.Value) }));
  if (tags && typeof tags === 'object')
    return Object.entries(tags).map(([Key, Value]) => ({ Key, Value: String(Value) }));
  return [];
}

export interface ResourceDefinitionInput {
  ResourceType: string;
  LogicalResourceId?: string;
  ResourceIdentifier: Record<string, string>;
}

/** The generated template's resources: each identifier resolved to the world row it names. */
function definitions(
  store: Store,
  caller: Caller,
  defs: ResourceDefinitionInput[],
  existing: readonly string[] = [],
): GeneratedResourceRecord[] {
  const rows = defs.map((d) => {
    const id = Object.values(d.ResourceIdentifier).at(0) ?? '';
    const row =
      store.world.get(caller.account, caller.region, d.ResourceType, id) ??
      store.world.byName(caller.account, caller.region, d.ResourceType, id);
    return { d, row, physicalId: row?.physicalId ?? id };
  });
  const ids = logicalIdsFor(
    rows.map((r) => ({ type: r.d.ResourceType, physicalId: r.physicalId, given: r.d.LogicalResourceId })),
    existing,
  );
  return rows.map((r, i) => ({
    ResourceType: r.d.ResourceType,
    LogicalResourceId: ids[i],
    ResourceIdentifier: r.d.ResourceIdentifier,
    physicalId: r.row?.physicalId,
    warnings: [],
  }));
}

export interface TemplateChange {
  name?: string;
  add?: ResourceDefinitionInput[];
  remove?: string[];
  refresh?: boolean;
  deletionPolicy?: string;
  updateReplacePolicy?: string;
}

export function createGeneratedTemplate(
  deps: GeneratorDeps,
  caller: Caller,
  name: string,
  change: TemplateChange & { stackName?: string },
): string {
  const { store } = deps;
  checkNameFree(store, caller, name);
  let stackId: string | undefined;
  if (change.stackName !== undefined) {
    const stack = change.stackName.startsWith('arn:')
      ? store.stacks.byId(change.stackName)
      : store.stacks.liveByName(caller.account, caller.region, change.stackName);
    if (!stack || stack.account !== caller.account || stack.region !== caller.region) {
      throw stackIdNotFound(change.stackName);
    }
    stackId = stack.stackId;
  }
  const now = deps.clock.now().toISOString();
  const t: GeneratedTemplateRecord = {
    id: `arn:aws:cloudformation:${caller.region}:${caller.account}:generatedTemplate/${uuidv4()}`,
    account: caller.account,
    region: caller.region,
    name,
    createdAt: now,
    updatedAt: now,
    status: 'CREATE_PENDING',
    stackId,
    deletionPolicy: change.deletionPolicy ?? 'RETAIN',
    updateReplacePolicy: change.updateReplacePolicy ?? 'RETAIN',
    resources: definitions(store, caller, change.add ?? []),
  };
  store.generator.saveTemplate(t);
  advanceTemplateLater(deps, t, 'CREATE_IN_PROGRESS');
  return t.id;
}

export function updateGeneratedTemplate(
  deps: GeneratorDeps,
  t: GeneratedTemplateRecord,
  change: TemplateChange,
): string {
  const { store } = deps;
  const caller = { account: t.account, region: t.region };
  if (change.name !== undefined && change.name !== t.name) checkNameFree(store, caller, change.name);
  const kept = t.resources.filter((r) => !change.remove?.includes(r.LogicalResourceId));
  const added = definitions(
    store,
    caller,
    change.add ?? [],
    kept.map((k) => k.LogicalResourceId),
  );
  const updated: GeneratedTemplateRecord = {
    ...t,
    name: change.name ?? t.name,
    deletionPolicy: change.deletionPolicy ?? t.deletionPolicy,
    updateReplacePolicy: change.updateReplacePolicy ?? t.updateReplacePolicy,
    resources: [...kept.map((r) => (change.refresh ? { ...r, properties: undefined } : r)), ...added],
    status: 'UPDATE_PENDING',
    updatedAt: deps.clock.now().toISOString(),
  };
  store.generator.saveTemplate(updated);
  advanceTemplateLater(deps, updated, 'UPDATE_IN_PROGRESS');
  return t.id;
}

/** PENDING → IN_PROGRESS → COMPLETE: each resource not yet read is read from the account as it is then. */
function advanceTemplateLater(
  deps: GeneratorDeps,
  t: GeneratedTemplateRecord,
  running: GeneratedTemplateRecord['status'],
) {
  const { store } = deps;
  later(deps, () => {
    const current = store.generator.template(t.id);
    if (!current || current.updatedAt !== t.updatedAt) return; // deleted or changed again meanwhile
    store.generator.saveTemplate({ ...current, status: running });
    later(deps, () => {
      const now = store.generator.template(t.id);
      if (!now || now.updatedAt !== t.updatedAt) return;
      const resources = now.resources.map((r) =>
        r.properties
          ? r
          : {
              ...r,
              ...readResource(
                r.physicalId ? store.world.get(now.account, now.region, r.ResourceType, r.physicalId) : undefined,
              ),
            },
      );
      const status = resources.some((r) => r.failure) ? 'FAILED' : 'COMPLETE';
      store.generator.saveTemplate({ ...now, resources, status, updatedAt: deps.clock.now().toISOString() });
    });
  });
}

function checkNameFree(store: Store, caller: Caller, name: string): void {
  if (store.generator.templateByName(caller.account, caller.region, name)) {
    throw new AwsError('AlreadyExistsException', `A generated template with the name ${echo(name)} already exists.`);
  }
}

export function deleteGeneratedTemplate(store: Store, t: GeneratedTemplateRecord): void {
  if (t.status.endsWith('_IN_PROGRESS')) {
    throw validationError(`Generated template ${echo(t.name)} cannot be deleted while it is ${t.status}.`);
  }
  store.generator.remove(t.id);
}
