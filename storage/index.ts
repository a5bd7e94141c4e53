// The storage facade: one object holding every repository over one database.
import { openDb, GroupCommit, type Db } from './db.js';
import { StackStore } from './stacks.js';
import { ResourceStore } from './resources.js';
import { EventStore } from './events.js';
import { TemplateStore } from './templates.js';
import { ExportStore } from './exports.js';
import { SecretStore } from './secrets.js';
import { JournalStore } from './journal.js';
import { WorldStore } from './world.js';
import { ChangeSetStore } from './changeSets.js';
import { TransformOutputStore } from './transformOutputs.js';
import { ObjectStore } from './objects.js';
import { WaitStore } from './waits.js';
import { ChangeFeed } from './feed.js';
import { OperationHistoryStore } from './operationHistory.js';
import { DriftStore } from './drifts.js';
import { GeneratorStore } from './generator.js';
import { StackSetStore } from './stackSets.js';
import { RefactorStore } from './refactors.js';
import { HookResultStore } from './hookResults.js';
import { RegistryStore } from './registry.js';
import { MemoryBodies, openBodies, type BodyStore } from './bodies.js';

/**
 * What a CloudFormation handler may read (HandlerContext.store): stacks, their resources, events, templates, exports
 * and change sets, and none of their writes, which go through the state machine and its doors.
 */
export interface ReadonlyStore {
  readonly stacks: Pick<StackStore, 'byId' | 'liveByName' | 'page'>;
  readonly resources: Pick<ResourceStore, 'byStack' | 'one' | 'byPhysicalId'>;
  readonly events: Pick<EventStore, 'page' | 'pageOfOperations'>;
  readonly history: Pick<OperationHistoryStore, 'ofChangeSet' | 'byId' | 'latestOf'>;
  readonly drifts: Pick<DriftStore, 'detection' | 'latestDetection' | 'latestComplete' | 'resources' | 'resource'>;
  readonly generator: Pick<GeneratorStore, 'scan' | 'template' | 'templateByName' | 'scans' | 'templates'>;
  readonly refactors: Pick<RefactorStore, 'byId' | 'list'>;
  readonly hookResults: Pick<HookResultStore, 'byId' | 'list'>;
  readonly registry: Pick<
    RegistryStore,
    'type' | 'types' | 'registration' | 'registrations' | 'configurations' | 'publisher' | 'catalogue'
  >;
  readonly templates: Pick<TemplateStore, 'body'>;
  readonly stackSets: Pick<
    StackSetStore,
    | 'set'
    | 'activeByName'
    | 'sets'
    | 'instance'
    | 'instances'
    | 'operation'
    | 'operations'
    | 'results'
    | 'organizationOf'
  >;
  readonly exports: Pick<ExportStore, 'get' | 'list' | 'importers' | 'byStack'>;
  readonly changeSets: Pick<ChangeSetStore, 'byId' | 'byName' | 'byStack'>;
  /** The S3 objects a TemplateURL or policy URL names (resources/s3Urls.ts). */
  readonly world: Pick<WorldStore, 'byNameInAccount' | 'get'>;
  readonly objects: Pick<ObjectStore, 'get'>;
  readonly bodies: Pick<BodyStore, 'read'>;
}

