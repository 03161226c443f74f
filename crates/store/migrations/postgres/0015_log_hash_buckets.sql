-- A complete chunk's sorted leaf hashes (0010) in 256 rows instead of
-- 16,384: the row of bucket b holds, sorted, every leaf of the chunk whose
-- hash begins with byte b, each as its 32-byte hash and its 2-byte
-- big-endian offset in the chunk. A row and its index entry per leaf were
-- about 200 bytes of WAL a leaf; the buckets are the 34 bytes themselves.
-- A lookup reads one bucket per chunk.
CREATE TABLE log_hash_buckets (
    chunk    BIGINT NOT NULL,
    bucket   SMALLINT NOT NULL CHECK (bucket BETWEEN 0 AND 255),
    leaves   BYTEA NOT NULL,
    PRIMARY KEY (chunk, bucket)
);
-- A bucket holds 64 leaves (2 kB) on average: kept in the row, where the
-- default would try to compress random hashes and move most rows out of
-- line. A bucket too large for its page still goes out of line.
ALTER TABLE log_hash_buckets ALTER COLUMN leaves SET STORAGE EXTERNAL;
ALTER TABLE log_hash_buckets SET (toast_tuple_target = 8160);

INSERT INTO log_hash_buckets (chunk, bucket, leaves)
    SELECT chunk, get_byte(leaf_hash, 0),
           string_agg(leaf_hash || int2send((leaf_index - chunk * 16384)::smallint), ''::bytea
                      ORDER BY leaf_hash, leaf_index)
    FROM log_hash_chunks GROUP BY chunk, get_byte(leaf_hash, 0);
DROP TABLE log_hash_chunks;
