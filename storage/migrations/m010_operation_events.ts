// Migration 10: every event names the operation that wrote it (DescribeStackEvents' and DescribeEvents' OperationId),
// and each operation of a stack is kept after it ends (its type, status and times, which DescribeEvents shows).
export const sql = `
ALTER TABLE events ADD COLUMN operation_id TEXT;
ALTER TABLE events ADD COLUMN detail TEXT;           -- JSON: OperationEvent fields beyond StackEvent's (EventType, Validation*…)
CREATE INDEX events_by_operation ON events (operation_id, seq);
CREATE TABLE stack_operations (
  operation_id  TEXT PRIMARY KEY,
  stack_id      TEXT NOT NULL,
  kind          TEXT NOT NULL,                   -- AWS's OperationType
  status        TEXT NOT NULL,                   -- IN_PROGRESS | SUCCEEDED | FAILED
  started_at    TEXT NOT NULL,
  ended_at      TEXT,
  change_set_id TEXT,                            -- the change set it created or executed
  follows       TEXT                             -- an automatic rollback: the operation it rolls back
);
CREATE INDEX stack_operations_by_stack ON stack_operations (stack_id, started_at);
CREATE INDEX stack_operations_by_change_set ON stack_operations (change_set_id);
`;
