-- A dice bet is its own log entry, as on SQLite: its outcome entry is a
-- function of the bet's row, its pair's commitment and client seed (fixed
-- from the pair's first bet on) and the bet's time, so the bet's row is the
-- entry's durable record and a bet queues nothing beside it. `logged` marks
-- the bets placed while the log ran. Bets placed before this migration
-- queued their entries in `log_entries` and keep them there.
ALTER TABLE bets ADD COLUMN logged BOOLEAN NOT NULL DEFAULT FALSE;

-- A bet's transaction has its id before the bet takes one, as a queued
-- entry's does (0012): the bets' floor rests on it. An identity column
-- takes no such default, so bets take their ids from a plain sequence,
-- which goes on from the identity's.
CREATE SEQUENCE bets_id_next;
SELECT setval('bets_id_next', GREATEST(
    (SELECT last_value FROM bets_id_seq), (SELECT COALESCE(MAX(id), 0) FROM bets), 1));
ALTER TABLE bets ALTER COLUMN id DROP IDENTITY;
ALTER SEQUENCE bets_id_next RENAME TO bets_id_seq;
ALTER SEQUENCE bets_id_seq OWNED BY bets.id;
ALTER TABLE bets ALTER COLUMN id SET DEFAULT
    CASE WHEN pg_current_xact_id() IS NOT NULL THEN nextval('bets_id_seq'::regclass) END;

-- The last bet id given when an entry was queued: a bet with an id at most
-- this comes before the entry, a later one after (docs/service.md,
-- "Order"). Entries queued before this migration precede every logged bet
-- (NULL, read as 0).
ALTER TABLE log_entries ADD COLUMN bets_before BIGINT;

-- A sequencing step's leaves in one row, in leaf order from `first_leaf`:
-- each leaf's source, a queued entry's id or a logged bet's id negated. A
-- step wrote a leaf index into every entry it took, a new version of each
-- row with its index entries; now it writes one row. Leaves sequenced
-- before this migration keep their index in `log_entries.leaf_index` and
-- are still read from there.
CREATE TABLE log_leaf_runs (
    first_leaf  BIGINT PRIMARY KEY,
    sources     BIGINT[] NOT NULL
);
-- Stored uncompressed: compressing a step's 800 ids took 0.38 ms a write
-- against 0.08 ms without, to save 5.5 kB of a step's 8.5 kB.
ALTER TABLE log_leaf_runs ALTER COLUMN sources SET STORAGE EXTERNAL;

-- Every hash a step adds to the tree, its leaves' and the nodes above
-- them, in one row: Go's stored hashes are appended in order of their
-- `stored_hash_index`, so a step's are one run of indexes from
-- `first_index` on, 32 bytes each. A step wrote a row of `log_hashes` per
-- node hash and kept each leaf's hash on its entry; those of steps before
-- this migration are still read from there. The hashes are random, so
-- they are stored uncompressed: no compression is tried on the write, and
-- one hash is read as a slice of them.
CREATE TABLE log_hash_runs (
    first_index  BIGINT PRIMARY KEY,
    hashes       BYTEA NOT NULL
);
ALTER TABLE log_hash_runs ALTER COLUMN hashes SET STORAGE EXTERNAL;

-- The floors of 0012, one per source. An entry above its source's floor
-- waits unless a run from `floor_leaf` on holds it: ids above a candidate
-- are given after the step that took it read it, so only the runs of later
-- steps, from `candidate_leaf` (the tree size that step reached), hold them.
CREATE TABLE log_waiting_floors (
    source          TEXT PRIMARY KEY CHECK (source IN ('queue', 'bets')),
    floor           BIGINT NOT NULL,
    floor_leaf      BIGINT NOT NULL,
    candidate       BIGINT,
    candidate_leaf  BIGINT,
    after_xid       xid8
);
INSERT INTO log_waiting_floors (source, floor, floor_leaf, candidate, candidate_leaf, after_xid)
    SELECT 'queue', floor, 0, candidate, 0, after_xid FROM log_pending_floor;
-- No bet placed before this migration is logged.
INSERT INTO log_waiting_floors (source, floor, floor_leaf)
    SELECT 'bets', COALESCE(MAX(id), 0), 0 FROM bets;
DROP TABLE log_pending_floor;
