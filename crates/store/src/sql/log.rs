//! The statements of the transparency log, for both backends: one table
//! layout (`migrations/*/`, since `0002_one_log_layout.sql`). What only one
//! backend runs stays in it: SQLite's row-at-a-time writes and probes and
//! its floors raised as a step gives leaves (`sqlite/log_tx.rs`);
//! PostgreSQL's batches sent as arrays and its floors raised in two steps
//! (`postgres/log_tx.rs`, `postgres/floors.rs`).
//!
//! The tables: `log_entries` holds the commitments and reveals queued for
//! a leaf; a logged dice bet is its own outcome entry. `log_leaves` gives
//! each leaf its source, a queued entry's id or a bet's. `log_hash_runs`
//! holds every hash a step adds to the tree, leaves' and nodes', in one
//! row. `log_waiting_floors` says where each source's waiting entries
//! begin. `log_hash_buckets` finds a leaf by its hash.

use crate::sql::statement::Statement;

/// Queues an entry: bytes, leaf hash, subject, name, time, and the last bet
/// id given so far (the bets up to it come before the entry,
/// [`crate::translog::order`]).
pub(crate) static INSERT_ENTRY: Statement = Statement::new(
    "INSERT INTO log_entries (entry, leaf_hash, subject, name, created_at, bets_before)
     VALUES (?1, ?2, ?3, ?4, ?5, LAST_BET_ID)",
);

/// The entries an idempotent call queued, in queue order.
pub(crate) static ENTRIES_OF_SUBJECT: Statement =
    Statement::new("SELECT entry FROM log_entries WHERE subject = ?1 ORDER BY id");

/// The entries queued under any of a list of names, in queue order.
pub(crate) static ENTRIES_NAMED: Statement =
    Statement::new("SELECT entry FROM log_entries WHERE name = ANY(?1) ORDER BY id");

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
pub(crate) static WAITING_ENTRIES: Statement = Statement::new(concat!(
    "SELECT id, leaf_hash, bets_before FROM log_entries WHERE ",
    waiting_entry!(),
    " ORDER BY id LIMIT ?1"
));

/// Up to a limit of logged bets waiting, in id order.
pub(crate) static WAITING_BETS: Statement = Statement::new(concat!(
    "SELECT id FROM bets WHERE ",
    waiting_bet!(),
    " ORDER BY id LIMIT ?1"
));

/// The first waiting queued entry with a leaf hash.
pub(crate) static WAITING_ENTRY_BY_HASH: Statement = Statement::new(concat!(
    "SELECT entry FROM log_entries WHERE ",
    waiting_entry!(),
    " AND leaf_hash = ?1 ORDER BY id LIMIT 1"
));

/// The entries of leaves `from .. to`: a queued entry's bytes, or the bet
/// to rebuild the entry from.
pub(crate) static LEAVES: Statement = Statement::new(
    "SELECT l.bet_id, q.entry FROM log_leaves l LEFT JOIN log_entries q ON q.id = l.entry_id
     WHERE l.leaf_index >= ?1 AND l.leaf_index < ?2 ORDER BY l.leaf_index",
);

/// Stores a step's hashes, one run of stored-hash indexes from the first.
pub(crate) static INSERT_HASH_RUN: Statement =
    Statement::new("INSERT INTO log_hash_runs (first_index, hashes) VALUES (?1, ?2)");

/// The runs that hold the stored indexes `first ..= last`: the last to
/// start at or before `first`, and every later one starting by `last`.
pub(crate) static RUNS_OVER: Statement = Statement::new(
    "SELECT first_index, hashes FROM log_hash_runs WHERE first_index <= ?2 AND first_index >=
         COALESCE((SELECT MAX(first_index) FROM log_hash_runs WHERE first_index <= ?1), 0)
     ORDER BY first_index",
);

/// Stores a signed checkpoint: size, note, time.
pub(crate) static INSERT_CHECKPOINT: Statement =
    Statement::new("INSERT INTO log_checkpoints (size, note, created_at) VALUES (?1, ?2, ?3)");

/// The checkpoint of the largest tree.
pub(crate) static LATEST_CHECKPOINT: Statement =
    Statement::new("SELECT size, note, created_at FROM log_checkpoints ORDER BY size DESC LIMIT 1");

/// The checkpoint of a tree size.
pub(crate) static CHECKPOINT_AT: Statement =
    Statement::new("SELECT size, note, created_at FROM log_checkpoints WHERE size = ?1");

/// Stores a witness's cosignature (size, witness, line, time) once.
pub(crate) static INSERT_COSIGNATURE: Statement = Statement::new(
    "INSERT INTO log_cosignatures (size, witness, line, created_at)
     VALUES (?1, ?2, ?3, ?4) ON CONFLICT (size, witness) DO NOTHING",
);

/// A checkpoint's cosignature lines, by witness.
pub(crate) static COSIGNATURE_LINES: Statement =
    Statement::new("SELECT line FROM log_cosignatures WHERE size = ?1 ORDER BY witness");

/// The largest size a witness cosigned.
pub(crate) static COSIGNED_SIZE: Statement =
    Statement::new("SELECT MAX(size) FROM log_cosignatures WHERE witness = ?1");

/// The largest size with at least a number of cosignatures.
pub(crate) static LATEST_COSIGNED: Statement = Statement::new(
    "SELECT size FROM log_cosignatures GROUP BY size HAVING COUNT(*) >= ?1
     ORDER BY size DESC LIMIT 1",
);

/// A new log from size 0 ([`crate::LogStore::start_new_log`]), first:
/// each source's floor raised past every entry the old log gave a leaf
/// (those that wait go into the new log).
pub(crate) static NEW_LOG_FLOORS: Statement = Statement::new(
    "UPDATE log_waiting_floors SET floor_leaf = 0,
     floor = GREATEST(floor, COALESCE((SELECT MAX(CASE log_waiting_floors.source
         WHEN 'queue' THEN entry_id ELSE bet_id END) FROM log_leaves), 0))",
);

/// Then the old log's rows, emptied in this order.
pub(crate) static NEW_LOG_EMPTIED: [Statement; 5] = [
    Statement::new("DELETE FROM log_cosignatures"),
    Statement::new("DELETE FROM log_checkpoints"),
    Statement::new("DELETE FROM log_hash_runs"),
    Statement::new("DELETE FROM log_hash_buckets"),
    Statement::new("DELETE FROM log_leaves"),
];

/// Every statement here.
#[cfg(test)]
pub(crate) const ALL: [&Statement; 22] = [
    &INSERT_ENTRY,
    &ENTRIES_OF_SUBJECT,
    &ENTRIES_NAMED,
    &WAITING_ENTRIES,
    &WAITING_BETS,
    &WAITING_ENTRY_BY_HASH,
    &LEAVES,
    &INSERT_HASH_RUN,
    &RUNS_OVER,
    &INSERT_CHECKPOINT,
    &LATEST_CHECKPOINT,
    &CHECKPOINT_AT,
    &INSERT_COSIGNATURE,
    &COSIGNATURE_LINES,
    &COSIGNED_SIZE,
    &LATEST_COSIGNED,
    &NEW_LOG_FLOORS,
    &NEW_LOG_EMPTIED[0],
    &NEW_LOG_EMPTIED[1],
    &NEW_LOG_EMPTIED[2],
    &NEW_LOG_EMPTIED[3],
    &NEW_LOG_EMPTIED[4],
];
