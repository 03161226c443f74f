-- Players, dice seed pairs, bets and revealed records.
-- Chip amounts that can pass 2^63 (balances, payouts) are NUMERIC(40,0).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE players (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    balance    NUMERIC(40, 0) NOT NULL CHECK (balance >= 0),
    created_at BIGINT NOT NULL
);

CREATE TABLE seed_pairs (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id     BIGINT NOT NULL REFERENCES players(id),
    commitment    TEXT NOT NULL,
    sealed_seed   BYTEA,
    client_seed   TEXT NOT NULL,
    next_nonce    BIGINT NOT NULL DEFAULT 0,
    revealed_seed TEXT,
    created_at    BIGINT NOT NULL,
    revealed_at   BIGINT
);
CREATE UNIQUE INDEX seed_pairs_current ON seed_pairs(player_id) WHERE revealed_at IS NULL;
CREATE INDEX seed_pairs_revealed ON seed_pairs(player_id, id) WHERE revealed_at IS NOT NULL;

CREATE TABLE bets (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id       BIGINT NOT NULL REFERENCES players(id),
    pair_id         BIGINT NOT NULL REFERENCES seed_pairs(id),
    nonce           BIGINT NOT NULL,
    amount          BIGINT NOT NULL,
    condition       TEXT NOT NULL,
    target          INTEGER NOT NULL,
    roll            INTEGER NOT NULL,
    win             BOOLEAN NOT NULL,
    payout          NUMERIC(40, 0) NOT NULL,
    balance_after   NUMERIC(40, 0) NOT NULL,
    idempotency_key TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    UNIQUE (player_id, idempotency_key),
    UNIQUE (pair_id, nonce)
);
CREATE INDEX bets_player ON bets(player_id, id);

CREATE TABLE records (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id   BIGINT REFERENCES players(id),
    scheme     TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX records_owner ON records(owner_id, id);
