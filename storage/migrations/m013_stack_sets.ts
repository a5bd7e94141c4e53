// Migration 13: stack sets: each set (by its administrator account and region), its instances (one per target
// account and region), its operations and their per-account, per-region results; and the simulated organization
// a management account's service-managed stack sets deploy into.
export const sql = `
CREATE TABLE stack_sets (
  stack_set_id TEXT PRIMARY KEY,             -- <name>:<uuid>
  account      TEXT NOT NULL,                -- the administrator account
  region       TEXT NOT NULL,
  name         TEXT NOT NULL,
  status       TEXT NOT NULL,                -- ACTIVE | DELETED
  created_at   TEXT NOT NULL,
  doc          TEXT NOT NULL                 -- JSON: template, parameters, permission model… (storage/stackSets.ts)
);
CREATE INDEX stack_sets_by_scope ON stack_sets (account, region, name);
CREATE TABLE stack_instances (
  stack_set_id TEXT NOT NULL,
  account      TEXT NOT NULL,                -- the target account
  region       TEXT NOT NULL,                -- the target region
  doc          TEXT NOT NULL,                -- JSON: stack id, overrides, status, drift
  PRIMARY KEY (stack_set_id, account, region)
);
CREATE TABLE stack_set_operations (
  stack_set_id TEXT NOT NULL,
  operation_id TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  doc          TEXT NOT NULL,                -- JSON: action, status, preferences, targets
  PRIMARY KEY (stack_set_id, operation_id)
);
CREATE INDEX stack_set_operations_by_time ON stack_set_operations (stack_set_id, created_at);
CREATE TABLE stack_set_results (
  stack_set_id TEXT NOT NULL,
  operation_id TEXT NOT NULL,
  account      TEXT NOT NULL,
  region       TEXT NOT NULL,
  doc          TEXT NOT NULL,                -- JSON: status, reason, account gate
  PRIMARY KEY (stack_set_id, operation_id, account, region)
);
CREATE TABLE organizations (
  account      TEXT PRIMARY KEY,             -- the management account
  doc          TEXT NOT NULL                 -- JSON: organizational units, accounts, trusted access
);
`;
