//! Every statement of the log, SQLite's beside PostgreSQL's: one table
//! layout (`migrations/*/`, since `0002_one_log_layout.sql`), so the two differ only in
//! dialect — placeholders (`?1` and `$1`), a list sent as JSON or as an
//! array, the last bet id read from the table or from its sequence — and
//! in how a step raises the floors ([`RAISE_FLOORS`]; PostgreSQL's
//! [`postgres_floors`]).
//!
//! The tables: `log_entries` holds the commitments and reveals queued for
//! a leaf; a logged dice bet is its own outcome entry. `log_leaves` gives
//! each leaf its source, a queued entry's id or a bet's. `log_hash_runs`
//! holds every hash a step adds to the tree, leaves' and nodes', in one
//! row. `log_waiting_floors` says where each source's waiting entries
//! begin. `log_hash_buckets` finds a leaf by its hash.

/// One statement in both dialects.
pub(crate) struct Sql {
    pub(crate) sqlite: &'static str,
    pub(crate) postgres: &'static str,
}

/// Queues an entry: bytes, leaf hash, subject, name, time, and the last bet
/// id given so far (the bets up to it come before the entry, [`super::order`]).
pub(crate) const INSERT_ENTRY: Sql = Sql {
    sqlite: "INSERT INTO log_entries (entry, leaf_hash, subject, name, created_at, bets_before)
             VALUES (?1, ?2, ?3, ?4, ?5, (SELECT ifnull(max(id), 0) FROM bets))",
    postgres: "INSERT INTO log_entries (entry, leaf_hash, subject, name, created_at, bets_before)
               VALUES ($1, $2, $3, $4, $5,
                       (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM bets_id_seq))",
};

/// The entries an idempotent call queued, in queue order.
pub(crate) const ENTRIES_OF_SUBJECT: Sql = Sql {
    sqlite: "SELECT entry FROM log_entries WHERE subject = ?1 ORDER BY id",
    postgres: "SELECT entry FROM log_entries WHERE subject = $1 ORDER BY id",
};

/// The entries queued under any of a list of names, in queue order.
pub(crate) const ENTRIES_NAMED: Sql = Sql {
    sqlite: "SELECT entry FROM log_entries
             WHERE name IN (SELECT value FROM json_each(?1)) ORDER BY id",
    postgres: "SELECT entry FROM log_entries WHERE name = ANY($1::text[]) ORDER BY id",
};

/// The condition on `log_entries` of the entries waiting for a leaf: above
/// the queue's floor and in no leaf given since the floor's.
macro_rules! waiting_entry {
    () => {
        "id > (SELECT floor FROM log_waiting_floors WHERE source = 'queue')
         AND id NOT IN (SELECT entry_id FROM log_leaves WHERE entry_id IS NOT NULL
             AND leaf_index >= (SELECT floor_leaf FROM log_waiting_floors WHERE source = 'queue'))"
    };
}

/// The condition on `bets` of the logged bets waiting for a leaf.
macro_rules! waiting_bet {
    () => {
        "id > (SELECT floor FROM log_waiting_floors WHERE source = 'bets') AND logged
         AND id NOT IN (SELECT bet_id FROM log_leaves WHERE bet_id IS NOT NULL
             AND leaf_index >= (SELECT floor_leaf FROM log_waiting_floors WHERE source = 'bets'))"
    };
}

/// Up to a limit of queued entries waiting, in id order.
pub(crate) const WAITING_ENTRIES: Sql = Sql {
    sqlite: concat!(
        "SELECT id, leaf_hash, bets_before FROM log_entries WHERE ",
        waiting_entry!(),
        " ORDER BY id LIMIT ?1"
    ),
    postgres: concat!(
        "SELECT id, leaf_hash, bets_before FROM log_entries WHERE ",
        waiting_entry!(),
        " ORDER BY id LIMIT $1"
    ),
};

/// Up to a limit of logged bets waiting, in id order.
pub(crate) const WAITING_BETS: Sql = Sql {
    sqlite: concat!(
        "SELECT id FROM bets WHERE ",
        waiting_bet!(),
        " ORDER BY id LIMIT ?1"
    ),
    postgres: concat!(
        "SELECT id FROM bets WHERE ",
        waiting_bet!(),
        " ORDER BY id LIMIT $1"
    ),
};

/// The first waiting queued entry with a leaf hash.
pub(crate) const WAITING_ENTRY_BY_HASH: Sql = Sql {
    sqlite: concat!(
        "SELECT entry FROM log_entries WHERE ",
        waiting_entry!(),
        " AND leaf_hash = ?1 ORDER BY id LIMIT 1"
    ),
    postgres: concat!(
        "SELECT entry FROM log_entries WHERE ",
        waiting_entry!(),
        " AND leaf_hash = $1 ORDER BY id LIMIT 1"
    ),
};

