-- Witness cosignatures (docs/spec.md §16.9): each witness's C2SP
-- tlog-cosignature line on a checkpoint, verified against the witness's key
-- before it is stored. A witness is named by its verifier key; the largest
-- size it cosigned is the old size of the next request to it.
CREATE TABLE log_cosignatures (
    size        INTEGER NOT NULL REFERENCES log_checkpoints (size),
    witness     TEXT NOT NULL,
    line        TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (size, witness)
);
CREATE INDEX log_cosignatures_witness ON log_cosignatures (witness, size);
