//! The SQL primitives of the transparency log, which each backend provides
//! beside its [`crate::tx::Tx`] ones.

use std::collections::HashMap;

use crate::convert;
use crate::error::{StoreError, StoreResult};
use crate::translog::appender::Appender;
use crate::translog::bet_leaves::BetLeaves;
pub(crate) use crate::translog::logged::{hash_bytes, EntryAt, HashBytes};
use crate::translog::logged::{LogCheckpoint, LoggedEntry};
use crate::translog::order::{PerSource, Queued, Waiting};

/// The entries `found` by bet id, in the order of `ids`: what
/// [`LogTx::logged_bet_entries`] answers from a backend's read.
///
/// # Errors
/// An id without its row.
pub(crate) fn in_order(ids: &[i64], mut found: HashMap<i64, Vec<u8>>) -> StoreResult<Vec<Vec<u8>>> {
    ids.iter()
        .map(|id| {
            found
                .remove(id)
                .ok_or_else(|| StoreError::other("a logged bet's row is missing"))
        })
        .collect()
}

/// A checkpoint row.
pub(crate) fn checkpoint_row(
    row: Option<(i64, String, i64)>,
) -> StoreResult<Option<LogCheckpoint>> {
    row.map(|(size, note, signed_at_ms)| {
        Ok(LogCheckpoint {
            size: convert::to_u64(size, "tree size")?,
            note,
            cosignatures: Vec::new(),
            signed_at_ms,
        })
    })
    .transpose()
}

/// The log's statements inside one transaction (or one read connection):
/// each backend binds and runs its text of [`crate::sql::log`] and the few
/// only it runs; what they are combined into is decided once, in
/// [`crate::translog`].
pub(crate) trait LogTx {
    /// The leaf hashes this process remembers for its waiting bets.
    fn bet_leaves(&self) -> &BetLeaves;

    /// What queues this transaction's log entries; `None` when the store's
    /// log is off.
    fn appender(&self) -> Option<Appender>;

    /// Queues an entry with its leaf hash, the idempotent call that queued
    /// it and its name ([`crate::translog::entry_name`]).
    async fn insert_log_entry(
        &mut self,
        entry: &[u8],
        leaf_hash: &HashBytes,
        subject: Option<&str>,
        name: Option<&str>,
        now: i64,
    ) -> StoreResult<()>;

    /// The entries queued under `subject`, in queue order.
    async fn log_entries_of(&mut self, subject: &str) -> StoreResult<Vec<Vec<u8>>>;

    /// The entries queued under any of `names`, in queue order.
    async fn log_entries_named(&mut self, names: &[String]) -> StoreResult<Vec<Vec<u8>>>;

    /// Up to `limit` entries of each source without a leaf, in id order,
    /// both read in one snapshot ([`crate::translog::waiting`]).
    async fn waiting_log_entries(&mut self, limit: u32) -> StoreResult<Waiting>;

    /// Up to `limit` queued entries without a leaf, in id order.
    async fn waiting_queued(&mut self, limit: u32) -> StoreResult<Vec<Queued>>;

    /// The ids of up to `limit` logged bets without a leaf, in order.
    async fn waiting_bet_ids(&mut self, limit: u32) -> StoreResult<Vec<i64>>;

    /// The first queued entry without a leaf whose leaf hash is `leaf_hash`.
    async fn waiting_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<Vec<u8>>>;

    /// The outcome entries of the logged bets `ids` (ascending), in order.
    async fn logged_bet_entries(&mut self, ids: &[i64]) -> StoreResult<Vec<Vec<u8>>>;

    /// Gives each entry `(where, leaf index)` its leaf: indexes from the
    /// tree's size on, in order, growing it to `size`. Fails if a leaf
    /// has its entry already (another step took it).
    async fn insert_leaves(&mut self, assigned: &[(EntryAt, u64)], size: u64) -> StoreResult<()>;

    /// For leaves `from .. to`, in order: the bet a leaf's entry is
    /// rebuilt from, or the queued entry's bytes.
    async fn leaf_rows(&mut self, from: u64, to: u64) -> StoreResult<Vec<LeafRow>>;

    /// Read by a sequencing plan before the waiting entries, where the
    /// backend raises a floor in two steps (PostgreSQL, whose ids do not
    /// follow commit order; SQLite's do, and it raises its floors as it
    /// gives leaves): the id each floor can be raised to once every entry
    /// up to it has a leaf, if every transaction that could write one has
    /// ended. A plan whose read then takes every entry of the source
    /// waiting up to it settles it.
    async fn floor_within_reach(&mut self) -> StoreResult<PerSource<Option<i64>>> {
        Ok(PerSource::default())
    }

