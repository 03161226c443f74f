-- Entry names (docs/spec.md §16.5): a commitment or reveal entry is found
-- by its kind and ids, so every later view that shows it (a match, a poker
-- table, a hold'em table) carries its receipt. Bets' outcomes have none, so
-- the partial index costs a bet nothing. Entries queued before this
-- migration have no name; their views carry no receipt.
ALTER TABLE log_entries ADD COLUMN name TEXT;
CREATE INDEX log_entries_name ON log_entries (name) WHERE name IS NOT NULL;
