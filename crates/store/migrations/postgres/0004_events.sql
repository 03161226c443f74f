-- Live events too large for a notification: the notification carries the
-- id, listeners read the body; rows are deleted a minute later.
CREATE TABLE event_bodies (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    body       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX event_bodies_created ON event_bodies(created_at);
