// Drift detection's records: each stack detection and each resource's latest result, kept apart from the stack and
// resource rows that operations own (a detection never writes those).
import type { Db } from './db.js';
import type { ChangeFeed } from './feed.js';

export type DetectionStatus = 'DETECTION_IN_PROGRESS' | 'DETECTION_COMPLETE' | 'DETECTION_FAILED';

export interface DriftDetectionRecord {
  detectionId: string;
  stackId: string;
  startedAt: string;
  status: DetectionStatus;
  reason?: string;
  /** DRIFTED | IN_SYNC | UNKNOWN, once complete. */
  stackDriftStatus?: string;
  driftedCount?: number;
}

/** A resource's latest result, as AWS's StackResourceDrift (Timestamp as ISO text). */
export interface ResourceDriftRecord {
  StackId: string;
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceType: string;
  ExpectedProperties?: string;
  ActualProperties?: string;
  PropertyDifferences?: { PropertyPath: string; ExpectedValue: string; ActualValue: string; DifferenceType: string }[];
  StackResourceDriftStatus: string;
  Timestamp: string;
}

export class DriftStore {
  private readonly putDetectionStmt;
  private readonly detectionStmt;
  private readonly latestStmt;
  private readonly latestCompleteStmt;
  private readonly putResourceStmt;
  private readonly resourcesStmt;
  private readonly resourceStmt;
  /**
   * Whether any detection was ever recorded: until one is, the stack views (DescribeStacks, ListStacks) need not
   * look for one per stack (bench/README.md: ListStacks' first page).
   */
  private detected: boolean;

  constructor(
    db: Db,
    private readonly feed?: ChangeFeed,
  ) {
    this.detected = db.prepare('SELECT 1 FROM drift_detections LIMIT 1').get() !== undefined;
    this.putDetectionStmt = db.prepare(
      'INSERT OR REPLACE INTO drift_detections (detection_id, stack_id, started_at, doc) VALUES (?, ?, ?, ?)',
    );
    this.detectionStmt = db.prepare('SELECT * FROM drift_detections WHERE detection_id = ?');
    this.latestStmt = db.prepare(
      'SELECT * FROM drift_detections WHERE stack_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1',
    );
    this.latestCompleteStmt = db.prepare(
      `SELECT * FROM drift_detections WHERE stack_id = ? AND json_extract(doc, '$.status') = 'DETECTION_COMPLETE'
       ORDER BY started_at DESC, rowid DESC LIMIT 1`,
    );
    this.putResourceStmt = db.prepare(
      'INSERT OR REPLACE INTO resource_drifts (stack_id, logical_id, checked_at, doc) VALUES (?, ?, ?, ?)',
    );
    this.resourcesStmt = db.prepare('SELECT doc FROM resource_drifts WHERE stack_id = ? ORDER BY logical_id').pluck();
    this.resourceStmt = db.prepare('SELECT doc FROM resource_drifts WHERE stack_id = ? AND logical_id = ?').pluck();
  }

  saveDetection(d: DriftDetectionRecord): void {
    this.detected = true;
    const { detectionId, stackId, startedAt, ...doc } = d;
    this.putDetectionStmt.run(detectionId, stackId, startedAt, JSON.stringify(doc));
    if (this.feed?.active) this.feed.publish({ kind: 'drift', stackId, status: d.status });
  }

  detection(detectionId: string): DriftDetectionRecord | undefined {
    return detectionOf(this.detectionStmt.get(detectionId));
  }

  /** The stack's newest detection, whatever its status. */
  latestDetection(stackId: string): DriftDetectionRecord | undefined {
    return detectionOf(this.latestStmt.get(stackId));
  }

  /** The stack's newest completed detection: its DriftInformation. */
  latestComplete(stackId: string): DriftDetectionRecord | undefined {
    if (!this.detected) return undefined;
    return detectionOf(this.latestCompleteStmt.get(stackId));
  }

  saveResource(r: ResourceDriftRecord): void {
    this.putResourceStmt.run(r.StackId, r.LogicalResourceId, r.Timestamp, JSON.stringify(r));
  }

  resources(stackId: string): ResourceDriftRecord[] {
    return (this.resourcesStmt.all(stackId) as string[]).map((doc) => JSON.parse(doc) as ResourceDriftRecord);
  }

  resource(stackId: string, logicalId: string): ResourceDriftRecord | undefined {
    const doc = this.resourceStmt.get(stackId, logicalId) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as ResourceDriftRecord);
  }
}

function detectionOf(row: unknown): DriftDetectionRecord | undefined {
  if (!row) return undefined;
  const r = row as { detection_id: string; stack_id: string; started_at: string; doc: string };
  return {
    detectionId: r.detection_id,
    stackId: r.stack_id,
    startedAt: r.started_at,
    ...(JSON.parse(r.doc) as Omit<DriftDetectionRecord, 'detectionId' | 'stackId' | 'startedAt'>),
  };
}
