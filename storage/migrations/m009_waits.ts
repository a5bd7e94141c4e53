// Migration 9: the waits of running operations (a custom resource request and its response, SignalResource
// signals, when a resource began to wait), so that a restart resumes them instead of cancelling them.
export const sql = `
CREATE TABLE waits (
  key        TEXT PRIMARY KEY,       -- 'request:<RequestId>', 'signals:<stack>|<logical>', 'wait:<stack>|<logical>|<what>'
  stack_id   TEXT NOT NULL,
  doc        TEXT NOT NULL,          -- JSON, what the wait needs (see storage/waits.ts)
  finished   TEXT,                   -- set once the wait is over: why a late answer is refused
  seq        INTEGER NOT NULL        -- write order, so the oldest finished rows are the first forgotten
);
CREATE INDEX waits_by_stack ON waits (stack_id);
`;
