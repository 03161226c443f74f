-- A dice bet is its own log entry: its outcome entry is a function of the
-- bet's row, its pair's commitment and client seed (fixed from the pair's
-- first bet on) and the bet's time, so the bet's row is the entry's durable
-- record and a bet queues nothing beside it. `logged` marks the bets placed
-- while the log ran (a flag costs a row one byte: SQLite stores 0 and 1 as
-- the column's type code in the record header, with no value bytes). Bets
-- placed before this migration queued their entries in `log_queue` and keep
-- them there.
ALTER TABLE bets ADD COLUMN logged INTEGER NOT NULL DEFAULT 0;

-- The queue and the bets make one order, the order the single writer
-- committed them in: a queued entry comes after every bet whose id is at
-- most its `bets_before` (the largest bet id when it was queued) and before
-- every later one. Entries queued before this migration precede every
-- logged bet (NULL, read as 0).
ALTER TABLE log_queue ADD COLUMN bets_before INTEGER;

-- A leaf is either a queued entry (`entry_id`) or a logged bet (`bet_id`).
CREATE TABLE log_leaves_either (
    leaf_index  INTEGER PRIMARY KEY,
    entry_id    INTEGER,
    bet_id      INTEGER,
    leaf_hash   BLOB NOT NULL,
    CHECK ((entry_id IS NULL) <> (bet_id IS NULL))
);
INSERT INTO log_leaves_either (leaf_index, entry_id, leaf_hash)
    SELECT leaf_index, entry_id, leaf_hash FROM log_leaves ORDER BY leaf_index;
DROP TABLE log_leaves;
ALTER TABLE log_leaves_either RENAME TO log_leaves;

-- How far the sequencer has taken each source: the last queued entry and
-- the last bet given a leaf (0 before the first). One row, updated by each
-- sequencing step: the last leaf alone no longer tells both.
CREATE TABLE log_sequenced (
    single   INTEGER PRIMARY KEY CHECK (single = 1),
    entry_id INTEGER NOT NULL,
    bet_id   INTEGER NOT NULL
);
INSERT INTO log_sequenced (single, entry_id, bet_id)
    SELECT 1, ifnull((SELECT max(entry_id) FROM log_leaves), 0), 0;
