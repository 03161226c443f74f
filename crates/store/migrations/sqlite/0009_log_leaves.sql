-- The log keeps no index that an entry would update at a random place (a
-- leaf hash is random: such an index costs a page write per entry). The
-- queue is append-only; the sequencer appends leaves to their own table
-- instead of updating the queued rows. On SQLite one writer commits in turn,
-- so queue ids follow commit order and the entries still waiting are exactly
-- those past the last leaf's entry.
--
-- `/log/receipts/{hash}` finds a leaf by its hash through chunks of 16,384
-- leaves: once a chunk is complete its hashes are written sorted, keyed by
-- (chunk, hash), so the write is an append and a lookup is one probe per
-- chunk; the incomplete chunk and the queue are read directly.
CREATE TABLE log_queue (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    entry       BLOB NOT NULL,
    leaf_hash   BLOB NOT NULL,
    subject     TEXT,
    created_at  INTEGER NOT NULL
);
INSERT INTO log_queue (id, entry, leaf_hash, subject, created_at)
    SELECT id, entry, leaf_hash, subject, created_at FROM log_entries ORDER BY id;
CREATE INDEX log_queue_subject ON log_queue (subject) WHERE subject IS NOT NULL;

CREATE TABLE log_leaves (
    leaf_index  INTEGER PRIMARY KEY,
    entry_id    INTEGER NOT NULL,
    leaf_hash   BLOB NOT NULL
);
INSERT INTO log_leaves (leaf_index, entry_id, leaf_hash)
    SELECT leaf_index, id, leaf_hash FROM log_entries WHERE leaf_index IS NOT NULL ORDER BY leaf_index;

CREATE TABLE log_hash_chunks (
    chunk       INTEGER NOT NULL,
    leaf_hash   BLOB NOT NULL,
    leaf_index  INTEGER NOT NULL,
    PRIMARY KEY (chunk, leaf_hash, leaf_index)
) WITHOUT ROWID;
INSERT INTO log_hash_chunks (chunk, leaf_hash, leaf_index)
    SELECT leaf_index / 16384, leaf_hash, leaf_index FROM log_leaves
    WHERE leaf_index < (SELECT (count(*) / 16384) * 16384 FROM log_leaves)
    ORDER BY 1, 2, 3;

DROP TABLE log_entries
