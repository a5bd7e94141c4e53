// Migration 5: events are indexed by a short stack key (the stack row's rowid) instead of the ~100-byte stack ARN.
// Fifty stacks deploying at once put their ARN-keyed index entries on a dozen different pages in every commit
// (18% of the WAL's frames, bench/README.md); small integer keys of stacks created together share a page or two.
// Stack rows are never deleted but by the control API's reset, which empties the events too, so the key is stable.
export const sql = `
ALTER TABLE events ADD COLUMN stack_key INTEGER NOT NULL DEFAULT 0;
UPDATE events SET stack_key = COALESCE((SELECT rowid FROM stacks WHERE stacks.stack_id = events.stack_id), 0);
CREATE INDEX events_by_stack_key ON events (stack_key, seq);
DROP INDEX events_by_stack;
`;