export class Store {
  readonly stacks: StackStore;
  readonly resources: ResourceStore;
  readonly events: EventStore;
  readonly templates: TemplateStore;
  readonly exports: ExportStore;
  readonly journal: JournalStore;
  readonly world: WorldStore;
  readonly changeSets: ChangeSetStore;
  readonly secrets: SecretStore;
  readonly transformOutputs: TransformOutputStore;
  /** S3 objects' metadata rows; their bytes are in `bodies`. */
  readonly objects: ObjectStore;
  /** What running operations' waits need across a restart (resources/signalHub.ts). */
  readonly waits: WaitStore;
  /** The operations each stack has run, kept after they end (DescribeEvents). */
  readonly history: OperationHistoryStore;
  /** Drift detections and each resource's latest result. */
  readonly drifts: DriftStore;
  /** The IaC generator's resource scans and generated templates. */
  readonly generator: GeneratorStore;
  /** Stack sets, their instances and operations, and the simulated organizations. */
  readonly stackSets: StackSetStore;
  /** Stack refactors. */
  readonly refactors: RefactorStore;
  /** Hook invocations (state-machine/hooks/). */
  readonly hookResults: HookResultStore;
  /** The CloudFormation registry: extensions, registrations, type configurations, publishers, the catalogue. */
  readonly registry: RegistryStore;
  /**
   * The newest event time per stack, so event times strictly increase (see state-machine/transitions.ts): a cache
   * for the stacks whose operation runs, dropped at its end (state-machine/engine.ts); a miss reads the newest event.
   */
  readonly lastEventTime = new Map<string, number>();
  /** The root of each nested stack whose operation runs, read with its newest event time and dropped with it. */
  readonly eventTreeRoot = new Map<string, string>();
  /** Stack rows and events as they are written, for the console's live view (storage/feed.ts). */
  readonly feed = new ChangeFeed();
  private readonly group: GroupCommit;

  constructor(
    readonly db: Db,
    readonly bodies: BodyStore = new MemoryBodies(),
  ) {
    this.group = new GroupCommit(db);
    this.stacks = new StackStore(db, this.feed);
    this.resources = new ResourceStore(db, this.group);
    this.events = new EventStore(db, this.feed);
    this.templates = new TemplateStore(db);
    this.exports = new ExportStore(db);
    this.journal = new JournalStore(db);
    this.world = new WorldStore(db);
    this.changeSets = new ChangeSetStore(db);
    this.secrets = new SecretStore(db);
    this.transformOutputs = new TransformOutputStore(db);
    this.objects = new ObjectStore(db);
    this.waits = new WaitStore(db, this.group);
    this.history = new OperationHistoryStore(db);
    this.drifts = new DriftStore(db, this.feed);
    this.generator = new GeneratorStore(db);
    this.stackSets = new StackSetStore(db);
    this.refactors = new RefactorStore(db);
    this.hookResults = new HookResultStore(db);
    this.registry = new RegistryStore(db);
  }

  static open(file: string): Store {
    const store = new Store(openDb(file), openBodies(file));
    // Bodies no row points at are what a crash left behind (an upload cut short, a replaced object's old bytes).
    store.bodies.sweep(store.objects.bodyIds());
    return store;
  }

  /** Runs fn atomically; it commits with the other writes of this event-loop turn (see GroupCommit). */
  transaction<T>(fn: () => T): T {
    return this.group.run(fn);
  }

  /** Commits pending writes now. */
  flush(): void {
    this.group.flush();
  }

  /** Calls back once pending writes are committed: a client must never be told of a change a crash could still lose. */
  afterCommit(callback: (err?: Error) => void): void {
    this.group.afterCommit(callback);
  }

  /** Empties every table (the control API's reset). */
  reset(): void {
    this.resources.forgetHeld();
    this.events.forgetKeys();
    this.transaction(() => {
      for (const table of [
        'stacks',
        'templates',
        'stack_resources',
        'events',
        'change_sets',
        'exports',
        'journal',
        'operations',
        'world',
        'imports',
        's3_objects',
        's3_uploads',
        's3_parts',
        'transform_outputs',
        'waits',
        'stack_operations',
        'drift_detections',
        'resource_drifts',
        'generator_records',
        'stack_sets',
        'stack_instances',
        'stack_set_operations',
        'stack_set_results',
        'organizations',
        'stack_refactors',
        'hook_results',
        'registry_types',
        'registry_registrations',
        'registry_configurations',
        'registry_publishers',
        'registry_catalogue',
      ]) {
        this.db.exec(`DELETE FROM ${table}`);
      }
    });
    this.lastEventTime.clear();
    this.eventTreeRoot.clear();
    this.bodies.reset();
    this.feed.publish({ kind: 'reset' });
  }

