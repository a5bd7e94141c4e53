// Migration 3: names that are unique across an account's regions (IAM, S3) are looked up without a region; with
// only world_by_name (account, region, type, name) that read every world row of the account, so a create in a
// 5,000-stack account cost ~1.6 ms per resource (found by bench/ scaling). This index serves that lookup.
export const sql = `
CREATE INDEX world_by_account_name ON world (account, type, name);
`;
