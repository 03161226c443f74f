-- The node hashes (above the leaves) of one sequencing step, in one row:
-- the nodes its leaves complete, in stored-hash order (Go's
-- `stored_hash_index`), 32 bytes each, from the first node completed by
-- leaf `first_leaf` on (`fairseed_tlog::node_position`). A step of 1,024
-- leaves wrote about 1,024 rows to `log_hashes`, one insert each on the
-- writer every bet waits for; now it writes one. Hashes of steps before
-- this migration stay in `log_hashes` and are still read from there.
CREATE TABLE log_hash_runs (
    first_leaf  INTEGER PRIMARY KEY,
    hashes      BLOB NOT NULL
);
