-- A leaf hash is random, so an index on it costs every queued entry a write
-- at a random page (and, after each checkpoint, a full-page image in the
-- WAL). `/log/receipts/{hash}` finds a leaf through chunks of 16,384 leaves
-- instead: once a chunk is complete the sequencer writes its hashes sorted
-- under the chunk's number (an append), so a lookup is one probe per chunk,
-- then a read of the incomplete chunk's leaves and of the waiting entries.
CREATE TABLE log_hash_chunks (
    chunk       BIGINT NOT NULL,
    leaf_hash   BYTEA NOT NULL,
    leaf_index  BIGINT NOT NULL,
    PRIMARY KEY (chunk, leaf_hash, leaf_index)
);
INSERT INTO log_hash_chunks (chunk, leaf_hash, leaf_index)
    SELECT leaf_index / 16384, leaf_hash, leaf_index FROM log_entries
    WHERE leaf_index < (SELECT (count(leaf_index) / 16384) * 16384 FROM log_entries)
    ORDER BY 1, 2, 3;
DROP INDEX log_entries_hash
