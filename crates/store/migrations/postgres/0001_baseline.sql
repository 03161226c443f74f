-- The schema every PostgreSQL database starts from. Every later schema
-- change is a new numbered migration beside this file (see README.md);
-- this file never changes once a database holds rows.
--
-- Chip amounts that can pass 2^63 (balances, payouts) are NUMERIC(40,0).

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Players, dice seed pairs and bets.
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

-- A dice bet is its own log entry: its outcome entry is a function of the
-- bet's row, its pair's commitment and client seed (fixed from the pair's
-- first bet on) and the bet's time, so the bet queues nothing beside it.
-- `logged` marks the bets placed while the log ran.
--
-- A bet's transaction has its transaction id before the bet takes its id
-- (the default asks for it first): the bets' floor in `log_waiting_floors`
-- rests on it. An identity column takes no such default, so bets take
-- their ids from a plain sequence.
CREATE SEQUENCE bets_id_seq;
CREATE TABLE bets (
    id              BIGINT PRIMARY KEY
                    DEFAULT CASE WHEN pg_current_xact_id() IS NOT NULL
                                 THEN nextval('bets_id_seq'::regclass) END,
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
    logged          BOOLEAN NOT NULL DEFAULT FALSE,
    UNIQUE (player_id, idempotency_key),
    UNIQUE (pair_id, nonce)
);
ALTER SEQUENCE bets_id_seq OWNED BY bets.id;
CREATE INDEX bets_player ON bets(player_id, id);

