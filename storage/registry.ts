// The registry's records: each account and region's extensions with their versions, registration requests, type
// configurations and publisher, and the public third-party catalogue; JSON documents beside the columns they are
// looked up by. Storage knows no registry rule: state-machine/registry/ decides every field.
import type { Db } from './db.js';

export type ExtensionCategory = 'RESOURCE' | 'MODULE' | 'HOOK';

/** One version of an extension: its schema and what RegisterType (or the catalogue) gave it. */
export interface ExtensionVersionRecord {
  versionId: string;
  schema: string;
  description?: string;
  timeCreated: string;
  /** DeregisterType of this version (or of the whole extension) marks it DEPRECATED; it is kept for listing. */
  deprecated: boolean;
  executionRoleArn?: string;
  loggingConfig?: { LogRoleArn: string; LogGroupName: string };
  sourceUrl?: string;
  documentationUrl?: string;
  provisioningType?: string;
  /** A hook's configuration schema (the package's configuration-schema.json). */
  configurationSchema?: string;
  /** TestType's outcome (cfn-local runs no contract tests: PASSED once asked). */
  testsStatus?: string;
  testsStatusDescription?: string;
  /** A public extension's version number (ActivateType), `1.0.0`. */
  publicVersionNumber?: string;
}

/** An activated public extension: where it came from in the catalogue. */
export interface ActivationRecord {
  publisherId: string;
  originalTypeName: string;
  publicTypeArn: string;
  autoUpdate: boolean;
}

export interface ExtensionRecord {
  account: string;
  region: string;
  category: ExtensionCategory;
  /** The name it is used by in this account: the registered name, or the activated type's alias. */
  typeName: string;
  defaultVersionId: string;
  versions: ExtensionVersionRecord[];
  /** The last version number given, so a new version never reuses a deregistered one's id. */
  lastVersion: number;
  timeCreated: string;
  lastUpdated: string;
  activation?: ActivationRecord;
}

export type RegistrationStatus = 'COMPLETE' | 'IN_PROGRESS' | 'FAILED';

export interface RegistrationRecord {
  token: string;
  account: string;
  region: string;
  createdAt: string;
  category: ExtensionCategory;
  typeName: string;
  status: RegistrationStatus;
  description: string;
  /** What the version becomes once the registration completes. */
  pending?: Omit<ExtensionVersionRecord, 'versionId' | 'timeCreated' | 'deprecated'>;
  failure?: string;
  clientRequestToken?: string;
  /** The version the registration makes. */
  versionId?: string;
  typeArn: string;
  typeVersionArn?: string;
}

export interface TypeConfigurationRecord {
  account: string;
  region: string;
  category: ExtensionCategory;
  typeName: string;
  alias: string;
  configuration: string;
  lastUpdated: string;
}

export interface PublisherRecord {
  publisherId: string;
  connectionArn?: string;
  registeredAt: string;
}

/** A public third-party extension that ActivateType can activate (the catalogue, set through the control API). */
export interface CatalogueEntry {
  category: ExtensionCategory;
  typeName: string;
  publisherId: string;
  publisherName?: string;
  description?: string;
  schema: string;
  publicVersionNumber: string;
  timeCreated: string;
  sourceUrl?: string;
  documentationUrl?: string;
}

