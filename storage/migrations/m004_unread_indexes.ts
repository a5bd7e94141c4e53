// Migration 4: fewer B-trees written per commit. Every B-tree a commit touches is at least one more page in the WAL,
// and a deploy commits often (bench/README.md).
// - journal_by_operation served no query: the journal is written for people and tests to read, never by a lookup.
// - operations rows now live only while their operation runs (recovery reads them; storage/journal.ts deletes a
//   row when its operation ends), so the table stays a few rows long and needs no index on its state.
// (Clustering stack_resources and world WITHOUT ROWID on their keys was tried: their rows carry ~1 KB of JSON, so
// rows inserted across fifty stacks at once split pages all over the table, and the WAL grew by a fifth.)
export const sql = `
DROP INDEX IF EXISTS journal_by_operation;

DELETE FROM operations WHERE state = 'done';
DROP INDEX IF EXISTS operations_running;
`;