  /**
   * Empties one account's rows, every region or one (the control API's scoped reset); other accounts keep theirs.
   * Held writes are committed first, so no other account's pending rows are dropped.
   */
  resetAccount(account: string, region?: string): void {
    this.group.flush();
    this.events.forgetKeys();
    this.lastEventTime.clear();
    this.eventTreeRoot.clear();
    const where = region === undefined ? 'account = ?' : 'account = ? AND region = ?';
    const args = region === undefined ? [account] : [account, region];
    const bodies = this.db
      .prepare(
        `SELECT body_id FROM s3_objects WHERE ${where} UNION ALL
       SELECT p.body_id FROM s3_parts p JOIN s3_uploads u ON u.upload_id = p.upload_id WHERE u.${where.replace(' AND ', ' AND u.')}`,
      )
      .pluck()
      .all(...args, ...args) as string[];
    this.transaction(() => {
      this.stackSets.resetAccount(account, region);
      for (const table of [
        'templates',
        'journal',
        'operations',
        'waits',
        'stack_operations',
        'drift_detections',
        'resource_drifts',
      ]) {
        this.db
          .prepare(`DELETE FROM ${table} WHERE stack_id IN (SELECT stack_id FROM stacks WHERE ${where})`)
          .run(...args);
      }
      this.db
        .prepare(`DELETE FROM s3_parts WHERE upload_id IN (SELECT upload_id FROM s3_uploads WHERE ${where})`)
        .run(...args);
      for (const table of [
        'stack_resources',
        'events',
        'change_sets',
        'exports',
        'imports',
        'world',
        's3_objects',
        's3_uploads',
        'generator_records',
        'stack_refactors',
        'hook_results',
        'registry_types',
        'registry_registrations',
        'registry_configurations',
        'registry_publishers',
        'stacks',
      ]) {
        this.db.prepare(`DELETE FROM ${table} WHERE ${where}`).run(...args);
      }
    });
    for (const id of bodies) this.bodies.remove(id);
    this.feed.publish({ kind: 'reset', account, region });
  }

  close(): void {
    this.group.flush();
    this.db.close();
  }
}

export type { StackRecord, StackDoc, StackParameter, StackOutput, Tag } from './stacks.js';
export type { ResourceRecord, ResourceDoc } from './resources.js';
export type { EventRecord, EventDetail } from './events.js';
export type { Change } from './feed.js';
export type { StackOperationRecord, OperationStatus } from './operationHistory.js';
export type { DriftDetectionRecord, ResourceDriftRecord, DetectionStatus } from './drifts.js';
export type {
  ResourceScanRecord,
  ScannedResourceRecord,
  GeneratedTemplateRecord,
  GeneratedResourceRecord,
} from './generator.js';
export type {
  StackRefactorRecord,
  RefactorActionRecord,
  RefactorMove,
  RefactorStackRecord,
  RefactorLocation,
} from './refactors.js';
export type {
  ExtensionCategory,
  ExtensionRecord,
  ExtensionVersionRecord,
  ActivationRecord,
  RegistrationRecord,
  RegistrationStatus,
  TypeConfigurationRecord,
  PublisherRecord,
  CatalogueEntry,
} from './registry.js';
export type { WorldResource, WorldState } from './world.js';
export type {
  StackSetRecord,
  StackSetDoc,
  StackInstanceRecord,
  StackInstanceDoc,
  SetOperationRecord,
  SetOperationDoc,
  OperationResultRecord,
  OrganizationDoc,
  OrganizationalUnitDoc,
  SetParameter,
  DriftDetails,
} from './stackSets.js';
export type { ChangeSetRecord } from './changeSets.js';
export type { ExportRecord } from './exports.js';
export type { ObjectRecord, ObjectDoc, UploadRecord, PartRecord } from './objects.js';
export type { BodyStore, ByteRange } from './bodies.js';
export type { HookResultRecord, HookResultStatus, HookTargetType, HookResultFilter } from './hookResults.js';
