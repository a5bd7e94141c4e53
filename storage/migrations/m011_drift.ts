// Migration 11: drift detection: each detection of a stack (DescribeStackDriftDetectionStatus), and each resource's
// latest result (DescribeStackResourceDrifts, and the DriftInformation of the resource views).
export const sql = `
CREATE TABLE drift_detections (
  detection_id TEXT PRIMARY KEY,
  stack_id     TEXT NOT NULL,
  started_at   TEXT NOT NULL,
  doc          TEXT NOT NULL                 -- JSON: status, reason, stack drift status, drifted count
);
CREATE INDEX drift_detections_by_stack ON drift_detections (stack_id, started_at);
CREATE TABLE resource_drifts (
  stack_id     TEXT NOT NULL,
  logical_id   TEXT NOT NULL,
  checked_at   TEXT NOT NULL,
  doc          TEXT NOT NULL,                -- JSON: the StackResourceDrift AWS answers
  PRIMARY KEY (stack_id, logical_id)
);
`;
