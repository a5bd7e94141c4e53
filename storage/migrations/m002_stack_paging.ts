// Migration 2: ListStacks and DescribeStacks page newest-first by rowid within an account and region. With only
// stacks_by_created, SQLite read every stack of the account and sorted them for each page (a temp B-tree; found by
// bench/, see bench/README.md); an index on (account, region) is ordered by rowid within them, so a page reads
// only its own rows. stacks_by_created served no query.
export const sql = `
CREATE INDEX stacks_by_account ON stacks (account, region);
DROP INDEX IF EXISTS stacks_by_created;
`;
