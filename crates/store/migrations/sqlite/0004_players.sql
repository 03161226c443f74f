-- Players the operator creates for its own users, and the free play chips
-- it grants them (one ledger row each; chips are never bought or moved).
CREATE TABLE operator_players (
    external_id TEXT PRIMARY KEY,
    player_id   INTEGER NOT NULL UNIQUE REFERENCES players(id),
    created_at  INTEGER NOT NULL
);

CREATE TABLE chip_grants (
    id            INTEGER PRIMARY KEY,
    player_id     INTEGER NOT NULL REFERENCES players(id),
    grant_key     TEXT NOT NULL,
    amount        TEXT NOT NULL,
    balance_after TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    UNIQUE (player_id, grant_key)
);
