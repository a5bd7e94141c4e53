// Migration 15: the CloudFormation registry: each account and region's extensions (registered private types and
// activated public ones, with their versions), registration requests, type configurations and publisher; and the
// catalogue of public third-party extensions that ActivateType activates from.
export const sql = `
CREATE TABLE registry_types (
  account     TEXT NOT NULL,
  region      TEXT NOT NULL,
  category    TEXT NOT NULL,                 -- RESOURCE | MODULE | HOOK
  type_name   TEXT NOT NULL,
  doc         TEXT NOT NULL,                 -- JSON: the extension and its versions (storage/registry.ts)
  PRIMARY KEY (account, region, category, type_name)
);
CREATE TABLE registry_registrations (
  token       TEXT PRIMARY KEY,
  account     TEXT NOT NULL,
  region      TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  doc         TEXT NOT NULL
);
CREATE INDEX registry_registrations_by_scope ON registry_registrations (account, region, created_at);
CREATE TABLE registry_configurations (
  account     TEXT NOT NULL,
  region      TEXT NOT NULL,
  category    TEXT NOT NULL,
  type_name   TEXT NOT NULL,
  alias       TEXT NOT NULL,
  doc         TEXT NOT NULL,
  PRIMARY KEY (account, region, category, type_name, alias)
);
CREATE TABLE registry_publishers (
  account     TEXT NOT NULL,
  region      TEXT NOT NULL,
  doc         TEXT NOT NULL,
  PRIMARY KEY (account, region)
);
CREATE TABLE registry_catalogue (
  category    TEXT NOT NULL,
  type_name   TEXT NOT NULL,
  doc         TEXT NOT NULL,                 -- JSON: a public third-party extension (storage/registry.ts)
  PRIMARY KEY (category, type_name)
);
`;
