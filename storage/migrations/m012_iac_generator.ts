// Migration 12: the IaC generator's records: resource scans (what the account held when each ran) and generated
// templates, per account and region.
export const sql = `
CREATE TABLE generator_records (
  id          TEXT PRIMARY KEY,              -- the scan's or generated template's ARN
  kind        TEXT NOT NULL,                 -- scan | template
  account     TEXT NOT NULL,
  region      TEXT NOT NULL,
  name        TEXT,                          -- a generated template's name
  created_at  TEXT NOT NULL,
  doc         TEXT NOT NULL                  -- JSON: the scan or template (storage/generator.ts)
);
CREATE INDEX generator_records_by_scope ON generator_records (account, region, kind, created_at);
`;
