-- The schema every SQLite database starts from. Every later schema change
-- is a new numbered migration beside this file (see README.md); this file
-- never changes once a database holds rows.
--
-- Chip amounts that can pass 2^63 (balances, payouts) are decimal TEXT.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Players, dice seed pairs and bets.
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

-- A dice bet is its own log entry: its outcome entry is a function of the
-- bet's row, its pair's commitment and client seed (fixed from the pair's
-- first bet on) and the bet's time, so the bet queues nothing beside it.
-- `logged` marks the bets placed while the log ran (a flag costs a row one
-- byte: SQLite stores 0 and 1 as the column's type code).
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
    logged          INTEGER NOT NULL DEFAULT 0,
    UNIQUE (player_id, idempotency_key),
    UNIQUE (pair_id, nonce)
);
CREATE INDEX bets_player ON bets(player_id, id);

-- Rounds: every committed secret other than dice pairs (matches, chess
-- seeds, poker sessions, hold'em hands), with opaque JSON state, a version
-- compared on every write, and an append-only log of what was drawn or sent.
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
    updated_at    INTEGER NOT NULL,
    version       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX rounds_kind_status ON rounds(kind, status, created_at);

CREATE TABLE round_log (
    round_id   TEXT NOT NULL REFERENCES rounds(id),
    seq        INTEGER NOT NULL,
    body       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (round_id, seq)
);

-- A record is stored once, with the players who may read it.
CREATE TABLE records (
    id         INTEGER PRIMARY KEY,
    scheme     TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE record_readers (
    record_id INTEGER NOT NULL REFERENCES records(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (player_id, record_id)
);
CREATE INDEX record_readers_record ON record_readers(record_id);

-- Idempotent responses of operator and player calls.
CREATE TABLE idempotency (
    scope        TEXT NOT NULL,
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    response     TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
);

-- Leases naming the process that serves a resource.
CREATE TABLE leases (
    resource   TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX leases_owner ON leases(owner);

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

-- The transparency log (docs/spec.md §16). The log keeps no index that an
-- entry would update at a random place (a leaf hash is random: such an
-- index costs a page write per entry).
--
-- Entries other than bets' outcomes are queued here in the transaction
-- that shows their commitment or reveal. An id is the rowid (no
-- AUTOINCREMENT, which would write `sqlite_sequence` with every insert).
-- The queue and the bets make one order, the order the single writer
-- committed them in: a queued entry comes after every bet whose id is at
-- most its `bets_before` and before every later one. `subject` names the
-- idempotent call that queued it (`<scope>\n<key>`, never served), `name`
-- the commitment or reveal it is (docs/spec.md §16.5).
CREATE TABLE log_queue (
    id          INTEGER PRIMARY KEY,
    entry       BLOB NOT NULL,
    leaf_hash   BLOB NOT NULL,
    subject     TEXT,
    created_at  INTEGER NOT NULL,
    name        TEXT,
    bets_before INTEGER NOT NULL
);
CREATE INDEX log_queue_subject ON log_queue (subject) WHERE subject IS NOT NULL;
CREATE INDEX log_queue_name ON log_queue (name) WHERE name IS NOT NULL;

-- The leaves, appended by the sequencer: each is a queued entry
-- (`entry_id`) or a logged bet (`bet_id`).
CREATE TABLE log_leaves (
    leaf_index  INTEGER PRIMARY KEY,
    entry_id    INTEGER,
    bet_id      INTEGER,
    leaf_hash   BLOB NOT NULL,
    CHECK ((entry_id IS NULL) <> (bet_id IS NULL))
);

-- How far the sequencer has taken each source: the last queued entry and
-- the last bet given a leaf (0 before the first). One row.
CREATE TABLE log_sequenced (
    single   INTEGER PRIMARY KEY CHECK (single = 1),
    entry_id INTEGER NOT NULL,
    bet_id   INTEGER NOT NULL
);
INSERT INTO log_sequenced (single, entry_id, bet_id) VALUES (1, 0, 0);

-- The node hashes (above the leaves) of one sequencing step, in one row:
-- the nodes its leaves complete, in stored-hash order (Go's
-- `stored_hash_index`), 32 bytes each, from the first node completed by
-- leaf `first_leaf` on (`fairseed_tlog::node_position`).
CREATE TABLE log_hash_runs (
    first_leaf  INTEGER PRIMARY KEY,
    hashes      BLOB NOT NULL
);

-- `/log/receipts/{hash}` finds a leaf by its hash through chunks of 16,384
-- leaves: once a chunk is complete its leaves are written in 256 rows, the
-- row of bucket b holding, sorted, every leaf of the chunk whose hash
-- begins with byte b, each as its 32-byte hash and its 2-byte big-endian
-- offset in the chunk. A lookup reads one bucket per chunk, then the
-- incomplete chunk's leaves and the queue.
CREATE TABLE log_hash_buckets (
    chunk   INTEGER NOT NULL,
    bucket  INTEGER NOT NULL CHECK (bucket BETWEEN 0 AND 255),
    leaves  BLOB NOT NULL,
    PRIMARY KEY (chunk, bucket)
) WITHOUT ROWID;

-- Signed checkpoints, one per tree size the sequencer reached.
CREATE TABLE log_checkpoints (
    size        INTEGER PRIMARY KEY,
    note        TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);

-- Witness cosignatures (docs/spec.md §16.9): each witness's C2SP
-- tlog-cosignature line on a checkpoint, verified against the witness's key
-- before it is stored. A witness is named by its verifier key.
CREATE TABLE log_cosignatures (
    size        INTEGER NOT NULL REFERENCES log_checkpoints (size),
    witness     TEXT NOT NULL,
    line        TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (size, witness)
);
CREATE INDEX log_cosignatures_witness ON log_cosignatures (witness, size);
