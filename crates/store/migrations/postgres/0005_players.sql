-- Players the operator creates for its own users, and the free play chips
-- it grants them (one ledger row each; chips are never bought or moved).
CREATE TABLE operator_players (
    external_id TEXT PRIMARY KEY,
    player_id   BIGINT NOT NULL UNIQUE REFERENCES players(id),
    created_at  BIGINT NOT NULL
);

CREATE TABLE chip_grants (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id     BIGINT NOT NULL REFERENCES players(id),
    grant_key     TEXT NOT NULL,
    amount        NUMERIC(40, 0) NOT NULL CHECK (amount > 0),
    balance_after NUMERIC(40, 0) NOT NULL,
    created_at    BIGINT NOT NULL,
    UNIQUE (player_id, grant_key)
);
