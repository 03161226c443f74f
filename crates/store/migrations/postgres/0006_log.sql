-- The transparency log (docs/spec.md §16). An entry is queued here in the
-- transaction that shows its commitment, reveal or outcome; the sequencer
-- later gives it a leaf index, stores the tree's new hashes and signs a
-- checkpoint, all in one transaction.
CREATE TABLE log_entries (
    id          BIGSERIAL PRIMARY KEY,
    entry       BYTEA NOT NULL,
    leaf_hash   BYTEA NOT NULL,
    leaf_index  BIGINT UNIQUE,
    created_at  BIGINT NOT NULL
);
CREATE INDEX log_entries_pending ON log_entries (id) WHERE leaf_index IS NULL;
CREATE INDEX log_entries_hash ON log_entries (leaf_hash);

-- Every hash of the tree once, by `stored_hash_index` (Go's sumdb/tlog order):
-- any tile, proof or past root is read from here.
CREATE TABLE log_hashes (
    idx   BIGINT PRIMARY KEY,
    hash  BYTEA NOT NULL
);

-- Signed checkpoints, one per tree size the sequencer reached.
CREATE TABLE log_checkpoints (
    size        BIGINT PRIMARY KEY,
    note        TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
