-- The log's tables become the layout SQLite's 0002 also reaches, so the
-- two backends differ in dialect only and their statements sit side by
-- side in `crates/store/src/translog/sql.rs`.
--
-- The leaves, appended by the sequencer: each a queued entry (`entry_id`)
-- or a logged bet (`bet_id`), whose entry is rebuilt from its row. A leaf's
-- hash is kept with the nodes' in `log_hash_runs`. They were a step's
-- array of sources (an entry's id, or a bet's id negated) in
-- `log_leaf_runs`.
CREATE TABLE log_leaves (
    leaf_index  BIGINT PRIMARY KEY,
    entry_id    BIGINT,
    bet_id      BIGINT,
    CHECK ((entry_id IS NULL) <> (bet_id IS NULL))
);
INSERT INTO log_leaves (leaf_index, entry_id, bet_id)
    SELECT r.first_leaf + s.n - 1,
           CASE WHEN s.source > 0 THEN s.source END,
           CASE WHEN s.source < 0 THEN -s.source END
    FROM log_leaf_runs r, unnest(r.sources) WITH ORDINALITY AS s (source, n);
DROP TABLE log_leaf_runs;