/// Gives leaves their sources: leaf index, queued entry's id or bet's id
/// (one of them NULL). The leaf index is the key, so a second step from
/// the same tree size fails here.
pub(crate) const INSERT_LEAVES: Sql = Sql {
    sqlite: "INSERT INTO log_leaves (leaf_index, entry_id, bet_id) VALUES (?1, ?2, ?3)",
    postgres: "INSERT INTO log_leaves (leaf_index, entry_id, bet_id)
               SELECT * FROM UNNEST($1::bigint[], $2::bigint[], $3::bigint[])",
};

/// Raises the floors on SQLite, whose ids follow commit order (one writer):
/// each to the last id of its source a step took, the leaves given since
/// to none. PostgreSQL's take two steps ([`postgres_floors`]).
pub(crate) const RAISE_FLOORS: &str = "UPDATE log_waiting_floors SET floor_leaf = ?3,
         floor = max(floor, CASE source WHEN 'queue' THEN ?1 ELSE ?2 END)";

/// The entries of leaves `from .. to`: a queued entry's bytes, or the bet
/// to rebuild the entry from.
pub(crate) const LEAVES: Sql = Sql {
    sqlite:
        "SELECT l.bet_id, q.entry FROM log_leaves l LEFT JOIN log_entries q ON q.id = l.entry_id
             WHERE l.leaf_index >= ?1 AND l.leaf_index < ?2 ORDER BY l.leaf_index",
    postgres:
        "SELECT l.bet_id, q.entry FROM log_leaves l LEFT JOIN log_entries q ON q.id = l.entry_id
               WHERE l.leaf_index >= $1 AND l.leaf_index < $2 ORDER BY l.leaf_index",
};

/// Stores a step's hashes, one run of stored-hash indexes from the first.
pub(crate) const INSERT_HASH_RUN: Sql = Sql {
    sqlite: "INSERT INTO log_hash_runs (first_index, hashes) VALUES (?1, ?2)",
    postgres: "INSERT INTO log_hash_runs (first_index, hashes) VALUES ($1, $2)",
};

/// The stored hashes asked for, each a 32-byte slice of the last run that
/// starts at or before it. PostgreSQL is asked the list (`$1`) in one round
/// trip and slices there; SQLite, in process, is asked for the run of one
/// index (`?1`) and slices it itself, keeping it for the next index, which
/// mostly falls in the same run.
pub(crate) const RUN_HASHES: Sql = Sql {
    sqlite: "SELECT first_index, hashes FROM log_hash_runs WHERE first_index <= ?1
             ORDER BY first_index DESC LIMIT 1",
    postgres: "SELECT i, substring(r.hashes FROM ((i - r.first_index) * 32 + 1)::int FOR 32)
               FROM UNNEST($1::bigint[]) AS i
               CROSS JOIN LATERAL (
                   SELECT first_index, hashes FROM log_hash_runs WHERE first_index <= i
                   ORDER BY first_index DESC LIMIT 1
               ) r
               WHERE i < r.first_index + octet_length(r.hashes) / 32",
};

/// The runs that hold the stored indexes `first ..= last`: the last to
/// start at or before `first`, and every later one starting by `last`.
pub(crate) const RUNS_OVER: Sql = Sql {
    sqlite:
        "SELECT first_index, hashes FROM log_hash_runs WHERE first_index <= ?2 AND first_index >=
                 ifnull((SELECT max(first_index) FROM log_hash_runs WHERE first_index <= ?1), 0)
             ORDER BY first_index",
    postgres:
        "SELECT first_index, hashes FROM log_hash_runs WHERE first_index <= $2 AND first_index >=
                   COALESCE((SELECT MAX(first_index) FROM log_hash_runs WHERE first_index <= $1), 0)
               ORDER BY first_index",
};

/// Stores one bucket of a completed chunk's sorted hashes; on PostgreSQL
/// all of a chunk's at once (buckets and bytes as arrays).
pub(crate) const INSERT_BUCKETS: Sql = Sql {
    sqlite: "INSERT INTO log_hash_buckets (chunk, bucket, leaves) VALUES (?1, ?2, ?3)",
    postgres: "INSERT INTO log_hash_buckets (chunk, bucket, leaves)
               SELECT $1, b, l FROM UNNEST($2::smallint[], $3::bytea[]) AS v(b, l)",
};

/// The buckets that may hold a hash, of complete chunks: SQLite is asked
/// a chunk at a time; PostgreSQL all chunks below `$2` at once, sending
/// only the buckets that hold the hash's bytes.
pub(crate) const BUCKETS: Sql = Sql {
    sqlite: "SELECT leaves FROM log_hash_buckets WHERE chunk = ?1 AND bucket = ?2",
    postgres: "SELECT chunk, leaves FROM log_hash_buckets
               WHERE bucket = $1 AND chunk < $2 AND position($3 IN leaves) > 0
               ORDER BY chunk",
};

/// Stores a signed checkpoint: size, note, time.
pub(crate) const INSERT_CHECKPOINT: Sql = Sql {
    sqlite: "INSERT INTO log_checkpoints (size, note, created_at) VALUES (?1, ?2, ?3)",
    postgres: "INSERT INTO log_checkpoints (size, note, created_at) VALUES ($1, $2, $3)",
};

