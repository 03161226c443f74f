-- Rounds carry a version compared on every write; a record is stored once
-- with the players who may read it; idempotent responses of operator and
-- player calls; leases naming the process that serves a resource.
ALTER TABLE rounds ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

CREATE TABLE records_next (
    id         INTEGER PRIMARY KEY,
    scheme     TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
INSERT INTO records_next (id, scheme, body, created_at)
    SELECT id, scheme, body, created_at FROM records;
CREATE TABLE record_readers (
    record_id INTEGER NOT NULL REFERENCES records_next(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (player_id, record_id)
);
INSERT INTO record_readers (record_id, player_id)
    SELECT id, owner_id FROM records WHERE owner_id IS NOT NULL;
DROP TABLE records;
ALTER TABLE records_next RENAME TO records;
CREATE INDEX record_readers_record ON record_readers(record_id);

CREATE TABLE idempotency (
    scope        TEXT NOT NULL,
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    response     TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
);

CREATE TABLE leases (
    resource   TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX leases_owner ON leases(owner);