-- Rounds: every committed secret other than dice pairs (matches, chess
-- seeds, poker sessions, hold'em hands), with opaque JSON state, a version
-- compared on every write, and an append-only log of what was drawn or sent.
CREATE TABLE rounds (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL,
    commitment    TEXT NOT NULL,
    sealed_seed   BYTEA,
    revealed_seed TEXT,
    state         TEXT NOT NULL,
    status        TEXT NOT NULL,
    log_len       BIGINT NOT NULL DEFAULT 0,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    version       BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX rounds_kind_status ON rounds(kind, status, created_at);

CREATE TABLE round_log (
    round_id   TEXT NOT NULL REFERENCES rounds(id),
    seq        BIGINT NOT NULL,
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (round_id, seq)
);

-- A record is stored once, with the players who may read it.
CREATE TABLE records (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    scheme     TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE record_readers (
    record_id BIGINT NOT NULL REFERENCES records(id),
    player_id BIGINT NOT NULL REFERENCES players(id),
    PRIMARY KEY (player_id, record_id)
);
CREATE INDEX record_readers_record ON record_readers(record_id);

-- Idempotent responses of operator and player calls.
CREATE TABLE idempotency (
    scope        TEXT NOT NULL,
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    response     TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (scope, key)
);

-- Leases naming the process that serves a resource.
CREATE TABLE leases (
    resource   TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX leases_owner ON leases(owner);

-- Live events too large for a notification: the notification carries the
-- id, listeners read the body; rows are deleted a minute later.
CREATE TABLE event_bodies (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX event_bodies_created ON event_bodies(created_at);

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

-- The transparency log (docs/spec.md §16).
--
-- Entries other than bets' outcomes are queued here in the transaction
-- that shows their commitment or reveal. `bets_before` is the last bet id
-- given when the entry was queued: a bet with an id at most this comes
-- before the entry, a later one after (docs/service.md, "Order").
-- `subject` names the idempotent call that queued it (`<scope>\n<key>`,
-- never served), `name` the commitment or reveal it is (docs/spec.md
-- §16.5). As for bets, the entry's transaction has its id before the entry
-- takes one (see `log_waiting_floors`).
CREATE SEQUENCE log_entries_id_seq;
CREATE TABLE log_entries (
    id          BIGINT PRIMARY KEY
                DEFAULT CASE WHEN pg_current_xact_id() IS NOT NULL
                             THEN nextval('log_entries_id_seq'::regclass) END,
    entry       BYTEA NOT NULL,
    leaf_hash   BYTEA NOT NULL,
    created_at  BIGINT NOT NULL,
    subject     TEXT,
    name        TEXT,
    bets_before BIGINT NOT NULL
);
ALTER SEQUENCE log_entries_id_seq OWNED BY log_entries.id;
CREATE INDEX log_entries_subject ON log_entries (subject) WHERE subject IS NOT NULL;
CREATE INDEX log_entries_name ON log_entries (name) WHERE name IS NOT NULL;

-- A sequencing step's leaves in one row, in leaf order from `first_leaf`:
-- each leaf's source, a queued entry's id or a logged bet's id negated.
-- Stored uncompressed: compressing a step's 800 ids took 0.38 ms a write
-- against 0.08 ms without, to save 5.5 kB of a step's 8.5 kB.
CREATE TABLE log_leaf_runs (
    first_leaf  BIGINT PRIMARY KEY,
    sources     BIGINT[] NOT NULL
);
ALTER TABLE log_leaf_runs ALTER COLUMN sources SET STORAGE EXTERNAL;

-- Every hash a step adds to the tree, its leaves' and the nodes above
-- them, in one row: Go's stored hashes are appended in order of their
-- `stored_hash_index`, so a step's are one run of indexes from
-- `first_index` on, 32 bytes each. The hashes are random, so they are
-- stored uncompressed, and one hash is read as a slice of them.
CREATE TABLE log_hash_runs (
    first_index  BIGINT PRIMARY KEY,
    hashes       BYTEA NOT NULL
);
ALTER TABLE log_hash_runs ALTER COLUMN hashes SET STORAGE EXTERNAL;

-- The waiting entries of each source are found above a floor: every entry
-- at or below it is in a run, or was never committed. Ids are given out of
-- commit order (a bet may commit after a later one), so the floor is
-- raised in two steps (docs/service.md, "What a bet writes"): a candidate,
-- the highest id given so far, is kept with the first transaction id not
-- yet given; once every transaction before that one has ended and no entry
-- up to the candidate waits, the candidate is the floor. An entry above
-- its source's floor waits unless a run from `floor_leaf` on holds it: ids
-- above a candidate are given after the step that took it read it, so only
-- the runs of later steps, from `candidate_leaf` (the tree size that step
-- reached), hold them.
CREATE TABLE log_waiting_floors (
    source          TEXT PRIMARY KEY CHECK (source IN ('queue', 'bets')),
    floor           BIGINT NOT NULL,
    floor_leaf      BIGINT NOT NULL,
    candidate       BIGINT,
    candidate_leaf  BIGINT,
    after_xid       xid8
);
INSERT INTO log_waiting_floors (source, floor, floor_leaf) VALUES ('queue', 0, 0), ('bets', 0, 0);

-- `/log/receipts/{hash}` finds a leaf by its hash through chunks of 16,384
-- leaves: once a chunk is complete its leaves are written in 256 rows, the
-- row of bucket b holding, sorted, every leaf of the chunk whose hash
-- begins with byte b, each as its 32-byte hash and its 2-byte big-endian
-- offset in the chunk. A lookup reads one bucket per chunk, then the
-- incomplete chunk's leaves and the waiting entries. A bucket holds 64
-- leaves (2 kB) on average: kept in the row, where the default would try
-- to compress random hashes and move most rows out of line.
CREATE TABLE log_hash_buckets (
    chunk    BIGINT NOT NULL,
    bucket   SMALLINT NOT NULL CHECK (bucket BETWEEN 0 AND 255),
    leaves   BYTEA NOT NULL,
    PRIMARY KEY (chunk, bucket)
);
ALTER TABLE log_hash_buckets ALTER COLUMN leaves SET STORAGE EXTERNAL;
ALTER TABLE log_hash_buckets SET (toast_tuple_target = 8160);

-- Signed checkpoints, one per tree size the sequencer reached.
CREATE TABLE log_checkpoints (
    size        BIGINT PRIMARY KEY,
    note        TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

-- Witness cosignatures (docs/spec.md §16.9): each witness's C2SP
-- tlog-cosignature line on a checkpoint, verified against the witness's key
-- before it is stored. A witness is named by its verifier key.
CREATE TABLE log_cosignatures (
    size        BIGINT NOT NULL REFERENCES log_checkpoints (size),
    witness     TEXT NOT NULL,
    line        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (size, witness)
);
CREATE INDEX log_cosignatures_witness ON log_cosignatures (witness, size);
