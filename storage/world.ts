// The simulated account: physical resources by account, region, type and physical id, outliving stacks.
import type { Db } from './db.js';
import { columns } from './rows.js';

export interface WorldState {
  dataItems?: number;
  deletionProtection?: boolean;
  attachedOutside?: string[];
  snapshots?: string[];
  /** An SSM parameter's values by version (version N at index N-1). */
  versions?: string[];
  /** S3: how many objects the bucket holds (kept by the S3 API; with dataItems, what makes it "not empty"). */
  objects?: number;
  /** S3: what only the S3 API sets on a bucket (handlers/s3/context.ts BucketS3State). */
  s3?: Record<string, unknown>;
  /** When each version of an SSM parameter was written (ISO dates, version N at index N-1). */
  versionDates?: string[];
  /** An SSM parameter's version labels: label → version. */
  labels?: Record<string, number>;
  /** What Lambda's control plane changed or published: code hash and size, revision, a version's configuration. */
  /** Where the resource lives: 'backend' when a backend provider made it there (resources/backend/), else simulated. */
  lives?: 'backend';
  lambda?: {
    codeSha256?: string;
    codeSize?: number;
    revisionId?: string;
    lastModified?: string;
    configuration?: Record<string, unknown>;
    /** A zip sent to UpdateFunctionCode (base64), the code while the Code property still reads `placeholder`. */
    zip?: { placeholder: string; base64: string };
    /** A published version's code: the function's Code property (and zip) when it was published. */
    code?: Record<string, unknown>;
  };
}

export interface WorldResource {
  account: string;
  region: string;
  type: string;
  physicalId: string;
  name?: string;
  stackId?: string;
  logicalId?: string;
  createdAt: string;
  properties: Record<string, unknown>;
  attributes: Record<string, unknown>;
  state: WorldState;
}

interface WorldRow {
  account: string;
  region: string;
  type: string;
  physical_id: string;
  name: string | null;
  stack_id: string | null;
  logical_id: string | null;
  created_at: string;
  doc: string;
}

/** The plain columns; properties, attributes and state share the one JSON `doc` column. */
const WORLD = columns<Omit<WorldResource, 'properties' | 'attributes' | 'state'>>({
  account: ['account'],
  region: ['region'],
  type: ['type'],
  physicalId: ['physical_id'],
  name: ['name', 'optional'],
  stackId: ['stack_id', 'optional'],
  logicalId: ['logical_id', 'optional'],
  createdAt: ['created_at'],
});

const fromRow = (r: WorldRow): WorldResource =>
  WORLD.fromRow(
    r as unknown as Record<string, unknown>,
    JSON.parse(r.doc) as Pick<WorldResource, 'properties' | 'attributes' | 'state'>,
  );

export class WorldStore {
  private readonly putStmt;
  private readonly getStmt;
  private readonly byNameStmt;
  private readonly removeStmt;
  private readonly listStmt;
  private readonly findStmt;
  private readonly byNameInAccountStmt;

  constructor(db: Db) {
    this.putStmt = db.prepare(
      `INSERT INTO world (${WORLD.names.join(', ')}, doc) VALUES (${WORLD.placeholders}, ?)
       ON CONFLICT (account, region, type, physical_id) DO UPDATE SET name = excluded.name,
         stack_id = excluded.stack_id, logical_id = excluded.logical_id, doc = excluded.doc`,
    );
    this.getStmt = db.prepare('SELECT * FROM world WHERE account = ? AND region = ? AND type = ? AND physical_id = ?');
    this.byNameStmt = db.prepare('SELECT * FROM world WHERE account = ? AND region = ? AND type = ? AND name = ?');
    this.removeStmt = db.prepare('DELETE FROM world WHERE account = ? AND region = ? AND type = ? AND physical_id = ?');
    this.listStmt = db.prepare(
      `SELECT * FROM world WHERE (@type IS NULL OR type = @type) AND (@account IS NULL OR account = @account)
         AND (@region IS NULL OR region = @region) ORDER BY created_at, physical_id`,
    );
    this.findStmt = db.prepare('SELECT * FROM world WHERE physical_id = ?');
    this.byNameInAccountStmt = db.prepare('SELECT * FROM world WHERE account = ? AND type = ? AND name = ? LIMIT 1');
  }

  put(r: WorldResource): void {
    const values = WORLD.values(r);
    values.push(JSON.stringify({ properties: r.properties, attributes: r.attributes, state: r.state }));
    this.putStmt.run(values);
  }

  get(account: string, region: string, type: string, physicalId: string): WorldResource | undefined {
    const row = this.getStmt.get(account, region, type, physicalId) as WorldRow | undefined;
    return row && fromRow(row);
  }

  byName(account: string, region: string, type: string, name: string): WorldResource | undefined {
    const row = this.byNameStmt.get(account, region, type, name) as WorldRow | undefined;
    return row && fromRow(row);
  }

  remove(account: string, region: string, type: string, physicalId: string): void {
    this.removeStmt.run(account, region, type, physicalId);
  }

  list(filter: { type?: string; account?: string; region?: string }): WorldResource[] {
    return (
      this.listStmt.all({
        type: filter.type ?? null,
        account: filter.account ?? null,
        region: filter.region ?? null,
      }) as WorldRow[]
    ).map(fromRow);
  }

  /** A resource of this type and name in any region of the account (names of global services: IAM, S3). */
  byNameInAccount(account: string, type: string, name: string): WorldResource | undefined {
    const row = this.byNameInAccountStmt.get(account, type, name) as WorldRow | undefined;
    return row && fromRow(row);
  }

  /** Every resource with this physical id, whatever its account, region or type (for the control API). */
  find(physicalId: string): WorldResource[] {
    return (this.findStmt.all(physicalId) as WorldRow[]).map(fromRow);
  }
}