/// The checkpoint of the largest tree.
pub(crate) const LATEST_CHECKPOINT: &str =
    "SELECT size, note, created_at FROM log_checkpoints ORDER BY size DESC LIMIT 1";

/// The checkpoint of a tree size.
pub(crate) const CHECKPOINT_AT: Sql = Sql {
    sqlite: "SELECT size, note, created_at FROM log_checkpoints WHERE size = ?1",
    postgres: "SELECT size, note, created_at FROM log_checkpoints WHERE size = $1",
};

/// Stores a witness's cosignature (size, witness, line, time) once.
pub(crate) const INSERT_COSIGNATURE: Sql = Sql {
    sqlite: "INSERT INTO log_cosignatures (size, witness, line, created_at)
             VALUES (?1, ?2, ?3, ?4) ON CONFLICT (size, witness) DO NOTHING",
    postgres: "INSERT INTO log_cosignatures (size, witness, line, created_at)
               VALUES ($1, $2, $3, $4) ON CONFLICT (size, witness) DO NOTHING",
};

/// A checkpoint's cosignature lines, by witness.
pub(crate) const COSIGNATURE_LINES: Sql = Sql {
    sqlite: "SELECT line FROM log_cosignatures WHERE size = ?1 ORDER BY witness",
    postgres: "SELECT line FROM log_cosignatures WHERE size = $1 ORDER BY witness",
};

/// The largest size a witness cosigned.
pub(crate) const COSIGNED_SIZE: Sql = Sql {
    sqlite: "SELECT max(size) FROM log_cosignatures WHERE witness = ?1",
    postgres: "SELECT MAX(size) FROM log_cosignatures WHERE witness = $1",
};

/// The largest size with at least a number of cosignatures.
pub(crate) const LATEST_COSIGNED: Sql = Sql {
    sqlite: "SELECT size FROM log_cosignatures GROUP BY size HAVING count(*) >= ?1
             ORDER BY size DESC LIMIT 1",
    postgres: "SELECT size FROM log_cosignatures GROUP BY size HAVING COUNT(*) >= $1
               ORDER BY size DESC LIMIT 1",
};

/// PostgreSQL gives ids out of commit order, so a floor is raised in two
/// steps (docs/decisions/0017-postgres-floors.md): a step takes each
/// source's highest id given so far as a candidate, with its own
/// transaction id; a later step makes it the floor once every transaction
/// before that one has ended. SQLite needs none of it ([`RAISE_FLOORS`]).
pub(crate) mod postgres_floors {
    /// The candidates no running transaction can still add an entry below.
    pub(crate) const WITHIN_REACH: &str = "SELECT source, candidate FROM log_waiting_floors
         WHERE after_xid IS NOT NULL AND pg_snapshot_xmin(pg_current_snapshot()) >= after_xid";

    /// Whether this transaction has no id yet, and each source's last id given.
    pub(crate) const LAST_IDS: &str = "SELECT pg_current_xact_id_if_assigned() IS NULL,
         (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM log_entries_id_seq),
         (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM bets_id_seq)";

    /// Makes the settled candidates (queue's `$1`, bets' `$2`) the floors.
    pub(crate) const SETTLE: &str =
        "UPDATE log_waiting_floors SET floor = candidate, floor_leaf = candidate_leaf,
             candidate = NULL, candidate_leaf = NULL, after_xid = NULL
         WHERE after_xid IS NOT NULL
           AND candidate = CASE source WHEN 'queue' THEN $1 ELSE $2 END";

    /// Takes new candidates where none waits: tree size `$1`, queue's `$2`,
    /// bets' `$3`, and this transaction's id.
    pub(crate) const TAKE_CANDIDATES: &str = "UPDATE log_waiting_floors SET candidate_leaf = $1,
             candidate = CASE source WHEN 'queue' THEN $2 ELSE $3 END,
             after_xid = pg_current_xact_id()
         WHERE after_xid IS NULL";
}

/// A new log from size 0 ([`crate::LogStore::start_new_log`]), first:
/// each source's floor raised past every entry the old log gave a leaf
/// (those that wait go into the new log).
pub(crate) const NEW_LOG_FLOORS: Sql = Sql {
    sqlite: "UPDATE log_waiting_floors SET floor_leaf = 0,
             floor = MAX(floor, COALESCE((SELECT MAX(CASE log_waiting_floors.source
                 WHEN 'queue' THEN entry_id ELSE bet_id END) FROM log_leaves), 0))",
    postgres: "UPDATE log_waiting_floors SET floor_leaf = 0,
               floor = GREATEST(floor, COALESCE((SELECT MAX(CASE log_waiting_floors.source
                   WHEN 'queue' THEN entry_id ELSE bet_id END) FROM log_leaves), 0))",
};

/// Then the old log's rows, emptied in this order.
pub(crate) const NEW_LOG_EMPTIED: [&str; 5] = [
    "DELETE FROM log_cosignatures",
    "DELETE FROM log_checkpoints",
    "DELETE FROM log_hash_runs",
    "DELETE FROM log_hash_buckets",
    "DELETE FROM log_leaves",
];
