// Migration 15: stacks by their alias (SetAlias), so a name that is no stack's name is looked up as an alias through
// an index rather than a read of every stack. Only live stacks hold an alias: a deleted stack's is free again.
export const sql = `
CREATE INDEX stacks_by_alias ON stacks (account, region, json_extract(doc, '$.aliasName'))
  WHERE deleted_at IS NULL AND json_extract(doc, '$.aliasName') IS NOT NULL;
`;
