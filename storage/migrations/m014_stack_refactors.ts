// Migration 14: stack refactors (CreateStackRefactor): each one's statuses, the stacks and templates it names, what
// it moves and the actions ListStackRefactorActions shows, per account and region.
export const sql = `
CREATE TABLE stack_refactors (
  refactor_id TEXT PRIMARY KEY,
  account     TEXT NOT NULL,
  region      TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  doc         TEXT NOT NULL                  -- JSON: the refactor (storage/refactors.ts)
);
CREATE INDEX stack_refactors_by_scope ON stack_refactors (account, region, created_at);
`;
