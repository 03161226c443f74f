-- Rounds carry a version compared on every write; a record is stored once
-- with the players who may read it; idempotent responses of operator and
-- player calls; leases naming the process that serves a resource.
ALTER TABLE rounds ADD COLUMN version BIGINT NOT NULL DEFAULT 0;

CREATE TABLE record_readers (
    record_id BIGINT NOT NULL REFERENCES records(id),
    player_id BIGINT NOT NULL REFERENCES players(id),
    PRIMARY KEY (player_id, record_id)
);
INSERT INTO record_readers (record_id, player_id)
    SELECT id, owner_id FROM records WHERE owner_id IS NOT NULL;
CREATE INDEX record_readers_record ON record_readers(record_id);
DROP INDEX records_owner;
ALTER TABLE records DROP COLUMN owner_id;

CREATE TABLE idempotency (
    scope        TEXT NOT NULL,
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    response     TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (scope, key)
);

CREATE TABLE leases (
    resource   TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX leases_owner ON leases(owner);
