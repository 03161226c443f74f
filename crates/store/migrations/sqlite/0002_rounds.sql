-- Rounds: every committed secret other than dice pairs (matches, chess
-- seeds, poker sessions, selfpoker hands), with opaque JSON state and an
-- append-only log of what was drawn or sent.
CREATE TABLE rounds (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL,
    commitment    TEXT NOT NULL,
    sealed_seed   BLOB,
    revealed_seed TEXT,
    state         TEXT NOT NULL,
    status        TEXT NOT NULL,
    log_len       INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);
CREATE INDEX rounds_kind_status ON rounds(kind, status, created_at);

CREATE TABLE round_log (
    round_id   TEXT NOT NULL REFERENCES rounds(id),
    seq        INTEGER NOT NULL,
    body       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (round_id, seq)
);
