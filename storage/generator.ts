// The IaC generator's records: resource scans and generated templates, each a JSON document keyed by its ARN.
import type { Db } from './db.js';

export interface ScannedResourceRecord {
  ResourceType: string;
  ResourceIdentifier: Record<string, string>;
  ManagedByStack: boolean;
  /** The world row's physical id and tags, for the filters and for generating templates. */
  physicalId: string;
  tags: { Key: string; Value: string }[];
}

export interface ResourceScanRecord {
  id: string;
  account: string;
  region: string;
  startedAt: string;
  endedAt?: string;
  status: 'IN_PROGRESS' | 'COMPLETE' | 'FAILED' | 'EXPIRED';
  scanFilters?: { Types?: string[] }[];
  resources: ScannedResourceRecord[];
}

export interface GeneratedResourceRecord {
  ResourceType: string;
  LogicalResourceId: string;
  ResourceIdentifier: Record<string, string>;
  /** The physical id it names, and the properties read when the template was last generated. */
  physicalId?: string;
  properties?: Record<string, unknown>;
  warnings: { Type: string; Properties: { PropertyPath: string; Required: boolean; Description: string }[] }[];
  failure?: string;
}

export interface GeneratedTemplateRecord {
  id: string;
  account: string;
  region: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  status: 'CREATE_PENDING' | 'CREATE_IN_PROGRESS' | 'UPDATE_PENDING' | 'UPDATE_IN_PROGRESS' | 'COMPLETE' | 'FAILED';
  stackId?: string;
  deletionPolicy: string;
  updateReplacePolicy: string;
  resources: GeneratedResourceRecord[];
}

type Kind = 'scan' | 'template';

export class GeneratorStore {
  private readonly putStmt;
  private readonly getStmt;
  private readonly listStmt;
  private readonly byNameStmt;
  private readonly removeStmt;

  constructor(db: Db) {
    this.putStmt = db.prepare(
      'INSERT OR REPLACE INTO generator_records (id, kind, account, region, name, created_at, doc) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.getStmt = db.prepare('SELECT doc FROM generator_records WHERE id = ? AND kind = ?').pluck();
    this.listStmt = db
      .prepare(
        'SELECT doc FROM generator_records WHERE account = ? AND region = ? AND kind = ? ORDER BY created_at DESC, rowid DESC',
      )
      .pluck();
    this.byNameStmt = db
      .prepare("SELECT doc FROM generator_records WHERE account = ? AND region = ? AND kind = 'template' AND name = ?")
      .pluck();
    this.removeStmt = db.prepare('DELETE FROM generator_records WHERE id = ?');
  }

  saveScan(scan: ResourceScanRecord): void {
    this.putStmt.run(scan.id, 'scan', scan.account, scan.region, null, scan.startedAt, JSON.stringify(scan));
  }

  saveTemplate(t: GeneratedTemplateRecord): void {
    this.putStmt.run(t.id, 'template', t.account, t.region, t.name, t.createdAt, JSON.stringify(t));
  }

  scan(id: string): ResourceScanRecord | undefined {
    return this.one(id, 'scan') as ResourceScanRecord | undefined;
  }

  template(id: string): GeneratedTemplateRecord | undefined {
    return this.one(id, 'template') as GeneratedTemplateRecord | undefined;
  }

  templateByName(account: string, region: string, name: string): GeneratedTemplateRecord | undefined {
    const doc = this.byNameStmt.get(account, region, name) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as GeneratedTemplateRecord);
  }

  /** Newest first. */
  scans(account: string, region: string): ResourceScanRecord[] {
    return (this.listStmt.all(account, region, 'scan') as string[]).map((d) => JSON.parse(d) as ResourceScanRecord);
  }

  templates(account: string, region: string): GeneratedTemplateRecord[] {
    return (this.listStmt.all(account, region, 'template') as string[]).map(
      (d) => JSON.parse(d) as GeneratedTemplateRecord,
    );
  }

  remove(id: string): void {
    this.removeStmt.run(id);
  }

  private one(id: string, kind: Kind): unknown {
    const doc = this.getStmt.get(id, kind) as string | undefined;
    return doc === undefined ? undefined : JSON.parse(doc);
  }
}
