-- A round's second secret, sealed like its seed but never revealed: a
-- live table's evidence key (docs/spec.md §20.7), the Ed25519 key it signs
-- what it tells a seat with. Its seed is revealed when the round ends;
-- this key never is, or anyone could sign evidence in the table's name
-- afterwards. Sealed with the seed's key, bound to the round's id.
CREATE TABLE round_keys (
    round_id   TEXT PRIMARY KEY REFERENCES rounds(id),
    sealed_key BLOB NOT NULL
);
