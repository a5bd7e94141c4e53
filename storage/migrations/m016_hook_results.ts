// Migration 16: hook invocations (CloudFormation Hooks): one row per invocation of a hook against a resource, a
// stack or a change set, which GetHookResult reads by id and ListHookResults lists by target or by hook.
export const sql = `
CREATE TABLE hook_results (
  hook_result_id TEXT PRIMARY KEY,
  account        TEXT NOT NULL,
  region         TEXT NOT NULL,
  target_type    TEXT NOT NULL,               -- CHANGE_SET | STACK | RESOURCE | CLOUD_CONTROL
  target_id      TEXT NOT NULL,
  type_arn       TEXT NOT NULL,
  invoked_at     TEXT NOT NULL,
  doc            TEXT NOT NULL                -- JSON: the invocation (storage/hookResults.ts)
);
CREATE INDEX hook_results_by_target ON hook_results (account, region, target_type, target_id, invoked_at);
CREATE INDEX hook_results_by_scope ON hook_results (account, region, invoked_at);
`;
