-- The queued entries are found above a floor: every entry at or below it has
-- its leaf index, or was never committed. Without one, finding them went
-- through the index of leaf indexes, whose entries for the queued version of
-- every sequenced row (its NULL) stay until a vacuum: each step read them
-- all again, a cost that grew with the load.
--
-- Ids are given out of commit order (a bet may commit after a later one), so
-- the floor is raised in two steps (docs/service.md, "What a bet writes"):
-- a candidate, the highest id given so far, is kept with the first
-- transaction id not yet given; once every transaction before that one has
-- ended and no entry up to the candidate waits, the candidate is the floor.
-- For that, a queued entry's transaction has its id before the entry takes
-- one: the default below asks for it first.
ALTER TABLE log_entries ALTER COLUMN id SET DEFAULT
    CASE WHEN pg_current_xact_id() IS NOT NULL THEN nextval('log_entries_id_seq'::regclass) END;

CREATE TABLE log_pending_floor (
    single      BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (single),
    floor       BIGINT NOT NULL,
    candidate   BIGINT,
    after_xid   xid8
);
INSERT INTO log_pending_floor (floor) VALUES (0);