    /// The first write of a step whose leaves grow the tree to `size`:
    /// raises each floor to its `settled` id (what
    /// [`LogTx::floor_within_reach`] offered, if the step took every entry
    /// up to it) and takes the next candidates. First, because on
    /// PostgreSQL the candidates must be read before the step's transaction
    /// is given an id (`postgres/log_tx.rs`).
    async fn raise_pending_floor(
        &mut self,
        settled: PerSource<Option<i64>>,
        size: u64,
    ) -> StoreResult<()> {
        let _ = (settled, size);
        Ok(())
    }

    /// Stores the hashes a step adds, one run of stored-hash indexes from
    /// `first_index`, 32 bytes each.
    async fn insert_hash_run(&mut self, first_index: u64, hashes: &[u8]) -> StoreResult<()>;

    /// The stored hashes among `indexes` (Go's `stored_hash_index`; any
    /// order, a missing one left out).
    async fn log_hashes(&mut self, indexes: &[u64]) -> StoreResult<Vec<(u64, HashBytes)>>;

    /// The runs that hold the stored indexes `first ..= last`: each its
    /// first index and its hashes, in order.
    async fn hash_runs_over(&mut self, first: u64, last: u64) -> StoreResult<Vec<(u64, Vec<u8>)>>;

    /// Stores a completed chunk's buckets of sorted hashes.
    async fn insert_hash_buckets(
        &mut self,
        chunk: u64,
        buckets: Vec<(i16, Vec<u8>)>,
    ) -> StoreResult<()>;

    /// The buckets of chunks below `sealed` that may hold `leaf_hash` (the
    /// bucket of its first byte), by chunk.
    async fn hash_buckets_for(
        &mut self,
        leaf_hash: &HashBytes,
        sealed: u64,
    ) -> StoreResult<Vec<(u64, Vec<u8>)>>;

    /// Empties the log for a new one from size 0
    /// ([`crate::sql::log::NEW_LOG_FLOORS`], [`crate::sql::log::NEW_LOG_EMPTIED`]).
    async fn start_new_log(&mut self) -> StoreResult<()>;

    /// Stores a signed checkpoint.
    async fn insert_log_checkpoint(&mut self, size: u64, note: &str, now: i64) -> StoreResult<()>;

    /// The checkpoint of the largest tree.
    async fn latest_log_checkpoint(&mut self) -> StoreResult<Option<LogCheckpoint>>;

    /// The checkpoint of the tree of `size` leaves.
    async fn log_checkpoint_at(&mut self, size: u64) -> StoreResult<Option<LogCheckpoint>>;

    /// Stores `witness`'s cosignature `line` on the checkpoint of `size`
    /// (a second one of the same witness and size is ignored).
    async fn insert_log_cosignature(
        &mut self,
        size: u64,
        witness: &str,
        line: &str,
        now: i64,
    ) -> StoreResult<()>;

    /// The cosignature lines of the checkpoint of `size`, by witness.
    async fn log_cosignature_lines(&mut self, size: u64) -> StoreResult<Vec<String>>;

    /// The largest size `witness` cosigned.
    async fn log_cosigned_size(&mut self, witness: &str) -> StoreResult<Option<u64>>;

    /// The largest size with at least `min` cosignatures.
    async fn latest_cosigned_size(&mut self, min: u32) -> StoreResult<Option<u64>>;

    /// The entries of leaves `from .. from + count`, in order (fewer if the
    /// tree is smaller), in one snapshot ([`crate::translog::leaves`]).
    async fn log_leaves(&mut self, from: u64, count: u32) -> StoreResult<Vec<Vec<u8>>>;

    /// An entry by its leaf hash (the earliest, should two be equal), in
    /// one snapshot ([`crate::translog::entry_by_hash`]).
    async fn log_entry_by_hash(
        &mut self,
        leaf_hash: &HashBytes,
    ) -> StoreResult<Option<LoggedEntry>>;
}

/// A leaf as [`LogTx::leaf_rows`] reads it: the logged bet it rebuilds
/// from, or the queued entry's bytes.
pub(crate) type LeafRow = (Option<i64>, Option<Vec<u8>>);
