-- A round's log may fold: an entry that sums up the ones since the previous
-- such entry (a hold'em hand's end, which carries the hand's record) lets the
-- store delete those. `log_folded` is the index from which the log still holds
-- every entry; the logs already stored are kept whole.
ALTER TABLE rounds ADD COLUMN log_folded BIGINT NOT NULL DEFAULT 0;
UPDATE rounds SET log_folded = log_len;
