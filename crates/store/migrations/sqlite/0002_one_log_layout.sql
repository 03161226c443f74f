-- The log's tables become the layout PostgreSQL's 0002 also reaches, so
-- the two backends differ in dialect only and their statements sit side by
-- side in `crates/store/src/translog/sql.rs`.
--
-- The queue is `log_entries`, as on PostgreSQL.
ALTER TABLE log_queue RENAME TO log_entries;
DROP INDEX log_queue_subject;
DROP INDEX log_queue_name;
CREATE INDEX log_entries_subject ON log_entries (subject) WHERE subject IS NOT NULL;
CREATE INDEX log_entries_name ON log_entries (name) WHERE name IS NOT NULL;

-- The waiting entries of each source (the queue, the logged bets) are
-- found above its floor: every entry at or below it has a leaf, or was
-- never committed. An entry above the floor waits unless a leaf from
-- `floor_leaf` on holds it.
-- One writer commits in turn, so ids follow commit order and a step raises
-- each floor to the last id it took, `floor_leaf` to the tree size it
-- reached: the last ids `log_sequenced` kept, at the current size.
CREATE TABLE log_waiting_floors (
    source      TEXT PRIMARY KEY CHECK (source IN ('queue', 'bets')),
    floor       INTEGER NOT NULL,
    floor_leaf  INTEGER NOT NULL
);
INSERT INTO log_waiting_floors (source, floor, floor_leaf)
    SELECT 'queue', entry_id, (SELECT count(*) FROM log_leaves) FROM log_sequenced
    UNION ALL
    SELECT 'bets', bet_id, (SELECT count(*) FROM log_leaves) FROM log_sequenced;
DROP TABLE log_sequenced;

-- Every hash a step adds to the tree, its leaves' and the nodes above
-- them, in one row: Go's stored hashes are appended in order of their
-- `stored_hash_index`, so a step's are one run of indexes from
-- `first_index` on, 32 bytes each, one read as a slice of them.
-- The node-only runs are kept aside as `log_node_runs`: the store fills
-- the new runs from the leaves' hashes, holds the nodes it computes to the
-- ones kept, then drops `log_node_runs` and `log_leaves.leaf_hash`
-- (`crates/store/src/sqlite/upgrade.rs`), all in this migration's
-- transaction.
ALTER TABLE log_hash_runs RENAME TO log_node_runs;
CREATE TABLE log_hash_runs (
    first_index  INTEGER PRIMARY KEY,
    hashes       BLOB NOT NULL
);
