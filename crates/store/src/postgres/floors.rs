//! How a PostgreSQL step raises the log's floors. Ids are given out of
//! commit order, so a floor is raised in two steps
//! (docs/decisions/0017-postgres-floors.md): a step takes each source's
//! highest id given so far as a candidate, with its own transaction id; a
//! later step makes it the floor once every transaction before that one
//! has ended. SQLite's one writer needs none of it.

/// The candidates no running transaction can still add an entry below.
pub(super) const WITHIN_REACH: &str = "SELECT source, candidate FROM log_waiting_floors
     WHERE after_xid IS NOT NULL AND pg_snapshot_xmin(pg_current_snapshot()) >= after_xid";

/// Whether this transaction has no id yet, and each source's last id given.
pub(super) const LAST_IDS: &str = "SELECT pg_current_xact_id_if_assigned() IS NULL,
     (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM log_entries_id_seq),
     (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM bets_id_seq)";

/// Makes the settled candidates (queue's `$1`, bets' `$2`) the floors.
pub(super) const SETTLE: &str =
    "UPDATE log_waiting_floors SET floor = candidate, floor_leaf = candidate_leaf,
         candidate = NULL, candidate_leaf = NULL, after_xid = NULL
     WHERE after_xid IS NOT NULL
       AND candidate = CASE source WHEN 'queue' THEN $1 ELSE $2 END";

/// Takes new candidates where none waits: tree size `$1`, queue's `$2`,
/// bets' `$3`, and this transaction's id.
pub(super) const TAKE_CANDIDATES: &str = "UPDATE log_waiting_floors SET candidate_leaf = $1,
         candidate = CASE source WHEN 'queue' THEN $2 ELSE $3 END,
         after_xid = pg_current_xact_id()
     WHERE after_xid IS NULL";
