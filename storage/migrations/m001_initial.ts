// Migration 1: the initial schema. Numbered migrations are applied in order by storage/db.ts.
export const sql = `
-- Every row carries account and region: stacks, exports and the world are isolated per account/region.

CREATE TABLE stacks (
  stack_id      TEXT PRIMARY KEY,
  account       TEXT NOT NULL,
  region        TEXT NOT NULL,
  name          TEXT NOT NULL,
  status        TEXT NOT NULL,
  status_reason TEXT,
  created_at    TEXT NOT NULL,
  updated_at    TEXT,
  deleted_at    TEXT,
  template_id   INTEGER,
  doc           TEXT NOT NULL          -- JSON: parameters, outputs, tags, options (see storage/stacks.ts)
);
CREATE INDEX stacks_by_name ON stacks (account, region, name, deleted_at);
CREATE INDEX stacks_by_created ON stacks (account, region, created_at);

CREATE TABLE templates (
  template_id INTEGER PRIMARY KEY AUTOINCREMENT,
  stack_id    TEXT NOT NULL,
  body        TEXT NOT NULL,
  created_at  TEXT NOT NULL
);

CREATE TABLE stack_resources (
  stack_id      TEXT NOT NULL,
  logical_id    TEXT NOT NULL,
  account       TEXT NOT NULL,
  region        TEXT NOT NULL,
  type          TEXT NOT NULL,
  physical_id   TEXT,
  status        TEXT NOT NULL,
  status_reason TEXT,
  updated_at    TEXT NOT NULL,
  ord           INTEGER NOT NULL,     -- template order, for stable listings
  doc           TEXT NOT NULL,        -- JSON: properties, attributes, metadata, policies
  PRIMARY KEY (stack_id, logical_id)
);

CREATE TABLE events (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  stack_id    TEXT NOT NULL,
  account     TEXT NOT NULL,
  region      TEXT NOT NULL,
  event_id    TEXT NOT NULL,
  logical_id  TEXT NOT NULL,
  physical_id TEXT,
  type        TEXT NOT NULL,
  status      TEXT NOT NULL,
  reason      TEXT,
  properties  TEXT,
  token       TEXT,
  timestamp   TEXT NOT NULL
);
CREATE INDEX events_by_stack ON events (stack_id, seq);

CREATE TABLE change_sets (
  change_set_id TEXT PRIMARY KEY,
  account       TEXT NOT NULL,
  region        TEXT NOT NULL,
  stack_id      TEXT NOT NULL,
  name          TEXT NOT NULL,
  status        TEXT NOT NULL,
  execution_status TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  deleted       INTEGER NOT NULL DEFAULT 0,
  doc           TEXT NOT NULL
);
CREATE INDEX change_sets_by_stack ON change_sets (stack_id, name);

CREATE TABLE exports (
  account  TEXT NOT NULL,
  region   TEXT NOT NULL,
  name     TEXT NOT NULL,
  stack_id TEXT NOT NULL,
  value    TEXT NOT NULL,
  PRIMARY KEY (account, region, name)
);

-- Which stack imports which export (Fn::ImportValue), for ListImports and the in-use checks.
CREATE TABLE imports (
  account     TEXT NOT NULL,
  region      TEXT NOT NULL,
  export_name TEXT NOT NULL,
  stack_id    TEXT NOT NULL,
  PRIMARY KEY (account, region, export_name, stack_id)
);

-- One row before and one after every resource action, in the same transaction as its resource row and event.
CREATE TABLE journal (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  operation_id TEXT NOT NULL,
  stack_id     TEXT NOT NULL,
  logical_id   TEXT,
  action       TEXT NOT NULL,
  phase        TEXT NOT NULL,          -- start | end | failed
  detail       TEXT,
  timestamp    TEXT NOT NULL
);
CREATE INDEX journal_by_operation ON journal (operation_id, seq);

CREATE TABLE operations (
  operation_id TEXT PRIMARY KEY,
  stack_id     TEXT NOT NULL,
  kind         TEXT NOT NULL,
  state        TEXT NOT NULL,          -- running | done
  started_at   TEXT NOT NULL,
  ended_at     TEXT,
  doc          TEXT NOT NULL
);
CREATE INDEX operations_running ON operations (state);

-- The simulated account: physical resources that outlive stacks.
CREATE TABLE world (
  account     TEXT NOT NULL,
  region      TEXT NOT NULL,
  type        TEXT NOT NULL,
  physical_id TEXT NOT NULL,
  name        TEXT,
  stack_id    TEXT,
  logical_id  TEXT,
  created_at  TEXT NOT NULL,
  doc         TEXT NOT NULL,           -- JSON: properties, attributes, state
  PRIMARY KEY (account, region, type, physical_id)
);
CREATE INDEX world_by_name ON world (account, region, type, name);
`;
