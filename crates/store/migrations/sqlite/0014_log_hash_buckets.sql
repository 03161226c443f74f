-- A complete chunk's sorted leaf hashes (0009) in 256 rows instead of
-- 16,384, as on PostgreSQL (its 0015): the row of bucket b holds, sorted,
-- every leaf of the chunk whose hash begins with byte b, each as its
-- 32-byte hash and its 2-byte big-endian offset in the chunk. Sealing a
-- chunk inserted 16,384 rows on the writer every bet waits for; now it
-- inserts 256. A lookup reads one bucket per chunk.
CREATE TABLE log_hash_buckets (
    chunk   INTEGER NOT NULL,
    bucket  INTEGER NOT NULL CHECK (bucket BETWEEN 0 AND 255),
    leaves  BLOB NOT NULL,
    PRIMARY KEY (chunk, bucket)
) WITHOUT ROWID;

-- SQLite reads no byte of a blob as a number: the first byte is read from
-- its two hex digits, and each leaf is built as hex and decoded once per
-- bucket.
INSERT INTO log_hash_buckets (chunk, bucket, leaves)
    SELECT chunk,
           (instr('0123456789ABCDEF', substr(hex(leaf_hash), 1, 1)) - 1) * 16
             + instr('0123456789ABCDEF', substr(hex(leaf_hash), 2, 1)) - 1,
           unhex(group_concat(hex(leaf_hash) || printf('%04X', leaf_index - chunk * 16384), ''
                              ORDER BY leaf_hash, leaf_index))
    FROM log_hash_chunks GROUP BY chunk, substr(leaf_hash, 1, 1);
DROP TABLE log_hash_chunks
