// Migration 8: the outputs of the transforms that run outside the template pipeline (the SAM translator, macros,
// AWS::Include), keyed by a hash of their input, so a stored template is processed again the same way on a
// rollback, a restart or GetTemplate's Processed stage without calling the translator or a Lambda again.
export const sql = `
CREATE TABLE transform_outputs (
  key        TEXT PRIMARY KEY,
  doc        TEXT NOT NULL,          -- JSON: {fragment} or {failure}
  created_at TEXT NOT NULL
);
`;
