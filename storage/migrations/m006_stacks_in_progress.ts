// Migration 6: a partial index of the stacks whose status ends in _IN_PROGRESS, the ones a restart must carry on
// (state-machine/recovery.ts). Without it every start read the whole stacks table: ~25 ms at 5,000 stacks
// (bench/README.md). It holds only the stacks in flight, so it stays a page or two.
export const sql = String.raw`
CREATE INDEX stacks_in_progress ON stacks (status) WHERE status LIKE '%\_IN\_PROGRESS' ESCAPE '\';
`;
