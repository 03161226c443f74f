-- A queued entry's id is its rowid, without AUTOINCREMENT: that keyword
-- makes every insert also update `sqlite_sequence`, a second row written and
-- a page more in every group commit of bets. Nothing is ever deleted from
-- the queue, so a new id is still one past the largest (an id a rolled-back
-- insert had used is given again, but no one saw it), and the entries still
-- waiting are still exactly those past the last leaf's entry.
CREATE TABLE log_queue_rowid (
    id          INTEGER PRIMARY KEY,
    entry       BLOB NOT NULL,
    leaf_hash   BLOB NOT NULL,
    subject     TEXT,
    created_at  INTEGER NOT NULL,
    name        TEXT
);
INSERT INTO log_queue_rowid (id, entry, leaf_hash, subject, created_at, name)
    SELECT id, entry, leaf_hash, subject, created_at, name FROM log_queue ORDER BY id;
DROP TABLE log_queue;
ALTER TABLE log_queue_rowid RENAME TO log_queue;
CREATE INDEX log_queue_subject ON log_queue (subject) WHERE subject IS NOT NULL;
CREATE INDEX log_queue_name ON log_queue (name) WHERE name IS NOT NULL;
DELETE FROM sqlite_sequence WHERE name = 'log_queue';
