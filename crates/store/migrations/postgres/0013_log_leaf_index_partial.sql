-- A queued entry has no leaf index yet, and the index of leaf indexes held
-- its NULL: every queued entry (each bet's outcome among them) wrote that
-- index beside the queue's own, all of them at its last page, and the
-- NULL stayed there for the old version of every sequenced row until a
-- vacuum. Queued entries are found above the floor (0012), not through
-- this index, so it now holds the sequenced entries only; a query on leaf
-- indexes (a range, `= ANY`, `MAX`) implies `IS NOT NULL` and uses it.
ALTER TABLE log_entries DROP CONSTRAINT log_entries_leaf_index_key;
CREATE UNIQUE INDEX log_entries_leaf_index ON log_entries (leaf_index)
    WHERE leaf_index IS NOT NULL;
