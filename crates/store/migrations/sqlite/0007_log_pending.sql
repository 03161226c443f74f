-- Queued entries are found through the unique index on `leaf_index` (which
-- holds the NULLs too): one index fewer to write with every queued entry.
DROP INDEX log_entries_pending;