export class RegistryStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      putType: db.prepare(
        'INSERT OR REPLACE INTO registry_types (account, region, category, type_name, doc) VALUES (?, ?, ?, ?, ?)',
      ),
      getType: db
        .prepare('SELECT doc FROM registry_types WHERE account = ? AND region = ? AND category = ? AND type_name = ?')
        .pluck(),
      deleteType: db.prepare(
        'DELETE FROM registry_types WHERE account = ? AND region = ? AND category = ? AND type_name = ?',
      ),
      listTypes: db
        .prepare('SELECT doc FROM registry_types WHERE account = ? AND region = ? ORDER BY category, type_name')
        .pluck(),
      resourceNames: db.prepare("SELECT DISTINCT type_name FROM registry_types WHERE category = 'RESOURCE'").pluck(),
      byName: db.prepare('SELECT doc FROM registry_types WHERE type_name = ? ORDER BY rowid DESC').pluck(),
      putRegistration: db.prepare(
        'INSERT OR REPLACE INTO registry_registrations (token, account, region, created_at, doc) VALUES (?, ?, ?, ?, ?)',
      ),
      getRegistration: db.prepare('SELECT doc FROM registry_registrations WHERE token = ?').pluck(),
      listRegistrations: db
        .prepare(
          'SELECT doc FROM registry_registrations WHERE account = ? AND region = ? ORDER BY created_at DESC, rowid DESC',
        )
        .pluck(),
      unsettled: db
        .prepare("SELECT doc FROM registry_registrations WHERE json_extract(doc, '$.status') = 'IN_PROGRESS'")
        .pluck(),
      putConfiguration: db.prepare(
        'INSERT OR REPLACE INTO registry_configurations (account, region, category, type_name, alias, doc) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      configurationsOf: db
        .prepare(
          'SELECT doc FROM registry_configurations WHERE account = ? AND region = ? AND category = ? AND type_name = ? ORDER BY alias',
        )
        .pluck(),
      dropConfigurations: db.prepare(
        'DELETE FROM registry_configurations WHERE account = ? AND region = ? AND category = ? AND type_name = ?',
      ),
      putPublisher: db.prepare('INSERT OR REPLACE INTO registry_publishers (account, region, doc) VALUES (?, ?, ?)'),
      getPublisher: db.prepare('SELECT doc FROM registry_publishers WHERE account = ? AND region = ?').pluck(),
      putEntry: db.prepare('INSERT OR REPLACE INTO registry_catalogue (category, type_name, doc) VALUES (?, ?, ?)'),
      listEntries: db.prepare('SELECT doc FROM registry_catalogue ORDER BY category, type_name').pluck(),
      countEntries: db.prepare('SELECT count(*) FROM registry_catalogue').pluck(),
    };
  }

  saveType(t: ExtensionRecord): void {
    this.s.putType.run(t.account, t.region, t.category, t.typeName, JSON.stringify(t));
  }

  type(account: string, region: string, category: string, typeName: string): ExtensionRecord | undefined {
    return parse<ExtensionRecord>(this.s.getType.get(account, region, category, typeName));
  }

  deleteType(account: string, region: string, category: string, typeName: string): void {
    this.s.deleteType.run(account, region, category, typeName);
  }

  /** The account and region's extensions, by category and name. */
  types(account: string, region: string): ExtensionRecord[] {
    return (this.s.listTypes.all(account, region) as string[]).map((d) => JSON.parse(d) as ExtensionRecord);
  }

  /** Every account's extensions of this name, the most recently created first. */
  typesNamed(typeName: string): ExtensionRecord[] {
    return (this.s.byName.all(typeName) as string[]).map((d) => JSON.parse(d) as ExtensionRecord);
  }

  /** The names of every account's resource extensions. */
  resourceTypeNames(): string[] {
    return this.s.resourceNames.all() as string[];
  }

  saveRegistration(r: RegistrationRecord): void {
    this.s.putRegistration.run(r.token, r.account, r.region, r.createdAt, JSON.stringify(r));
  }

  registration(token: string): RegistrationRecord | undefined {
    return parse<RegistrationRecord>(this.s.getRegistration.get(token));
  }

  /** Newest first. */
  registrations(account: string, region: string): RegistrationRecord[] {
    return (this.s.listRegistrations.all(account, region) as string[]).map((d) => JSON.parse(d) as RegistrationRecord);
  }

  /** Registrations a restart cut short. */
  unsettledRegistrations(): RegistrationRecord[] {
    return (this.s.unsettled.all() as string[]).map((d) => JSON.parse(d) as RegistrationRecord);
  }

  saveConfiguration(c: TypeConfigurationRecord): void {
    this.s.putConfiguration.run(c.account, c.region, c.category, c.typeName, c.alias, JSON.stringify(c));
  }

  configurations(account: string, region: string, category: string, typeName: string): TypeConfigurationRecord[] {
    return (this.s.configurationsOf.all(account, region, category, typeName) as string[]).map(
      (d) => JSON.parse(d) as TypeConfigurationRecord,
    );
  }

  dropConfigurations(account: string, region: string, category: string, typeName: string): void {
    this.s.dropConfigurations.run(account, region, category, typeName);
  }

  savePublisher(account: string, region: string, p: PublisherRecord): void {
    this.s.putPublisher.run(account, region, JSON.stringify(p));
  }

  publisher(account: string, region: string): PublisherRecord | undefined {
    return parse<PublisherRecord>(this.s.getPublisher.get(account, region));
  }

  saveEntry(e: CatalogueEntry): void {
    this.s.putEntry.run(e.category, e.typeName, JSON.stringify(e));
  }

  catalogue(): CatalogueEntry[] {
    return (this.s.listEntries.all() as string[]).map((d) => JSON.parse(d) as CatalogueEntry);
  }

  catalogueSize(): number {
    return this.s.countEntries.get() as number;
  }
}

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the stored shape
function parse<T>(doc: unknown): T | undefined {
  return typeof doc === 'string' ? (JSON.parse(doc) as T) : undefined;
}
