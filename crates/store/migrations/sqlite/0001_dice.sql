-- Players, dice seed pairs, bets and revealed records.
-- Chip amounts that can pass 2^63 (balances, payouts) are decimal TEXT:
-- SQLite has no 128-bit integer, and all arithmetic happens in Rust inside
-- the single writer's transaction.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE players (
    id         INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    balance    TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE seed_pairs (
    id            INTEGER PRIMARY KEY,
    player_id     INTEGER NOT NULL REFERENCES players(id),
    commitment    TEXT NOT NULL,
    sealed_seed   BLOB,
    client_seed   TEXT NOT NULL,
    next_nonce    INTEGER NOT NULL DEFAULT 0,
    revealed_seed TEXT,
    created_at    INTEGER NOT NULL,
    revealed_at   INTEGER
);
CREATE UNIQUE INDEX seed_pairs_current ON seed_pairs(player_id) WHERE revealed_at IS NULL;
CREATE INDEX seed_pairs_revealed ON seed_pairs(player_id, id) WHERE revealed_at IS NOT NULL;

CREATE TABLE bets (
    id              INTEGER PRIMARY KEY,
    player_id       INTEGER NOT NULL REFERENCES players(id),
    pair_id         INTEGER NOT NULL REFERENCES seed_pairs(id),
    nonce           INTEGER NOT NULL,
    amount          INTEGER NOT NULL,
    condition       TEXT NOT NULL,
    target          INTEGER NOT NULL,
    roll            INTEGER NOT NULL,
    win             INTEGER NOT NULL,
    payout          TEXT NOT NULL,
    balance_after   TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    UNIQUE (player_id, idempotency_key),
    UNIQUE (pair_id, nonce)
);
CREATE INDEX bets_player ON bets(player_id, id);

CREATE TABLE records (
    id         INTEGER PRIMARY KEY,
    owner_id   INTEGER REFERENCES players(id),
    scheme     TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX records_owner ON records(owner_id, id);
