-- A logged bet keeps its outcome entry's leaf hash, computed when it is
-- placed: the sequencer then reads 32 bytes a bet in id order instead of
-- joining the bet's pair, rebuilding its entry and hashing it, and a lookup
-- by hash among the bets still waiting compares stored hashes. Bets logged
-- before this migration have none (NULL): their entries are rebuilt as
-- before.
ALTER TABLE bets ADD COLUMN leaf_hash BLOB;
